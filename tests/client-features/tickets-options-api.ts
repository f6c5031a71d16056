/**
 * The real Comptoir server (fresh PostgreSQL) behind the /tickets criteria test, and the DOM at
 * its origin (counting-dom.ts). Imported first by the test, so both exist before React and the
 * client modules load.
 *
 * Data: one site; `anne` (TICKETS, every site) whose profile refuses the cancellations criterion
 * (`optionsTickets` { cancellations: false }), and `bruno` whose profile has the `{}` every
 * profile made before the options holds. Both sign in with {@link PASSWORD}.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Tickets-Mot2passe!';

export const t = await createTestApp();
await t.database.pool.query(`INSERT INTO companies (id, raison_sociale) VALUES (1, 'Brasserie du Nord SAS')`);
await t.database.pool.query(
  `INSERT INTO sites (id, libelle, company_id, time_zone, currency) VALUES (1, 'Paris Opéra', 1, 'Europe/Paris', 'EUR')`,
);
for (const login of ['anne', 'bruno']) {
  await t.createUser({ login, password: PASSWORD, droits: ['TICKETS'], allSites: true });
}
await t.database.pool.query(
  `UPDATE profiles SET options_tickets = '{"cancellations": false}' WHERE titre = 'profile-anne'`,
);

await t.app.listen({ port: 0, host: '127.0.0.1' });
installDom(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`);

/**
 * Stops the server and its database. The client's fetch keeps its connections alive, which would
 * hold app.close() for the keep-alive timeout: they are closed first.
 */
export async function closeAll(): Promise<void> {
  const closing = t.close();
  t.app.server.closeAllConnections();
  await closing;
}
