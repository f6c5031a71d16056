/**
 * A real HTTP server on a loopback port for the client tests (not a mock of ky): it answers a
 * few API paths the way the Comptoir server does and records every request it receives.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export type Handler = (req: Recorded, res: http.ServerResponse) => void;

export interface TestApi {
  base: string;
  requests: Recorded[];
  /** Sets the answer of `path` (relative to /api/). */
  on(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startTestApi(): Promise<TestApi> {
  const handlers = new Map<string, Handler>();
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api\//, '');
    const rec: Recorded = {
      method: req.method ?? 'GET',
      path,
      search: url.searchParams,
      headers: req.headers,
    };
    requests.push(rec);
    const handler = handlers.get(path);
    if (handler) handler(rec, res);
    else json(res, 404, { code: 'NotFound', message: `no route ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/api/`,
    requests,
    on: (path, handler) => handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A user as `GET bo/connexion` answers it. */
export const ADMIN = {
  id: 7,
  login: 'gérant',
  droits: ['RAPPORTS'],
  currency: 'EUR',
  role: 'admin',
  token: 'tok-123',
  codeExploitant: null,
  language: null,
};

/** Decodes `Basic base64(login:secret)` (UTF-8). */
export function decodeBasic(header: string | undefined): string | null {
  if (!header?.startsWith('Basic ')) return null;
  return Buffer.from(header.slice(6), 'base64').toString('utf8');
}
