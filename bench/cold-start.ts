/**
 * Offline cold start of `/home` (issue #19 "Home": first contentful paint ≤ 300 ms with the
 * service worker installed). Chromium (/usr/bin/chromium or CHROME_PATH) on a phone-sized page,
 * against the production build served by the real server (`src/server/cli/start.ts` in its own
 * process, its own data folder and demo chain). Each run, in a fresh browser context: sign in
 * through the login screen, wait for the dashboard's figures and for the service worker to
 * control the page (and the persisted cache's save, decision 0021), go offline
 * (`context.setOffline`), close the page, open a new one on `/home` and read its
 * `first-contentful-paint` (Paint Timing) once the widgets are drawn, and by when the first
 * figures were on screen (the splash of index.html is the first contentful paint). Median of
 * COMPTOIR_BENCH_COLD_RUNS runs (default 7, at least 5).
 *
 * Baseline measured in the same run, for the ratio: the same cold start online (a new page on
 * `/home`, service worker installed, network up). A timed figure is reported, never asserted.
 *
 * `npm run bench` calls {@link benchColdStart} after building the client. Run alone (after
 * `npx vite build`): `npx node bench/cold-start.ts [baseURL]` — with a base URL it measures that
 * running server instead of starting one (sign-in: COMPTOIR_USER / COMPTOIR_PASSWORD).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, devices, type Page } from 'playwright-core';

const root = path.join(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** Issue #19's target for the offline cold start's first contentful paint, in milliseconds. */
export const COLD_START_TARGET_MS = 300;

/** Result of {@link benchColdStart}; times in milliseconds. */
export interface ColdStartResult {
  name: string;
  runs: number;
  offlineFcpMs: number[];
  offlineFcpMedianMs: number;
  onlineFcpMs: number[];
  onlineFcpMedianMs: number;
  /**
   * By when the first widget's figures were on screen offline (ms since navigation, read as soon as
   * Playwright saw them: an upper bound; median of the runs). The splash is the first paint.
   */
  offlineFiguresPaintMedianMs: number;
  /** Offline median over online median (same run). */
  ratio: number;
  target: { value: number; target: string; met: boolean };
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

/** Starts the built server on a free port with its own data folder; answers its base URL and a stop. */
async function startServer(password: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-cold-'));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['src/server/cli/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      COMPTOIR_DEMO: '1',
      COMPTOIR_ADMIN_LOGIN: 'admin',
      COMPTOIR_ADMIN_PASSWORD: password,
      // Each run signs in twice: seven runs are 14 sign-ins from one address, past the default 10
      // a minute on a fast machine (issue #32 E.1). Its own server needs no such limit.
      COMPTOIR_LOGIN_RATE: '10000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error('the server did not start in time');
    const up = await fetch(`${base}/api/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first contentful paint of the page, in ms since its navigation started (0 when none). */
const READ_FCP = () =>
  performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? 0;

/**
 * Submits the sign-in form of `page`; when a server the bench does not own (`npm run bench -- URL`)
 * limits sign-ins (429), waits its Retry-After and submits again, so a fast machine's many
 * sign-ins never fail the bench (issue #32 E.1).
 * @throws Error after three refusals in a row.
 */
async function signIn(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const answer = page.waitForResponse((r) => r.url().includes('/api/bo/connexion'), { timeout: 60_000 });
    await page.locator('button[type="submit"]').click();
    const res = await answer;
    if (res.status() !== 429) return;
    if (attempt === 3) throw new Error('sign-in refused three times (429): too many sign-ins');
    const wait = Number((await res.allHeaders())['retry-after'] ?? 60);
    await page.waitForTimeout((Number.isFinite(wait) ? wait : 60) * 1000 + 500);
  }
}

/**
 * One cold start: a fresh context signs in and installs the service worker, then a new page
 * opens `/home` (offline when `offline`). Answers its first contentful paint, in milliseconds.
 */
async function coldStart(browser: Browser, base: string, login: string, password: string, offline: boolean) {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: base, serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill(password);
    await signIn(page);
    await page.waitForURL(/\/home$/, { timeout: 60_000 });
    await page.locator('.home-widget .home-widget__time').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
      timeout: 60_000,
    });
    // The persister saves at most once a second (lib/query-client.ts).
    await page.waitForTimeout(1500);
    if (offline) await context.setOffline(true);
    await page.close();
    const cold = await context.newPage();
    await cold.goto('/home');
    await cold.locator('.home-widget .home-widget__time').first().waitFor({ timeout: 60_000 });
    return {
      fcp: Math.round(await cold.evaluate(READ_FCP)),
      figures: Math.round(await cold.evaluate(() => performance.now())),
    };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

/**
 * Runs the cold-start bench (see the module comment) against `base`, or against a server of its
 * own when `base` is absent. Needs a production build in dist/.
 * @throws Error when the server does not start or a page does not reach its widgets.
 */
export async function benchColdStart(base?: string): Promise<ColdStartResult> {
  const runs = Math.max(5, Number(process.env.COMPTOIR_BENCH_COLD_RUNS ?? 7));
  const login = base ? (process.env.COMPTOIR_USER ?? 'admin') : 'admin';
  const password = base ? (process.env.COMPTOIR_PASSWORD ?? 'Perf-Admin-2026!') : 'Bench-Cold-2026!';
  const server = base ? { base, stop: async () => {} } : await startServer(password);
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const offlineFcpMs: number[] = [];
    const offlineFiguresMs: number[] = [];
    const onlineFcpMs: number[] = [];
    // Alternated, so both see the same moments of a shared machine.
    for (let i = 0; i < runs; i++) {
      const offline = await coldStart(browser, server.base, login, password, true);
      offlineFcpMs.push(offline.fcp);
      offlineFiguresMs.push(offline.figures);
      onlineFcpMs.push((await coldStart(browser, server.base, login, password, false)).fcp);
    }
    const offlineMedian = median(offlineFcpMs);
    const onlineMedian = median(onlineFcpMs);
    const result: ColdStartResult = {
      name: 'offline cold start of /home: first contentful paint',
      runs,
      offlineFcpMs,
      offlineFcpMedianMs: offlineMedian,
      onlineFcpMs,
      onlineFcpMedianMs: onlineMedian,
      offlineFiguresPaintMedianMs: median(offlineFiguresMs),
      ratio: Math.round((offlineMedian / onlineMedian) * 100) / 100,
      target: {
        value: offlineMedian,
        target: `≤ ${COLD_START_TARGET_MS} ms`,
        met: offlineMedian <= COLD_START_TARGET_MS,
      },
    };
    console.log(
      `  offline FCP median ${offlineMedian} ms (${offlineFcpMs.join(', ')}); online ${onlineMedian} ms (${onlineFcpMs.join(', ')}); offline figures on screen by ${result.offlineFiguresPaintMedianMs} ms (${offlineFiguresMs.join(', ')}); ratio ${result.ratio}; target ${result.target.target}: ${result.target.met ? 'met' : 'not met'}`,
    );
    return result;
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.main) await benchColdStart(process.argv[2]);
