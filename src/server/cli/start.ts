/**
 * `npm start` (issue #2 §1): checks the configuration, builds the client when `dist/` is missing
 * or older than its sources, then starts the server (src/server/main.ts) and prints the URL and
 * the administrator's login — and, at the very first start, the generated password, once, with
 * the demo users' logins and generated passwords when the demo chain is created.
 *
 * Exit status: 1 on a bad setting (the message names the variable), a failed client build, or a
 * start-up failure.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type Config, loadConfig } from '../config.ts';
import type { LogSink } from '../logging.ts';
// Types only: main.ts itself is loaded after the configuration check.
import type { RunningServer } from '../main.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** What the client build reads: a change to any of these makes `dist/` stale. */
export const CLIENT_SOURCES = [
  'src/client',
  'src/contract',
  'sw',
  'i18n',
  'public',
  'index.html',
  'vite.config.ts',
];

/** Latest modification time (ms) of `target` or any file below it; 0 when it does not exist. */
export function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why the client in `root/dist` must be (re)built, or null when it is up to date. */
export function clientBuildReason(root: string): string | null {
  const built = path.join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'dist/index.html is missing';
  const builtAt = statSync(built).mtimeMs;
  const stale = CLIENT_SOURCES.find((s) => newestMtime(path.join(root, s)) > builtAt);
  return stale ? `${stale} changed since the last build` : null;
}

/** The most of `vite build`'s output kept to show when it fails (its last characters). */
const BUILD_OUTPUT_KEPT = 256 * 1024;

/**
 * Runs `vite build` in `root` on this Node (not the machine's older one), quietly: its listing of
 * every chunk (hundreds of lines) and the build plugins' notices (vite-plugin-pwa's
 * `inlineDynamicImports` deprecation) mean nothing to someone starting the app (issue #32 D.1),
 * so its output is kept and written to `showFailure` only when the build fails.
 * Rejects when it fails.
 */
function viteBuild(root: string, showFailure: (output: string) => void): Promise<void> {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-BUILD_OUTPUT_KEPT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      showFailure(output);
      reject(new Error(`vite build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * Makes sure a built client exists in `root/dist`, building it when needed: two lines to `log`
 * (building, built in N s); the build's own output goes to `showFailure` only when it fails.
 * @returns the folder to serve, or undefined when neither the client sources nor a build exist (API only).
 * @throws Error when `vite build` fails.
 */
export async function ensureClient(
  root: string,
  log: (message: string) => void,
  showFailure: (output: string) => void = (output) => process.stderr.write(output),
): Promise<string | undefined> {
  const dist = path.join(root, 'dist');
  if (!existsSync(path.join(root, 'src', 'client')) || !existsSync(path.join(root, 'index.html'))) {
    // A deployment may ship dist/ without the sources: serve it as it is.
    if (existsSync(path.join(dist, 'index.html'))) return dist;
    log('The client sources (src/client, index.html) are not there: serving the API only.');
    return undefined;
  }
  const reason = clientBuildReason(root);
  if (reason) {
    log(`Building the client (${reason})…`);
    const started = Date.now();
    await viteBuild(root, showFailure);
    log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
  return dist;
}

/**
 * The lines a person needs after start-up: the URL, the API documentation, the administrator's
 * login and, at the very first start, the generated password (shown only this once), at any other
 * start the command that sets a new one; when the
 * demo chain was created at this start, its users' logins and generated passwords, also once
 * (README.md "Demo users").
 */
export function startBanner(
  server: Pick<RunningServer, 'url' | 'administrator' | 'demo'> & Partial<Pick<RunningServer, 'mail'>>,
): string[] {
  const { administrator } = server;
  const lines = [
    '',
    `Comptoir is running at ${server.url}`,
    `  API documentation: ${server.url}api/docs`,
    `  Administrator login: ${administrator.login}`,
  ];
  if (administrator.generatedPassword) {
    lines.push(
      `  Administrator password: ${administrator.generatedPassword}`,
      '  (generated now and shown only this once: note it, or set COMPTOIR_ADMIN_PASSWORD before the first start)',
    );
  } else {
    if (administrator.created) lines.push('  Administrator password: the one in COMPTOIR_ADMIN_PASSWORD');
    // The generated password was shown at the first start only (issue #32 D.1).
    lines.push(
      `  Lost the administrator password? Set a new one: npm run admin -- reset-password ${administrator.login}`,
    );
  }
  const demoUsers = server.demo?.users ?? [];
  if (demoUsers.length > 0) {
    lines.push('  Demo users (login / password, generated now and shown only this once; see README.md):');
    for (const u of demoUsers) lines.push(`    ${u.login} / ${u.password}: ${u.description}`);
  }
  if (server.mail?.kind === 'outbox') {
    lines.push(
      `  Mail: no SMTP_URL, so mails are written to ${server.mail.outboxDir} (administrators read them at ${server.url}config/mails)`,
    );
  }
  lines.push('Stop with Ctrl+C.');
  return lines;
}

/**
 * Builds the client of `root` when needed, starts the server and prints the banner last, after
 * every progress line (database, demo chain), so the URL and password are what the terminal shows.
 * @param options.logTo where the server's log lines go (default standard output).
 * @throws as {@link ensureClient} and main.ts's `startServer`.
 */
export async function startAndAnnounce(
  config: Config,
  options: { root: string; log: (message: string) => void; logTo?: LogSink },
): Promise<RunningServer> {
  const { log } = options;
  // Loaded after the configuration check, so a bad setting is reported at once.
  const { startServer } = await import('../main.ts');
  const clientDir = await ensureClient(options.root, log);
  const server = await startServer(config, {
    clientDir,
    log,
    ...(options.logTo ? { logTo: options.logTo } : {}),
  });
  for (const line of startBanner(server)) log(line);
  return server;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const log = (m: string) => console.log(m);
  const server = await startAndAnnounce(config, { root: ROOT, log });
  const { stopOnSignals } = await import('../main.ts');
  stopOnSignals(server, log);
}

// Only when run as the entry point (`npm start`), so tests can import the helpers above.
if (import.meta.main) {
  main().catch((e: unknown) => {
    console.error('Comptoir could not start:', e instanceof Error ? e.message : e);
    if (e instanceof Error && e.stack && process.env.LOG_LEVEL === 'debug') console.error(e.stack);
    process.exit(1);
  });
}
