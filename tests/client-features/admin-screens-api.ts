/**
 * The real Comptoir server (fresh PostgreSQL, the small chain of tests/server/fixtures.ts) behind
 * the administration screens' tests, and the DOM at its origin (counting-dom.ts). Imported first
 * by a test, so both exist before React and the client modules load.
 *
 * Users (password {@link PASSWORD}): `admin` (CONFIGURATION and COMPTAGE, every site) and
 * `compteur` (COMPTAGE on Paris and Lyon: reads the counting rules, may not change them).
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { seedChain } from '../server/fixtures.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Comptoir-2026!';

export const t = await createTestApp();
export const chain = await seedChain(t.database.pool);
export const adminId = await t.createUser({
  login: 'admin',
  password: PASSWORD,
  droits: ['CONFIGURATION', 'COMPTAGE'],
  allSites: true,
});
export const counterId = await t.createUser({
  login: 'compteur',
  password: PASSWORD,
  droits: ['COMPTAGE'],
  restaurantIds: [chain.sites.paris, chain.sites.lyon],
});
/** Headers of `admin`, to read what the server holds with app.inject. */
export const adminHeaders = await t.signIn('admin', PASSWORD);

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

/** GET `path` (under /api/) as `admin`, through app.inject; the JSON answer. */
export async function readAsAdmin<T>(path: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url: `/api/${path}`, headers: adminHeaders });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/**
 * Stops the server and its database. The client's fetch keeps its connections alive, which would
 * hold app.close() for the keep-alive timeout: they are closed first.
 */
export async function closeAll(): Promise<void> {
  const closing = t.close();
  t.app.server.closeAllConnections();
  await closing;
}
