/**
 * Load bench of issue #17 ("Proof that stays"): the real server (`src/server/cli/start.ts`, as
 * `npm start` runs it, in its own process) on the demo chain it generates, loaded over HTTP with
 * autocannon, phase after phase:
 * - a year of sales (RapportVentes, JSON) at 5 clients — the baseline of "no collapse";
 * - the same at 50 clients; a month of sales (JSON) at 50 clients; a month's PDF at 20 clients;
 * - then idle; the server's RSS (/proc/PID/status VmRSS) is read after each phase and at the end
 *   of the idle time, and the whole sequence runs COMPTOIR_BENCH_LOAD_RUNS times (default 3) so
 *   growth from one run to the next shows. After each idle time the bench also forces full
 *   collections in the server, its worker threads included, through the inspector (the server
 *   runs with `--inspect` on a loopback port for that) and reads V8's heap: RSS that grows while
 *   the heap after collection stays flat is the allocator keeping freed memory, not a leak
 *   (decision record 0025 has the measures).
 * Reported per phase: requests per second (all answers, and those served 2xx), p50/p95/p99
 * latency of the answers served (ms; a refusal is fast and would flatter them), errors (non-2xx
 * other than 503, socket errors, timeouts) and, apart, the 503 `ServerBusy` answers: a PDF over
 * the pool's slots is refused at once with Retry-After (decision record 0022) — the designed
 * answer under saturation, not an error, but counted. autocannon does not honour Retry-After: a
 * refused connection would ask again at once and spend the phase being refused, the event loop
 * busy refusing instead of serving (decision 0022 has the measure): the PDF phase uses clients of
 * our own that wait the Retry-After they are given.
 * Targets of the issue, reported as met or not: 0 errors; year JSON p95 ≤ 1 s at 50 clients and
 * throughput ≥ 0.8 × that at 5; PDF p99 (served) ≤ 3 s at 20 clients; RSS ≤ 500 MB at the end of
 * the load and not growing between runs (RSS, and V8's heap after collection, each step after the
 * cold first run; the first step is reported apart). Never an assertion.
 *
 * Phase length: COMPTOIR_BENCH_LOAD_SECONDS (default 60, the issue's); the idle time the same.
 * COMPTOIR_BENCH_LOAD_SNAPSHOTS=<folder>: a heap snapshot of the server there at start and after
 * each run (compare them in Chrome's DevTools; taking one raises the RSS of what follows).
 * COMPTOIR_BENCH_LOAD_DATA_DIR=<folder>: the server's data folder, kept (the demo chain is made once).
 * Run alone with `node bench/load.ts`; `npm run bench` calls {@link benchLoad}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { quantileSorted } from 'simple-statistics';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import { startSettings } from './start-settings.ts';

const root = path.join(import.meta.dirname, '..');
const ADMIN = 'admin';
const PASSWORD = 'Bench-Load-2026!';

/** One phase's figures; latencies in milliseconds, RSS in MB after the phase. */
export interface LoadPhase {
  phase: string;
  clients: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  /** 2xx answers, and per second. */
  served: number;
  servedPerSecond: number;
  /** Latencies of the 2xx answers. */
  p50: number;
  p95: number;
  p99: number;
  /** Non-2xx answers other than 503, socket errors and timeouts together (the issue's "errors"). */
  errors: number;
  /** 503 answers: PDFs refused with Retry-After while every slot was taken (decision 0022). */
  busy503: number;
  /** How `errors` and `busy503` split (non2xx holds both), and the answers per status code. */
  non2xx: number;
  socketErrors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  serverRssMb: number;
}

/**
 * The server's memory after a run's idle time, in MB: `rssMb` as the idle server left it, then,
 * after two full collections forced through the inspector, V8's heap in use (`heapUsedMb`: what is
 * really retained) and reserved (`heapTotalMb`), memory outside it held by JavaScript objects
 * (`externalMb`, of which `arrayBuffersMb`: Buffers), the same for the worker threads alive (PDF
 * layout, charts: their heaps are theirs, not in `heapUsedMb`) and the RSS left (`rssAfterGcMb`).
 */
export interface ServerMemory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  workerThreads: number;
  /** Worker threads that answered: one parked between piscina tasks cannot (see workerHeaps). */
  workersMeasured: number;
  workersHeapUsedMb: number;
  workersHeapTotalMb: number;
  /** Resident part of glibc's main arena (`[heap]` in /proc/PID/smaps): the main thread's malloc. */
  mallocMainArenaMb: number;
  rssAfterGcMb: number;
}

/** Result of {@link benchLoad}. */
export interface LoadBenchResult {
  name: string;
  /** After start-up, before any load (the same probe as after each run). */
  atStart: ServerMemory;
  runs: Array<{ phases: LoadPhase[]; rssAfterIdleMb: number; memory: ServerMemory }>;
  targets: Record<string, { value: number; target: string; met: boolean }>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The resident memory of process `pid`, in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 102.4) / 10;
}

/** The resident size of the `[heap]` mapping of process `pid` (glibc's main malloc arena), in MB. */
async function mainArenaMb(pid: number): Promise<number> {
  const smaps = await fs.readFile(`/proc/${pid}/smaps`, 'utf8');
  const kb = Number(/\[heap\]\n(?:.*\n)*?Rss:\s+(\d+)/.exec(smaps)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** A Chrome DevTools Protocol session with the server's inspector (`--inspect`), loopback only. */
interface Inspector {
  send(method: string, params?: object): Promise<Record<string, unknown>>;
  /** Calls `listener` with the params of every `event` received. */
  on(event: string, listener: (params: Record<string, unknown>) => void): void;
  close(): void;
}

/** Opens a session with the inspector listening on `port` (its first target: the main thread). */
async function openInspector(port: number): Promise<Inspector> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let next = 1;
  const pending = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (msg.id !== undefined) {
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) call?.reject(new Error(msg.error.message));
      else call?.resolve(msg.result ?? {});
    } else if (msg.method) listeners.get(msg.method)?.(msg.params ?? {});
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on: (event, listener) => listeners.set(event, listener),
    close: () => socket.close(),
  };
}

/**
 * The V8 heaps of the server's worker threads (PDF layout, charts: piscina pools), each after a
 * full collection of its own, through the inspector's NodeWorker domain; in bytes.
 */
async function workerHeaps(
  inspector: Inspector,
): Promise<Array<{ heapUsed: number; heapTotal: number } | null>> {
  const sessions: string[] = [];
  inspector.on('NodeWorker.attachedToWorker', (p) => sessions.push(p.sessionId as string));
  const replies = new Map<number, (result: Record<string, unknown>) => void>();
  inspector.on('NodeWorker.receivedMessageFromWorker', (p) => {
    const msg = JSON.parse(p.message as string) as { id?: number; result?: Record<string, unknown> };
    if (msg.id !== undefined) replies.get(msg.id)?.(msg.result ?? {});
  });
  let last = 0;
  // A piscina thread waiting for its next task is parked in Atomics.wait (piscina's default):
  // it cannot answer until it gets one, so a call gives up after a while (null: not measured).
  const call = (sessionId: string, method: string, params: object = {}) =>
    new Promise<Record<string, unknown> | null>((resolve) => {
      const id = ++last;
      const timer = setTimeout(() => resolve(null), 3000);
      replies.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      void inspector.send('NodeWorker.sendMessageToWorker', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });
  await inspector.send('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // The workers already running are announced right after enable.
  await new Promise((r) => setTimeout(r, 500));
  const heaps: Array<{ heapUsed: number; heapTotal: number } | null> = [];
  for (const sessionId of sessions) {
    await call(sessionId, 'HeapProfiler.collectGarbage');
    const evaluated = await call(sessionId, 'Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const value = (evaluated?.result as { value?: string } | undefined)?.value;
    heaps.push(value ? (JSON.parse(value) as NodeJS.MemoryUsage) : null);
  }
  await inspector.send('NodeWorker.disable');
  return heaps;
}

/**
 * The server's memory now (see {@link ServerMemory}): RSS first, then two full collections and
 * `process.memoryUsage()`, evaluated in the server through its inspector; with `snapshotFile`, a
 * heap snapshot written there too (to compare two runs in Chrome's DevTools).
 */
async function serverMemory(pid: number, inspectPort: number, snapshotFile?: string): Promise<ServerMemory> {
  const rss = await rssMb(pid);
  const inspector = await openInspector(inspectPort);
  try {
    await inspector.send('HeapProfiler.collectGarbage');
    await inspector.send('HeapProfiler.collectGarbage');
    const evaluated = await inspector.send('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse((evaluated.result as { value: string }).value) as NodeJS.MemoryUsage;
    const workers = await workerHeaps(inspector);
    const measured = workers.filter((w) => w !== null);
    const rssAfterGc = await rssMb(pid);
    // A snapshot makes the server allocate its graph: taken after the figures, never before.
    if (snapshotFile) {
      const chunks: string[] = [];
      inspector.on('HeapProfiler.addHeapSnapshotChunk', (p) => chunks.push(p.chunk as string));
      await inspector.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      await fs.writeFile(snapshotFile, chunks.join(''));
    }
    const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;
    return {
      rssMb: rss,
      heapUsedMb: mb(usage.heapUsed),
      heapTotalMb: mb(usage.heapTotal),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
      workerThreads: workers.length,
      workersMeasured: measured.length,
      workersHeapUsedMb: mb(measured.reduce((n, w) => n + w.heapUsed, 0)),
      workersHeapTotalMb: mb(measured.reduce((n, w) => n + w.heapTotal, 0)),
      mallocMainArenaMb: await mainArenaMb(pid),
      rssAfterGcMb: rssAfterGc,
    };
  } finally {
    inspector.close();
  }
}

/** Waits until the server at `base` answers GET /api/version (the demo chain takes a while). */
async function ready(base: string, child: ChildProcess, timeoutMs = 15 * 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/version`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start in time');
}

/** Signs in as the administrator; answers the headers of an authenticated call. */
async function signIn(base: string): Promise<Record<string, string>> {
  const basic = (secret: string) => `Basic ${Buffer.from(`${ADMIN}:${secret}`).toString('base64')}`;
  const res = await fetch(`${base}/api/bo/connexion?username=${ADMIN}`, {
    headers: { authorization: basic(PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  if (!res.ok) throw new Error(`sign-in refused: ${res.status} ${await res.text()}`);
  const { id, token } = (await res.json()) as { id: number; token: string };
  return { authorization: basic(token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE, 'x-user-id': String(id) };
}

/** `days` days ending yesterday, as the report's dateDebut/dateFin. */
function period(days: number): { dateDebut: string; dateFin: string } {
  const end = new Date(Date.now() - 86_400_000);
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  return { dateDebut: start.toISOString().slice(0, 10), dateFin: end.toISOString().slice(0, 10) };
}

function reportPath(userId: string, format: 'JSON' | 'PDF', days: number): string {
  const { dateDebut, dateFin } = period(days);
  return (
    `/api/bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=${format}` +
    `&language=fr&dateDebut=${dateDebut}&dateFin=${dateFin}`
  );
}

/** Loads `url` with `clients` connections for `seconds`; answers the phase's figures. */
async function phase(
  name: string,
  base: string,
  url: string,
  headers: Record<string, string>,
  clients: number,
  seconds: number,
  serverPid: number,
): Promise<LoadPhase> {
  // Times of the answers served (2xx) only: a 503 is answered at once and would flatter them.
  const times: number[] = [];
  let busy = 0;
  const instance = autocannon({
    url: `${base}${url}`,
    connections: clients,
    duration: seconds,
    headers: { ...headers, 'accept-encoding': 'gzip' },
    timeout: 30,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status >= 200 && status < 300) times.push(responseTime);
    else if (status === 503) busy++;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  const at = (q: number) => (times.length === 0 ? Number.NaN : Math.round(quantileSorted(times, q)));
  const figures: LoadPhase = {
    phase: name,
    clients,
    seconds,
    requests: result.requests.total,
    requestsPerSecond: Math.round((result.requests.total / seconds) * 10) / 10,
    served: times.length,
    servedPerSecond: Math.round((times.length / seconds) * 10) / 10,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors: result.non2xx - busy + result.errors + result.timeouts,
    busy503: busy,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]),
    ),
    serverRssMb: await rssMb(serverPid),
  };
  console.log(`  ${JSON.stringify(figures)}`);
  return figures;
}

/** What {@link patientClient}s count: the times of the 2xx answers (ms) and every other outcome. */
interface PatientCounts {
  times: number[];
  statusCodes: Record<string, number>;
  busy: number;
  otherNon2xx: number;
  socketErrors: number;
  timeouts: number;
}

/**
 * One client of {@link patientPhase}: asks `url` again and again until `until` (ms since epoch),
 * one request at a time, and after a 503 waits the `Retry-After` it was given, as a client that
 * honours it would (within the phase's end).
 */
async function patientClient(url: string, headers: Record<string, string>, until: number, n: PatientCounts) {
  while (Date.now() < until) {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      n.statusCodes[res.status] = (n.statusCodes[res.status] ?? 0) + 1;
      if (res.ok) n.times.push(performance.now() - started);
      else if (res.status === 503) {
        n.busy++;
        const wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait, until - Date.now()))));
      } else n.otherNon2xx++;
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') n.timeouts++;
      else n.socketErrors++;
    }
  }
}

/**
 * Like {@link phase}, with `clients` clients of our own that honour `Retry-After` (autocannon
 * asks again at once after a 503: its connections would spend the phase being refused, a load
 * no browser makes, taking the event loop's time from the PDFs being served).
 */
async function patientPhase(
  name: string,
  base: string,
  url: string,
  headers: Record<string, string>,
  clients: number,
  seconds: number,
  serverPid: number,
): Promise<LoadPhase> {
  const n: PatientCounts = {
    times: [],
    statusCodes: {},
    busy: 0,
    otherNon2xx: 0,
    socketErrors: 0,
    timeouts: 0,
  };
  const until = Date.now() + seconds * 1000;
  const all = { ...headers, 'accept-encoding': 'gzip' };
  await Promise.all(Array.from({ length: clients }, () => patientClient(`${base}${url}`, all, until, n)));
  const times = n.times.sort((a, b) => a - b);
  const at = (q: number) => (times.length === 0 ? Number.NaN : Math.round(quantileSorted(times, q)));
  const requests = Object.values(n.statusCodes).reduce((a, b) => a + b, 0) + n.socketErrors + n.timeouts;
  const figures: LoadPhase = {
    phase: `${name} (clients honour Retry-After)`,
    clients,
    seconds,
    requests,
    requestsPerSecond: Math.round((requests / seconds) * 10) / 10,
    served: times.length,
    servedPerSecond: Math.round((times.length / seconds) * 10) / 10,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors: n.otherNon2xx + n.socketErrors + n.timeouts,
    busy503: n.busy,
    non2xx: n.otherNon2xx + n.busy,
    socketErrors: n.socketErrors,
    timeouts: n.timeouts,
    statusCodes: n.statusCodes,
    serverRssMb: await rssMb(serverPid),
  };
  console.log(`  ${JSON.stringify(figures)}`);
  return figures;
}

/**
 * One run: the four loaded phases, then the idle time; answers the phases, the RSS after idle and
 * the server's memory after forced collections (`snapshotFile`: a heap snapshot too).
 */
async function oneRun(
  base: string,
  headers: Record<string, string>,
  seconds: number,
  server: { pid: number; inspectPort: number },
  snapshotFile?: string,
) {
  const { pid } = server;
  const userId = headers['x-user-id']!;
  const auth = { authorization: headers.authorization!, [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
  const yearJson = reportPath(userId, 'JSON', 365);
  const phases = [
    await phase('year JSON', base, yearJson, auth, 5, seconds, pid),
    await phase('year JSON', base, yearJson, auth, 50, seconds, pid),
    await phase('month JSON', base, reportPath(userId, 'JSON', 31), auth, 50, seconds, pid),
    await patientPhase('month PDF', base, reportPath(userId, 'PDF', 31), auth, 20, seconds, pid),
  ];
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const memory = await serverMemory(pid, server.inspectPort, snapshotFile);
  const rssAfterIdleMb = memory.rssMb;
  console.log(
    `  server after ${seconds} s idle, then after forced collections (MB): ${JSON.stringify(memory)}`,
  );
  return { phases, rssAfterIdleMb, memory };
}

function targets(runs: LoadBenchResult['runs']): LoadBenchResult['targets'] {
  const last = runs.at(-1)!;
  const [year5, year50, , pdf20] = last.phases;
  const errors = runs.flatMap((r) => r.phases).reduce((n, p) => n + p.errors, 0);
  const busy = runs.flatMap((r) => r.phases).reduce((n, p) => n + p.busy503, 0);
  const ratio = Math.round((year50!.requestsPerSecond / year5!.requestsPerSecond) * 100) / 100;
  const loadRss = Math.max(...last.phases.map((p) => p.serverRssMb));
  // Growth between consecutive runs (MB). The first run starts from a cold server (worker threads
  // not yet started, code not yet optimised, the allocator's arenas not yet grown): its step is
  // reported apart; the target is judged on the steps after it, where a leak would keep showing.
  const steps = (of: (r: LoadBenchResult['runs'][number]) => number) =>
    runs.slice(1).map((r, i) => Math.round((of(r) - of(runs[i]!)) * 10) / 10);
  const rssSteps = steps((r) => r.rssAfterIdleMb);
  const heapSteps = steps((r) => r.memory.heapUsedMb);
  const steady = (values: number[]) => (values.length > 1 ? Math.max(...values.slice(1)) : Number.NaN);
  const rssSteady = steady(rssSteps);
  const heapSteady = steady(heapSteps);
  return {
    errors: { value: errors, target: '0', met: errors === 0 },
    // Not a target: how often the designed refusal was given (decision 0022).
    pdfBusy503: { value: busy, target: 'reported (503 + Retry-After is the bound working)', met: true },
    yearJsonP95At50: { value: year50!.p95, target: '≤ 1000 ms', met: year50!.p95 <= 1000 },
    yearJsonThroughput50Over5: { value: ratio, target: '≥ 0.8', met: ratio >= 0.8 },
    pdfP99At20: { value: pdf20!.p99, target: '≤ 3000 ms (PDFs served)', met: pdf20!.p99 <= 3000 },
    serverRssAtEndOfLoadMb: { value: loadRss, target: '≤ 500 MB', met: loadRss <= 500 },
    // Reported, not judged: the cold first run's step (see above).
    rssGrowthRun1To2Mb: { value: rssSteps[0] ?? Number.NaN, target: 'reported (warm-up)', met: true },
    heapAfterGcGrowthRun1To2Mb: {
      value: heapSteps[0] ?? Number.NaN,
      target: 'reported (warm-up)',
      met: true,
    },
    rssGrowthBetweenLaterRunsMb: {
      value: rssSteady,
      target: 'not growing: each step after run 2 ≤ 25 MB (needs 3 runs)',
      met: rssSteady <= 25,
    },
    heapAfterGcGrowthBetweenLaterRunsMb: {
      value: heapSteady,
      target: 'not growing: each step after run 2 ≤ 2 MB (needs 3 runs)',
      met: heapSteady <= 2,
    },
  };
}

/** Runs the load bench (see the module comment). */
export async function benchLoad(): Promise<LoadBenchResult> {
  const seconds = Number(process.env.COMPTOIR_BENCH_LOAD_SECONDS ?? 60);
  const runCount = Number(process.env.COMPTOIR_BENCH_LOAD_RUNS ?? 3);
  const snapshots = process.env.COMPTOIR_BENCH_LOAD_SNAPSHOTS;
  // A folder kept from an earlier run skips the demo chain's generation (to iterate on a fix).
  const keptDir = process.env.COMPTOIR_BENCH_LOAD_DATA_DIR;
  const dataDir = keptDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-load-')));
  await fs.mkdir(dataDir, { recursive: true });
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const inspectPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The inspector (loopback) only lets the bench force collections and read the heap between runs.
  const start = await startSettings();
  const flags = [...start.flags, `--inspect=127.0.0.1:${inspectPort}`];
  const child = spawn(process.execPath, [...flags, 'src/server/cli/start.ts'], {
    cwd: root,
    env: {
      ...start.env,
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      COMPTOIR_DEMO: '1',
      COMPTOIR_ADMIN_LOGIN: ADMIN,
      COMPTOIR_ADMIN_PASSWORD: PASSWORD,
      COMPTOIR_LOGIN_RATE: '1000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Node announces the inspector on standard error: not an error of the server's.
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk
      .toString()
      .replace(/^(Debugger listening on|Debugger attached|Debugger ending on|For help, see).*\n/gm, '');
    if (text) process.stderr.write(text);
  });
  try {
    await ready(base, child);
    const headers = await signIn(base);
    const { pid } = child as { pid: number };
    const atStart = await serverMemory(
      pid,
      inspectPort,
      snapshots && path.join(snapshots, 'load-0.heapsnapshot'),
    );
    const settings = [...Object.entries(start.env).map(([k, v]) => `${k}=${v}`), ...flags].join(' ');
    console.log(`  server pid ${pid} (${settings}), memory at start (MB): ${JSON.stringify(atStart)}`);
    const runs: LoadBenchResult['runs'] = [];
    for (let run = 1; run <= runCount; run++) {
      console.log(`  run ${run} of ${runCount} (${seconds} s per phase)`);
      const file = snapshots && path.join(snapshots, `load-${run}.heapsnapshot`);
      runs.push(await oneRun(base, headers, seconds, { pid, inspectPort }, file));
    }
    const result = {
      name: 'load: real server, demo chain, autocannon',
      atStart,
      runs,
      targets: targets(runs),
    };
    console.log(`  targets: ${JSON.stringify(result.targets)}`);
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (!keptDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchLoad();
