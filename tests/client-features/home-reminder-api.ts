/**
 * The real servers behind the cash count reminder's screen test: a real SMTP server
 * (smtp-server, keeping what it accepts) and the Comptoir server mailing through it, on a fresh
 * PostgreSQL with the home data of tests/server/home-fixtures.ts; the DOM at its origin
 * (counting-dom.ts). Imported first by the test, so all exist before React and the client load.
 *
 * Users: `compteur` (COMPTAGE on every site, English) who reminds; `dir-paris` (role DIRECTEUR,
 * Paris, English, with an e-mail address) who is reminded.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { openTestMailbox } from '../helpers/smtp.ts';
import { seedChain } from '../server/fixtures.ts';
import { seedHome } from '../server/home-fixtures.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Correct-Horse1';

export const mailbox = await openTestMailbox();
/** Every message the SMTP server accepted, in order. */
export const received = mailbox.received;

export const t = await createTestApp({ config: { smtpUrl: mailbox.url } });
export const chain = await seedChain(t.database.pool);
await seedHome(t.database.pool, chain);
await t.createUser({
  login: 'compteur',
  password: PASSWORD,
  droits: ['COMPTAGE'],
  allSites: true,
  language: 'en',
});
const director = await t.createUser({
  login: 'dir-paris',
  password: PASSWORD,
  droits: ['RAPPORTS'],
  restaurantIds: [chain.sites.paris],
  language: 'en',
});
await t.database.pool.query(
  `UPDATE users SET role = 'DIRECTEUR', email = 'dir-paris@example.com' WHERE id = $1`,
  [director],
);

await t.app.listen({ port: 0, host: '127.0.0.1' });
installDom(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`);
