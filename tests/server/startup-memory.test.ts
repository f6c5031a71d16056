/**
 * releaseStartupMemory (src/server/memory.ts, decision record 0008): once the server's modules
 * are loaded, one memory-reducing collection gives their garbage's pages back to the operating
 * system. Measured in a child process started as `npm start` starts the server (package.json's
 * flags and environment, read by bench/start-settings.ts as the benches read them), on the
 * resident anonymous memory (RssAnon of /proc/self/status) before and after.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSettings } from '../../bench/start-settings.ts';

const root = path.join(import.meta.dirname, '..', '..');
const start = await startSettings();

/**
 * Runs `releaseStartupMemory` after loading the app's modules and an ordinary full collection
 * under `flags` and the start script's environment; its result and RssAnon (MB) around it.
 */
function runChild(flags: string[]): { ran: boolean; beforeMb: number; afterMb: number } {
  const script = `
    import fs from 'node:fs';
    const anon = () => Number(/RssAnon:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    await import(${JSON.stringify(path.join(root, 'src/server/app.ts'))});
    const { releaseStartupMemory } = await import(${JSON.stringify(path.join(root, 'src/server/memory.ts'))});
    globalThis.gc?.(); // an ordinary full collection first: the release must give back more
    const beforeMb = anon();
    const ran = releaseStartupMemory();
    console.log(JSON.stringify({ ran, beforeMb, afterMb: anon() }));`;
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...start.env },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    ran: boolean;
    beforeMb: number;
    afterMb: number;
  };
}

describe('release of the start-up memory', () => {
  it('npm start exposes gc, so the release runs', () => {
    expect(start.flags).toContain('--expose-gc');
  });

  it('gives back pages an ordinary full collection keeps (~10 MB here)', () => {
    const { ran, beforeMb, afterMb } = runChild(start.flags);
    expect(ran).toBe(true);
    expect(beforeMb - afterMb).toBeGreaterThan(5);
  });

  it('does nothing without --expose-gc', () => {
    const { ran } = runChild(start.flags.filter((flag) => flag !== '--expose-gc'));
    expect(ran).toBe(false);
  });
});
