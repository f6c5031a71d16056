/**
 * Benchmark of issue #3 point 8 and issue #17 "Outbox replay throughput": replaying 1,000 cash
 * counts queued while offline in the client outbox, against the real server on loopback, compared
 * with the same 1,000 writes sent online one by one in the same run (never a timed assertion).
 * Issue #17's targets: replay ≥ 200 writes/s and ≥ 5× one by one (decision record 0024); the
 * result says whether each was met.
 *
 * Both phases use the client's own code (src/client/lib/outbox/: `queueWrite` then
 * `replayOutbox`, IndexedDB from fake-indexeddb, the session read from idb-keyval, Node 24's Web
 * Locks) and the real Fastify app over HTTP on a fresh embedded PostgreSQL in a temporary folder:
 * - replay: 1,000 writes are queued first (not timed: that is the user typing offline), then one
 *   replay run sends them all (timed): batches of up to OUTBOX_BATCH_MAX_ITEMS writes of different
 *   drawers to POST bo/outbox/batch, up to DEFAULT_REPLAY_CONCURRENCY batches at once;
 * - online one by one: each write is queued and replayed, awaited, before the next one — what the
 *   counting screen does when the network is up (every write goes through the outbox).
 * After each phase the server must hold exactly 1,000 new cash_counts rows, else it throws.
 *
 * Run alone with `npx node bench/outbox.ts`; `npm run bench` calls {@link benchOutboxReplay}.
 */
import 'fake-indexeddb/auto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { set } from 'idb-keyval';
import { openDb } from '../src/client/lib/outbox/local-database.ts';
import {
  readStoredCredentials,
  STORED_SESSION_FORMAT,
  STORED_SESSION_KEY,
} from '../src/client/lib/outbox/credentials.ts';
import { webLock } from '../src/client/lib/outbox/lock.ts';
import { countOutbox, queueWrite } from '../src/client/lib/outbox/queue.ts';
import { type ReplayOptions, replayOutbox } from '../src/client/lib/outbox/replay.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import type { CashCountBody } from '../src/contract/counting.ts';
import { buildApp } from '../src/server/app.ts';
import { createUser } from '../src/server/auth/users.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/connect.ts';
import { profiles } from '../src/server/db/schema.ts';
import { generateDemoChain } from '../src/server/demo/generate.ts';

/** Writes per phase. */
const WRITES = 1_000;
/** Issue #17's targets for the replay: writes per second, and times the one-by-one throughput. */
const TARGET_WRITES_PER_SECOND = 200;
const TARGET_RATIO = 5;
const LOGIN = 'bench-compteur';
const PASSWORD = 'Bench-Outbox-2026!';

/** Result of {@link benchOutboxReplay}; times in seconds. */
export interface OutboxBenchResult {
  name: string;
  writes: number;
  /** One replay run sending the 1,000 queued writes (in batches). */
  replaySeconds: number;
  /** Replay throughput, writes per second. */
  writesPerSecond: number;
  /** The same 1,000 writes, each queued and sent (awaited) before the next. */
  onlineOneByOneSeconds: number;
  /** One-by-one throughput, writes per second. */
  oneByOneWritesPerSecond: number;
  /** Replay throughput ÷ one-by-one throughput (= onlineOneByOneSeconds / replaySeconds); > 1: replay is faster. */
  ratio: number;
  /** Requests the replay made (batches, and writes sent alone). */
  replayRequests: number;
  /** Issue #17's targets: replay ≥ 200 writes/s, ratio ≥ 5. */
  targetsMet: { writesPerSecond: boolean; ratio: boolean };
}

function basic(login: string, secret: string): string {
  return `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;
}

/** A full count of terminal `caisse` (every part given, so no site rule can refuse it). */
function countBody(site: number, dateFiscale: string, caisse: number): CashCountBody {
  return {
    site,
    dateFiscale,
    caisse,
    cash: [
      { denominationCents: 2000, quantity: 3 + (caisse % 7) },
      { denominationCents: 100, quantity: caisse % 13 },
    ],
    chequesCents: 1500,
    mealVouchersCents: 800,
    cardSlipsCents: 12_345,
    comment: '',
  };
}

/**
 * Starts the app on a fresh embedded PostgreSQL, runs both phases, stops everything.
 * @throws Error when a phase does not leave exactly 1,000 new rows on the server, or a write is refused.
 */
export async function benchOutboxReplay(): Promise<OutboxBenchResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-outbox-'));
  await fs.chmod(dir, 0o755);
  const database = await openDatabase({ dataDir: dir });
  const config = loadConfig({
    COMPTOIR_DEMO: '0',
    LOG_LEVEL: 'silent',
    COMPTOIR_LOGIN_RATE: '10000',
    DATA_DIR: dir,
  });
  const app = await buildApp({ config, database });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const apiBase = `http://127.0.0.1:${port}/api/`;

    await generateDemoChain(database.pool, { seed: 20261122, days: 2 });
    const { rows: siteRows } = await database.pool.query<{ id: number }>(
      'SELECT min(id)::int AS id FROM sites',
    );
    const site = siteRows[0]!.id;
    const [profile] = await database.db
      .insert(profiles)
      .values({ titre: 'bench-outbox', droits: ['COMPTAGE'], allSites: true, restaurantIds: [] })
      .returning({ id: profiles.id });
    const userId = await createUser(database.db, {
      login: LOGIN,
      password: PASSWORD,
      profileId: profile!.id,
      societesPlus: [],
      societesMoins: [],
      language: null,
      codeExploitant: null,
    });
    const signIn = await fetch(`${apiBase}bo/connexion?username=${encodeURIComponent(LOGIN)}`, {
      headers: { authorization: basic(LOGIN, PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    if (!signIn.ok) throw new Error(`sign-in refused: ${signIn.status} ${await signIn.text()}`);
    const { token } = (await signIn.json()) as { token: string };
    // Where lib/session.ts keeps the signed-in user; the replayer reads it as on a real device.
    await set(STORED_SESSION_KEY, {
      format: STORED_SESSION_FORMAT,
      user: { id: userId, login: LOGIN, token },
    });

    const db = openDb('bench-outbox');
    let requests = 0;
    const options: ReplayOptions = {
      db,
      lock: webLock(),
      apiBase,
      credentials: readStoredCredentials,
      ignoreSchedule: true,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    };
    const { rows: terminalRows } = await database.pool.query<{ id: number }>(
      'SELECT terminal_id AS id FROM terminals WHERE site_id = $1 ORDER BY terminal_id',
      [site],
    );
    const terminalIds = terminalRows.map((r) => r.id);
    if (terminalIds.length === 0) throw new Error(`site ${site} has no terminals`);
    // Write i counts terminal i mod n on one of the last days: the site's real drawers, each
    // counted once per day (a different record each), as a manager catching up after an outage.
    const today = Date.now();
    const target = (i: number) => ({
      caisse: terminalIds[i % terminalIds.length] as number,
      dateFiscale: new Date(today - Math.floor(i / terminalIds.length) * 86_400_000)
        .toISOString()
        .slice(0, 10),
    });
    const queueCount = (i: number) => {
      const { caisse, dateFiscale } = target(i);
      const body = countBody(site, dateFiscale, caisse);
      return queueWrite(db, {
        kind: 'cashCount',
        // The counting screen's lane (features/counting countingLane): one drawer, one day.
        lane: `cash|${site}|${dateFiscale}|${caisse}`,
        method: 'POST',
        path: 'bo/comptage/save',
        searchParams: { id: String(userId) },
        body,
        login: LOGIN,
        summary: { site, date: dateFiscale, terminal: caisse },
        record: { table: 'cashCounts', siteId: site, fiscalDate: dateFiscale, data: { ...body } },
      });
    };
    const rowCount = async () =>
      (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cash_counts')).rows[0]!.n;
    const expectNewRows = async (before: number, phase: string) => {
      const added = (await rowCount()) - before;
      const left = await countOutbox(db, LOGIN);
      if (added !== WRITES || left.waiting + left.sending + left.needsAttention !== 0) {
        throw new Error(
          `${phase}: the server holds ${added} new cash counts (expected ${WRITES}); outbox left ${JSON.stringify(left)}`,
        );
      }
    };

    // (a) Offline: queue every write, then time one replay run sending them all.
    const beforeReplay = await rowCount();
    for (let i = 1; i <= WRITES; i++) await queueCount(i);
    const t0 = performance.now();
    const replayed = await replayOutbox(options);
    const replaySeconds = (performance.now() - t0) / 1000;
    const replayRequests = requests;
    if (replayed?.sent !== WRITES) throw new Error(`replay sent ${JSON.stringify(replayed)}`);
    await expectNewRows(beforeReplay, 'replay');

    // (b) Online: each write queued and sent, awaited, before the next (a new version of each count).
    const beforeOnline = await rowCount();
    const t1 = performance.now();
    for (let i = 1; i <= WRITES; i++) {
      await queueCount(i);
      const one = await replayOutbox(options);
      if (one?.sent !== 1) throw new Error(`online write ${i}: ${JSON.stringify(one)}`);
    }
    const onlineOneByOneSeconds = (performance.now() - t1) / 1000;
    await expectNewRows(beforeOnline, 'online one by one');

    db.close();
    const writesPerSecond = Math.round(WRITES / replaySeconds);
    const ratio = Number((onlineOneByOneSeconds / replaySeconds).toFixed(2));
    return {
      name: 'outbox replay of 1,000 queued cash counts (batched) vs the same writes online one by one',
      writes: WRITES,
      replaySeconds: Number(replaySeconds.toFixed(3)),
      writesPerSecond,
      onlineOneByOneSeconds: Number(onlineOneByOneSeconds.toFixed(3)),
      oneByOneWritesPerSecond: Math.round(WRITES / onlineOneByOneSeconds),
      ratio,
      replayRequests,
      targetsMet: {
        writesPerSecond: writesPerSecond >= TARGET_WRITES_PER_SECOND,
        ratio: ratio >= TARGET_RATIO,
      },
    };
  } finally {
    await app.close();
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log('• outbox replay of 1,000 queued writes vs the same writes online one by one');
  console.log(JSON.stringify(await benchOutboxReplay()));
  // Now and then a handle of the in-memory IndexedDB or the locks outlived the run and kept the
  // process waiting for nothing; everything of ours is closed by then.
  process.exit(0);
}
