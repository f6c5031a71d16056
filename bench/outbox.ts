/**
 * Benchmark of issue #3 point 8 and issue #17 "Outbox replay throughput": replaying 1,000 cash
 * counts queued while offline in the client outbox, against the real server on loopback, compared
 * with the same 1,000 writes sent online one by one in the same run (never a timed assertion).
 * Issue #17's targets: replay ≥ 200 writes/s and ≥ 5× one by one (decision record 0024); the
 * result says whether each was met.
 *
 * Both phases use the client's own code (src/client/lib/outbox/: `queueWrite` then
 * `replayOutbox`, IndexedDB from fake-indexeddb, the session read from idb-keyval, Node 24's Web
 * Locks) in the bench's process, and the real Fastify app over HTTP on 127.0.0.1, on a fresh
 * embedded PostgreSQL in a temporary folder (bench/outbox-server.ts):
 * - replay: 1,000 writes are queued first (not timed: that is the user typing offline), then one
 *   replay run sends them all (timed): batches of up to OUTBOX_BATCH_MAX_ITEMS writes of different
 *   drawers to POST bo/outbox/batch, up to DEFAULT_REPLAY_CONCURRENCY batches at once;
 * - online one by one: each write is queued and replayed, awaited, before the next one — what the
 *   counting screen does when the network is up (every write goes through the outbox).
 * After each phase the server's database must hold exactly 1,000 new cash_counts rows and the
 * outbox none left, else it throws.
 *
 * Where the server runs (COMPTOIR_BENCH_OUTBOX_SERVER, modes separated by commas, in that order;
 * default `process,inprocess`: both, in one run):
 * - `process`: in a Node process of its own, as deployed (the client is a browser on a phone or a
 *   tablet, the server another machine's process), with `npm start`'s Node flags. A batched
 *   replay then overlaps the client's work with the server's; one by one alternates them.
 * - `inprocess`: in the bench's own thread, sharing it with the client (the figures before
 *   decision 0024's fourth section), which understates what batching gains.
 * Each mode gets its own server, folder and outbox database; the server is stopped and the folder
 * removed after the mode, also when it fails.
 *
 * Run alone with `node bench/outbox.ts`; `npm run bench` calls {@link benchOutboxReplay}.
 */
import 'fake-indexeddb/auto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { set } from 'idb-keyval';
import {
  readStoredCredentials,
  STORED_SESSION_FORMAT,
  STORED_SESSION_KEY,
} from '../src/client/lib/outbox/credentials.ts';
import { type ComptoirDb, openDb } from '../src/client/lib/outbox/local-database.ts';
import { webLock } from '../src/client/lib/outbox/lock.ts';
import { countOutbox, queueWrite } from '../src/client/lib/outbox/queue.ts';
import { type ReplayOptions, replayOutbox } from '../src/client/lib/outbox/replay.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import type { CashCountBody } from '../src/contract/counting.ts';
import {
  LOGIN,
  type OutboxBenchServer,
  type OutboxServerMode,
  PASSWORD,
  startOutboxServer,
} from './outbox-server.ts';

/** Writes per phase. */
const WRITES = 1_000;
/** Issue #17's targets for the replay: writes per second, and times the one-by-one throughput. */
const TARGET_WRITES_PER_SECOND = 200;
const TARGET_RATIO = 5;
const MODES: readonly OutboxServerMode[] = ['process', 'inprocess'];

/** One mode's figures (see the module comment); times in seconds. */
export interface OutboxModeResult {
  /** Where the server ran: its own process (as deployed) or the bench's thread. */
  server: OutboxServerMode;
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
  /** New cash_counts rows the server's database held after each phase (exactly 1,000, else the bench throws). */
  newRows: { replay: number; oneByOne: number };
  /**
   * CPU per write during each phase, in ms: the bench's process (the client; in `inprocess` mode
   * the server too) and the server's process (null in `inprocess` mode); PostgreSQL not counted.
   * Their sum against the phase's time per write says how much the two overlapped.
   */
  cpuMsPerWrite: Record<'replay' | 'oneByOne', { bench: number; server: number | null }>;
  /** Issue #17's targets: replay ≥ 200 writes/s, ratio ≥ 5. */
  targetsMet: { writesPerSecond: boolean; ratio: boolean };
}

/** Result of {@link benchOutboxReplay}: each mode run, in order. */
export interface OutboxBenchResult {
  name: string;
  modes: OutboxModeResult[];
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

/** The modes COMPTOIR_BENCH_OUTBOX_SERVER names (default: both, the deployment's shape first). */
function benchModes(): OutboxServerMode[] {
  const setting = process.env.COMPTOIR_BENCH_OUTBOX_SERVER?.trim();
  if (!setting) return [...MODES];
  const modes = setting.split(',').map((m) => m.trim());
  const unknown = modes.find((m) => !(MODES as readonly string[]).includes(m));
  if (unknown !== undefined || modes.length === 0) {
    throw new Error(`COMPTOIR_BENCH_OUTBOX_SERVER=${setting}: expected ${MODES.join(', ')}, comma-separated`);
  }
  return modes as OutboxServerMode[];
}

/**
 * Signs the bench user in over HTTP and stores the session where lib/session.ts keeps it: the
 * replayer reads it there, as on a real device.
 * @throws Error when the server refuses the sign-in.
 */
async function signIn(server: OutboxBenchServer): Promise<void> {
  const signedIn = await fetch(`${server.apiBase}bo/connexion?username=${encodeURIComponent(LOGIN)}`, {
    headers: { authorization: basic(LOGIN, PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  if (!signedIn.ok) throw new Error(`sign-in refused: ${signedIn.status} ${await signedIn.text()}`);
  const { token } = (await signedIn.json()) as { token: string };
  await set(STORED_SESSION_KEY, {
    format: STORED_SESSION_FORMAT,
    user: { id: server.userId, login: LOGIN, token },
  });
}

/** The client's side of one mode: its outbox, how it queues count i, and the rows check. */
function benchClient(server: OutboxBenchServer, db: ComptoirDb) {
  const { site, terminalIds, userId } = server;
  if (terminalIds.length === 0) throw new Error(`site ${site} has no terminals`);
  // Write i counts terminal i mod n on one of the last days: the site's real drawers, each
  // counted once per day (a different record each), as a manager catching up after an outage.
  const today = Date.now();
  const queueCount = (i: number) => {
    const caisse = terminalIds[i % terminalIds.length] as number;
    const dateFiscale = new Date(today - Math.floor(i / terminalIds.length) * 86_400_000)
      .toISOString()
      .slice(0, 10);
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
  /** @throws Error unless the server's database holds exactly WRITES more rows and the outbox none. */
  const expectNewRows = async (before: number, phase: string): Promise<number> => {
    const added = (await server.rowCount()) - before;
    const left = await countOutbox(db, LOGIN);
    if (added !== WRITES || left.waiting + left.sending + left.needsAttention !== 0) {
      throw new Error(
        `${server.mode}, ${phase}: the server holds ${added} new cash counts (expected ${WRITES}); outbox left ${JSON.stringify(left)}`,
      );
    }
    return added;
  };
  return { queueCount, expectNewRows };
}

/** Starts measuring the CPU both processes spend; the function returned gives ms per write since. */
async function cpuMeter(server: OutboxBenchServer) {
  const bench0 = process.cpuUsage();
  const server0 = await server.cpuSeconds();
  return async () => {
    const bench = process.cpuUsage(bench0);
    const server1 = await server.cpuSeconds();
    const perWrite = (seconds: number) => Number(((seconds * 1000) / WRITES).toFixed(3));
    return {
      bench: perWrite((bench.user + bench.system) / 1e6),
      server: server0 === null || server1 === null ? null : perWrite(server1 - server0),
    };
  };
}

/** Both phases against `server`, the client in this process (see the module comment). */
async function measure(server: OutboxBenchServer): Promise<OutboxModeResult> {
  await signIn(server);
  const db = openDb(`bench-outbox-${server.mode}`);
  try {
    let requests = 0;
    const options: ReplayOptions = {
      db,
      lock: webLock(),
      apiBase: server.apiBase,
      credentials: readStoredCredentials,
      ignoreSchedule: true,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    };
    const { queueCount, expectNewRows } = benchClient(server, db);

    // (a) Offline: queue every write, then time one replay run sending them all.
    const beforeReplay = await server.rowCount();
    for (let i = 1; i <= WRITES; i++) await queueCount(i);
    const replayCpu = await cpuMeter(server);
    const t0 = performance.now();
    const replayed = await replayOutbox(options);
    const replaySeconds = (performance.now() - t0) / 1000;
    const replayCpuMs = await replayCpu();
    const replayRequests = requests;
    if (replayed?.sent !== WRITES) throw new Error(`replay sent ${JSON.stringify(replayed)}`);
    const replayRows = await expectNewRows(beforeReplay, 'replay');

    // (b) Online: each write queued and sent, awaited, before the next (a new version of each count).
    const beforeOnline = await server.rowCount();
    const oneByOneCpu = await cpuMeter(server);
    const t1 = performance.now();
    for (let i = 1; i <= WRITES; i++) {
      await queueCount(i);
      const one = await replayOutbox(options);
      if (one?.sent !== 1) throw new Error(`online write ${i}: ${JSON.stringify(one)}`);
    }
    const onlineOneByOneSeconds = (performance.now() - t1) / 1000;
    const oneByOneCpuMs = await oneByOneCpu();
    const oneByOneRows = await expectNewRows(beforeOnline, 'online one by one');

    const writesPerSecond = Math.round(WRITES / replaySeconds);
    const ratio = Number((onlineOneByOneSeconds / replaySeconds).toFixed(2));
    return {
      server: server.mode,
      writes: WRITES,
      replaySeconds: Number(replaySeconds.toFixed(3)),
      writesPerSecond,
      onlineOneByOneSeconds: Number(onlineOneByOneSeconds.toFixed(3)),
      oneByOneWritesPerSecond: Math.round(WRITES / onlineOneByOneSeconds),
      ratio,
      replayRequests,
      newRows: { replay: replayRows, oneByOne: oneByOneRows },
      cpuMsPerWrite: { replay: replayCpuMs, oneByOne: oneByOneCpuMs },
      targetsMet: {
        writesPerSecond: writesPerSecond >= TARGET_WRITES_PER_SECOND,
        ratio: ratio >= TARGET_RATIO,
      },
    };
  } finally {
    db.close();
  }
}

/**
 * One mode: a fresh folder and server, both phases, then the server stopped and the folder
 * removed (also when a phase fails).
 * @throws Error when the server does not start, a write is refused, or a phase does not leave exactly 1,000 new rows.
 */
async function benchMode(mode: OutboxServerMode): Promise<OutboxModeResult> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `cpt-bench-outbox-${mode}-`));
  try {
    await fs.chmod(dir, 0o755);
    const server = await startOutboxServer(mode, dir);
    try {
      return await measure(server);
    } finally {
      await server.stop();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs both phases in each mode of COMPTOIR_BENCH_OUTBOX_SERVER (default: the server in its own
 * process, then in the bench's), printing each mode's figures as it ends.
 * @throws Error on a bad COMPTOIR_BENCH_OUTBOX_SERVER, or a mode's failure (see {@link benchMode}).
 */
export async function benchOutboxReplay(): Promise<OutboxBenchResult> {
  const modes: OutboxModeResult[] = [];
  for (const mode of benchModes()) {
    const r = await benchMode(mode);
    console.log(
      `  server ${mode}: replay ${r.writesPerSecond} writes/s (${r.replayRequests} requests), one by one ${r.oneByOneWritesPerSecond} writes/s, ratio ${r.ratio}; rows ${r.newRows.replay} + ${r.newRows.oneByOne}; CPU ms per write ${JSON.stringify(r.cpuMsPerWrite)}; targets ≥ ${TARGET_WRITES_PER_SECOND} writes/s ${r.targetsMet.writesPerSecond ? 'met' : 'NOT met'}, ≥ ${TARGET_RATIO}× ${r.targetsMet.ratio ? 'met' : 'NOT met'}`,
    );
    modes.push(r);
  }
  return {
    name: 'outbox replay of 1,000 queued cash counts (batched) vs the same writes online one by one',
    modes,
  };
}

if (import.meta.main) {
  console.log('• outbox replay of 1,000 queued writes vs the same writes online one by one');
  console.log(JSON.stringify(await benchOutboxReplay()));
  // Now and then a handle of the in-memory IndexedDB or the locks outlived the run and kept the
  // process waiting for nothing; everything of ours is closed by then.
  process.exit(0);
}
