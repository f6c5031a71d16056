/**
 * A real HTTP server on a loopback port standing in for the write endpoints during outbox tests:
 * it honours `Idempotency-Key` the way DESIGN.md §7 says the Comptoir server must (a repeat gets
 * the first answer and stores nothing), stores one "row" per accepted key, records every request
 * in arrival order, and can be told to misbehave: refuse connections, answer 500 or a 4xx,
 * delay, or commit and then cut the connection before answering (a lost response). It has no
 * batch route (POST bo/outbox/batch answers 404, as a server older than it): the outbox then
 * sends one by one; tests/client/outbox-batch.test.ts tests batches against the real server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWrite {
  method: string;
  path: string;
  key: string | undefined;
  schemaVersion: string | undefined;
  authorization: string | undefined;
  body: unknown;
  at: number;
}

/** What the next request meets; consumed in order, then `ok`. */
export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; code: string }
  | { kind: 'cut' }
  | { kind: 'commitThenCut' }
  | { kind: 'delay'; ms: number };

export interface OutboxServer {
  base: string;
  received: ReceivedWrite[];
  /** Accepted writes, one per Idempotency-Key (what the database would hold). */
  rows: Map<string, { id: number; body: unknown }>;
  /** Queues behaviours for the next requests. */
  script(...behaviours: Behaviour[]): void;
  /** Forgets rows, requests and scripts; answers still pending from before are dropped. */
  reset(): void;
  /** Every request refused (connection destroyed) while true: the network is down. */
  down: boolean;
  /** Answers every request with this status while set. */
  failAll: { status: number; code: string } | null;
  /** Requests to the batch route, which this server (an older one) answers 404. */
  readonly batchCalls: number;
  close(): Promise<void>;
}

export async function startOutboxServer(): Promise<OutboxServer> {
  const received: ReceivedWrite[] = [];
  const rows = new Map<string, { id: number; body: unknown }>();
  const queue: Behaviour[] = [];
  let nextId = 1;
  let generation = 0;
  let batchCalls = 0;
  const state: { down: boolean; failAll: { status: number; code: string } | null } = {
    down: false,
    failAll: null,
  };

  function answer(key: string | undefined, body: unknown, res: http.ServerResponse, cut: boolean): void {
    const k = key ?? `no-key-${nextId}`;
    let row = rows.get(k);
    if (row && JSON.stringify(row.body) !== JSON.stringify(body)) {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'IdempotencyKeyReused', message: 'key reused with another body' }));
      return;
    }
    if (!row) {
      row = { id: nextId++, body };
      rows.set(k, row);
    }
    if (cut) {
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: row.id }));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.down) {
        res.socket?.destroy();
        return;
      }
      if (req.url?.startsWith('/api/bo/outbox/batch')) {
        // A server older than the batch route (decision record 0024): the outbox sends one by one.
        batchCalls += 1;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'NotFound', message: 'no batch route' }));
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : null;
      const key = req.headers['idempotency-key'];
      const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
      received.push({
        method: req.method ?? '',
        path: new URL(req.url ?? '/', 'http://x').pathname,
        key: header(key),
        schemaVersion: header(req.headers['x-comptoir-schema-version']),
        authorization: req.headers.authorization,
        body,
        at: Date.now(),
      });
      if (state.failAll) {
        res.writeHead(state.failAll.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: state.failAll.code, message: 'scripted' }));
        return;
      }
      const behaviour = queue.shift() ?? { kind: 'ok' };
      switch (behaviour.kind) {
        case 'ok':
          answer(header(key), body, res, false);
          return;
        case 'status':
          res.writeHead(behaviour.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: behaviour.code, message: 'scripted' }));
          return;
        case 'cut':
          res.socket?.destroy();
          return;
        case 'commitThenCut':
          answer(header(key), body, res, true);
          return;
        case 'delay': {
          const born = generation;
          setTimeout(() => {
            if (born === generation) answer(header(key), body, res, false);
            else res.socket?.destroy();
          }, behaviour.ms);
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api: OutboxServer = {
    base: `http://127.0.0.1:${port}/api/`,
    received,
    rows,
    script: (...b) => queue.push(...b),
    reset() {
      generation += 1;
      received.length = 0;
      rows.clear();
      queue.length = 0;
      nextId = 1;
      state.down = false;
      state.failAll = null;
    },
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    get failAll() {
      return state.failAll;
    },
    get batchCalls() {
      return batchCalls;
    },
    set failAll(v) {
      state.failAll = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
