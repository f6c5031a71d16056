/**
 * The client's own code against the real API server (a TestApp of tests/helpers/app.ts: Fastify
 * on a fresh PostgreSQL database), with Node's fetch: the server listens on a loopback port and
 * the client's modules are loaded only then, since lib/http reads the API base (VITE_API_BASE)
 * when it is first imported.
 */
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import type { TestApp } from '../helpers/app.ts';

/** The client modules every such test uses, loaded after the API base points at the server. */
export interface ClientCore {
  session: typeof import('../../src/client/lib/session.ts');
  http: typeof import('../../src/client/lib/http.ts');
  queryClient: typeof import('../../src/client/lib/query-client.ts').queryClient;
}

/**
 * Makes `t` listen on 127.0.0.1 (a free port), points the client at its `/api/` and loads the
 * client's session, http and query-client modules. Load any other client module after it.
 */
export async function connectClient(t: TestApp): Promise<ClientCore> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  vi.stubEnv('VITE_API_BASE', `http://127.0.0.1:${port}/api/`);
  return {
    session: await import('../../src/client/lib/session.ts'),
    http: await import('../../src/client/lib/http.ts'),
    queryClient: (await import('../../src/client/lib/query-client.ts')).queryClient,
  };
}

/** Undoes connectClient: drops the API base, then closes `t` (server and database) if it was made. */
export async function disconnectClient(t: TestApp | undefined): Promise<void> {
  vi.unstubAllEnvs();
  await t?.close();
}
