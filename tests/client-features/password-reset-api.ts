/**
 * The real Comptoir server (fresh PostgreSQL, a real SMTP server on loopback) behind the
 * password-reset screens' test, and the DOM at its origin (counting-dom.ts). Imported first by the
 * test, so both exist before React and the client modules load.
 *
 * Data: `marie` (RAPPORTS, every site) with the address marie@example.com and the password
 * {@link OLD_PASSWORD}.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { openTestMailbox } from '../helpers/smtp.ts';
import { installDom } from './counting-dom.ts';

export const OLD_PASSWORD = 'Ancien-Mot2passe';

/** Every message the SMTP server accepted. */

export const mailbox = await openTestMailbox();
/** Every message the SMTP server accepted, in order. */
export const received = mailbox.received;

export const t = await createTestApp({ config: { smtpUrl: mailbox.url } });
export const marieId = await t.createUser({
  login: 'marie',
  password: OLD_PASSWORD,
  droits: ['RAPPORTS'],
  allSites: true,
});
await t.database.pool.query(`UPDATE users SET email = 'marie@example.com' WHERE id = $1`, [marieId]);

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

/** The `email` and `key` of the link in the last mail received. */
export function lastLink(): { email: string; key: string } {
  const text = received.at(-1)?.text ?? '';
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in the last mail: ${text}`);
  const url = new URL(match[0]);
  return { email: url.searchParams.get('email') ?? '', key: url.searchParams.get('key') ?? '' };
}

/** Stops the server, the database and the SMTP server. */
export async function closeAll(): Promise<void> {
  await t.close();
  await mailbox.close();
}
