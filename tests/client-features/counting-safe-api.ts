/**
 * The real Comptoir server (fresh PostgreSQL, real SMTP server on loopback) behind the safe-screen
 * test, and the DOM at its origin (counting-dom.ts). Imported first by the test, so both exist
 * before React and the client modules load.
 *
 * Data: the small chain with the counting users of tests/server/counting/seed.ts; `chef`, a second
 * manager (COFFRE on Paris and Lyon) whose manager code is 4321; a director of Paris and one of
 * Lyon with e-mail addresses; safe counts of Paris for today and yesterday, by `manager`, not
 * countersigned. Lyon has no safe count.
 */
import type { AddressInfo } from 'node:net';
import { toWireDate } from '../../src/contract/dates.ts';
import { createTestApp } from '../helpers/app.ts';
import { openTestMailbox } from '../helpers/smtp.ts';
import { PASSWORD, seedCounting } from '../server/counting/seed.ts';
import { installDom } from './counting-dom.ts';

/** Every message the SMTP server accepted. */

export const mailbox = await openTestMailbox();
/** Every message the SMTP server accepted, in order. */
export const received = mailbox.received;

export const t = await createTestApp({ config: { smtpUrl: mailbox.url } });
export const s = await seedCounting(t);
export const today = toWireDate(new Date());
export const yesterday = toWireDate(new Date(Date.now() - 86_400_000));

const chefId = await t.createUser({
  login: 'chef',
  password: PASSWORD,
  droits: ['COFFRE'],
  restaurantIds: [s.chain.sites.paris, s.chain.sites.lyon],
});
const chef = await t.signIn('chef', PASSWORD);
await t.app.inject({
  method: 'POST',
  url: `/api/bo/setContreCode?id=${chefId}`,
  headers: chef,
  payload: { contreCode: '4321' },
});
for (const [login, site] of [
  ['dir-paris', s.chain.sites.paris],
  ['dir-lyon', s.chain.sites.lyon],
] as const) {
  const id = await t.createUser({
    login,
    password: PASSWORD,
    droits: ['COFFRE'],
    restaurantIds: [site],
    language: 'en',
  });
  await t.database.pool.query(`UPDATE users SET role = 'DIRECTEUR', email = $2 WHERE id = $1`, [
    id,
    `${login}@example.com`,
  ]);
}
for (const dateFiscale of [today, yesterday]) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/coffre/save?id=${s.manager.id}`,
    headers: s.manager.headers,
    payload: {
      site: s.chain.sites.paris,
      dateFiscale,
      openingCents: 10000,
      depositsCents: 0,
      withdrawalsCents: 0,
      contents: [{ denominationCents: 5000, quantity: 2 }],
    },
  });
  if (res.statusCode !== 200) throw new Error(`safe count not saved: ${res.body}`);
}

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

/** Stops the server, the database and the SMTP server. */
export async function closeAll(): Promise<void> {
  await t.close();
  await mailbox.close();
}
