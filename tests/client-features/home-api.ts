/**
 * The real Comptoir server behind the home page test (fresh PostgreSQL, the small chain of
 * tests/server/fixtures.ts with the home data of tests/server/home-fixtures.ts), and the DOM at
 * its origin (counting-dom.ts). Imported first by the test, so both exist before React and the
 * client modules load.
 *
 * Users: `directeur` (RAPPORTS, COFFRE, COMPTAGE, RECUS, EVENEMENTS on every site, English) and
 * `caissier` (TICKETS only, Paris).
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { seedChain } from '../server/fixtures.ts';
import { seedHome } from '../server/home-fixtures.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Correct-Horse1';
export const t = await createTestApp();
export const chain = await seedChain(t.database.pool);
export const events = await seedHome(t.database.pool, chain);
await t.createUser({
  login: 'directeur',
  password: PASSWORD,
  droits: ['RAPPORTS', 'COFFRE', 'COMPTAGE', 'RECUS', 'EVENEMENTS'],
  allSites: true,
  language: 'en',
});
await t.createUser({
  login: 'caissier',
  password: PASSWORD,
  droits: ['TICKETS'],
  restaurantIds: [chain.sites.paris],
});

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);
