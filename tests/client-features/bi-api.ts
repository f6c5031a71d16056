/**
 * The real Comptoir server (fresh PostgreSQL with the hand-made chain of
 * tests/server/bi-fixture.ts and a user holding BI and RAPPORTS — for the favourites — on every site) behind the KPI/BI screen
 * tests, and the DOM at its origin (counting-dom.ts). Imported first by the test, so both exist
 * before React and the client modules load.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { seedBiChain } from '../server/bi-fixture.ts';
import { installDom } from './counting-dom.ts';

export const BI_PASSWORD = 'Comptoir-2026!';

export const t = await createTestApp();
await seedBiChain(t.database);
await t.createUser({ login: 'analyste', password: BI_PASSWORD, droits: ['BI', 'RAPPORTS'], allSites: true });

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);
