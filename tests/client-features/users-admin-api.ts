/**
 * The real Comptoir server (fresh PostgreSQL, a real SMTP server on loopback for the invitation
 * and reset links) behind the /config/users and /config/profils screen tests, and the DOM at its
 * origin (counting-dom.ts). Imported first by a test, so both exist before React and the client
 * modules load.
 *
 * Data: the small chain of tests/server/fixtures.ts (Alpha SAS: Paris, Lyon; Beta SARL: Nantes,
 * Lille); `admin` (CONFIGURATION and RAPPORTS, every site, profile `profile-admin`); `gerant`
 * (RAPPORTS on Paris, profile `profile-gerant`, e-mail gerant@example.com).
 */
import type { AddressInfo } from 'node:net';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { createTestApp } from '../helpers/app.ts';
import { openTestMailbox } from '../helpers/smtp.ts';
import { seedChain } from '../server/fixtures.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Comptoir-2026!';

/** Every message the SMTP server accepted. */

export const mailbox = await openTestMailbox();
/** Every message the SMTP server accepted, in order. */
export const received = mailbox.received;

export const t = await createTestApp({ config: { smtpUrl: mailbox.url } });
export const chain = await seedChain(t.database.pool);
export const adminId = await t.createUser({
  login: 'admin',
  password: PASSWORD,
  droits: ['CONFIGURATION', 'RAPPORTS'],
  allSites: true,
});
export const gerantId = await t.createUser({
  login: 'gerant',
  password: PASSWORD,
  droits: ['RAPPORTS'],
  restaurantIds: [chain.sites.paris],
});
await t.database.pool.query(`UPDATE users SET email = 'gerant@example.com' WHERE id = $1`, [gerantId]);
export const adminHeaders = await t.signIn('admin', PASSWORD);

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

/** GET `path` of the API as the administrator, straight to the server (to check what was saved). */
export async function adminGet<T>(path: string): Promise<T> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/${path}`,
    headers: { ...adminHeaders, [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/** Stops the server, the database and the SMTP server. */
export async function closeAll(): Promise<void> {
  await t.close();
  await mailbox.close();
}
