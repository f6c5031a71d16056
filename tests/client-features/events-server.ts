/**
 * The real API server of the events calendar's screen tests (a TestApp of tests/helpers/app.ts on
 * a fresh PostgreSQL database, with the small chain of tests/server/fixtures.ts), listening on a
 * loopback port, and the DOM at its origin (counting-dom.ts). Imported first by the test, so both
 * exist before React and the client's modules load.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { seedChain } from '../server/fixtures.ts';
import { installDom } from './counting-dom.ts';

export const server = await createTestApp();
export const chain = await seedChain(server.database.pool);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = server.app.server.address() as AddressInfo;
installDom(`http://127.0.0.1:${port}/api/`);
