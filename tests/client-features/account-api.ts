/**
 * The real Comptoir server (fresh PostgreSQL) behind the /account screen's test, and the DOM at
 * its origin (counting-dom.ts). Imported first by the test, so both exist before React and the
 * client modules load.
 *
 * Data: `paul` (RAPPORTS, every site) with the address paul@example.com and {@link PASSWORD}.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Paul-Mot2passe!';

export const t = await createTestApp();
export const paulId = await t.createUser({
  login: 'paul',
  password: PASSWORD,
  droits: ['RAPPORTS'],
  allSites: true,
});
await t.database.pool.query(`UPDATE users SET email = 'paul@example.com' WHERE id = $1`, [paulId]);

await t.app.listen({ port: 0, host: '127.0.0.1' });
installDom(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`);
