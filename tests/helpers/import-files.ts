/**
 * The set-up of the sales-import tests (tests/import/import.test.ts, lookups.test.ts,
 * wide.test.ts): a fresh database and a temporary folder for the file, both removed after the
 * file, the fiscal tables emptied before each test, and a way to write an input file there.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestDatabase } from './db.ts';

/** What {@link setUpImportFiles} gives a test file; `db` and `dir` are set by its beforeAll. */
export interface ImportSandbox {
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** The temporary folder (absolute path). */
  dir: string;
  /** Writes `content` to the file `name` of {@link ImportSandbox.dir}; returns its path. */
  write(name: string, content: string | Buffer): Promise<string>;
}

/**
 * Registers the file's hooks: beforeAll creates the database and a temporary folder named
 * `<tmpdir>/<prefix>XXXXXX`; beforeEach truncates tickets, their lines and payments, the daily
 * sales, terminals, sellers, groups, sites and companies; afterAll drops the database and removes
 * the folder.
 * @returns the sandbox, whose `db` and `dir` are set once the beforeAll has run (`write` may be
 * destructured at once).
 */
export function setUpImportFiles(prefix: string): ImportSandbox {
  const sandbox: ImportSandbox = {
    db: undefined as unknown as ImportSandbox['db'],
    dir: '',
    async write(name, content) {
      const file = path.join(sandbox.dir, name);
      await fs.writeFile(file, content);
      return file;
    },
  };
  beforeAll(async () => {
    sandbox.db = await createTestDatabase();
    sandbox.dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    await sandbox.db.close();
    await fs.rm(sandbox.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await sandbox.db.pool.query(
      'TRUNCATE tickets, ticket_lines, payments, daily_sales, terminals, sellers, group_sites, sites, companies CASCADE',
    );
  });
  return sandbox;
}
