/**
 * The real Comptoir server (fresh PostgreSQL) behind the /anomalies page test, holding the chain
 * of tests/server/anomalies-fixture.ts (four planted cases on site 1), and the DOM at its origin
 * (counting-dom.ts). Imported first by the test, so both exist before React and the client load.
 * `zoe` holds RAPPORTS_ANOMALIES and TICKETS on every site and signs in with {@link PASSWORD}.
 */
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../helpers/app.ts';
import { loadAnomalyChain } from '../server/anomalies-fixture.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Anomalies-Mot2passe!';

export const t = await createTestApp();
await loadAnomalyChain(t.database);
await t.createUser({
  login: 'zoe',
  password: PASSWORD,
  droits: ['RAPPORTS_ANOMALIES', 'TICKETS'],
  allSites: true,
});

await t.app.listen({ port: 0, host: '127.0.0.1' });
installDom(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`);

/** Stops the server and its database (the client's keep-alive connections closed first). */
export async function closeAll(): Promise<void> {
  const closing = t.close();
  t.app.server.closeAllConnections();
  await closing;
}
