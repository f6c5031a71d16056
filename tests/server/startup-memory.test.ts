/**
 * releaseStartupMemory (src/server/memory.ts, decision record 0008): once the server's modules
 * are loaded, one memory-reducing collection gives their garbage's pages back to the operating
 * system. Measured in a child process started as `npm start` starts the server (package.json's
 * flags), on the resident anonymous memory (RssAnon of /proc/self/status) before and after.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');

/** The Node flags of package.json's `start` script. */
function startFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return manifest.scripts.start.split(/\s+/).filter((word) => /^--[a-z-]+(=\S+)?$/.test(word));
}

/**
 * Runs `releaseStartupMemory` after loading the app's modules and an ordinary full collection
 * under `flags`; its result and RssAnon (MB) around it.
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
    expect(startFlags()).toContain('--expose-gc');
  });

  it('gives back pages an ordinary full collection keeps (~10 MB here)', () => {
    const { ran, beforeMb, afterMb } = runChild(startFlags());
    expect(ran).toBe(true);
    expect(beforeMb - afterMb).toBeGreaterThan(5);
  });

  it('does nothing without --expose-gc', () => {
    const { ran } = runChild(startFlags().filter((flag) => flag !== '--expose-gc'));
    expect(ran).toBe(false);
  });
});
