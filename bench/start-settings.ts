/**
 * How `npm start` runs the server, for the benches that start it in a process of its own
 * (bench/load.ts, bench/outbox-server.ts): they measure the server under the settings a user's
 * server runs with, not settings of their own. And the configuration of the benches that build
 * the app themselves ({@link benchConfig}).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Config, loadConfig } from '../src/server/config.ts';

const root = path.join(import.meta.dirname, '..');

/**
 * The Node flags (`--name[=value]`) and the environment variables (`NAME=value` words before
 * `node`) of package.json's `start` script.
 * @throws the file's read or JSON error when package.json cannot be read.
 */
export async function startSettings(): Promise<{ flags: string[]; env: Record<string, string> }> {
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(
    words
      .slice(0, Math.max(0, node))
      .filter((word) => /^[A-Z_][A-Z0-9_]*=\S*$/.test(word))
      .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
  return { flags: words.filter((word) => /^--[a-z-]+(=\S+)?$/.test(word)), env };
}

/**
 * The configuration of a bench's own app: no demo chain, no logs, a login rate no bench reaches,
 * files under `dataDir`.
 */
export function benchConfig(dataDir: string): Config {
  return loadConfig({
    COMPTOIR_DEMO: '0',
    LOG_LEVEL: 'silent',
    COMPTOIR_LOGIN_RATE: '10000',
    DATA_DIR: dataDir,
  });
}
