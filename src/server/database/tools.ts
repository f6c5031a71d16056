/**
 * PostgreSQL's own client tools (`pg_dump`, `pg_restore`) that backup and restore run (issue #30,
 * decision 0039). The embedded PostgreSQL package ships none: Debian's `postgresql-client-15`
 * provides them. Looked for once, at first use: in `COMPTOIR_PG_BIN` (a folder) alone when set, else in
 * `/usr/lib/postgresql/<15..17>/bin`, then the `PATH`. Their absence is no failure of the app:
 * the calls and the screen say what to install ({@link PG_CLIENT_PACKAGE}).
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
export { PG_CLIENT_PACKAGE } from '../../contract/database.ts';

const run = promisify(execFile);

/** The oldest major version whose `pg_dump` can read our PostgreSQL 15 server. */
const MIN_MAJOR = 15;

/** The tools found: absolute paths of `pg_dump` and `pg_restore` and their major `version`. */
export interface PgTools {
  pgDump: string;
  pgRestore: string;
  version: number;
}

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function majorOf(pgDump: string): Promise<number | null> {
  try {
    const { stdout } = await run(pgDump, ['--version']);
    const match = /(\d+)(?:\.\d+)?/.exec(stdout);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function candidateFolders(env: NodeJS.ProcessEnv): string[] {
  // A folder named explicitly is the only one looked into.
  if (env.COMPTOIR_PG_BIN) return [env.COMPTOIR_PG_BIN];
  const folders: string[] = [];
  for (const major of [15, 16, 17]) folders.push(`/usr/lib/postgresql/${major}/bin`);
  for (const p of (env.PATH ?? '').split(path.delimiter)) if (p) folders.push(p);
  return folders;
}

/**
 * Looks for `pg_dump` and `pg_restore` of major version 15 or later in the same folder.
 * @returns the tools, or null when none fit (install {@link PG_CLIENT_PACKAGE}).
 */
export async function findPgTools(env: NodeJS.ProcessEnv = process.env): Promise<PgTools | null> {
  for (const folder of candidateFolders(env)) {
    const pgDump = path.join(folder, 'pg_dump');
    const pgRestore = path.join(folder, 'pg_restore');
    if (!(await executable(pgDump)) || !(await executable(pgRestore))) continue;
    const version = await majorOf(pgDump);
    if (version !== null && version >= MIN_MAJOR) return { pgDump, pgRestore, version };
  }
  return null;
}

let cached: Promise<PgTools | null> | undefined;

/** {@link findPgTools} once per process (the answer is kept, found or not). */
export function pgTools(): Promise<PgTools | null> {
  cached ??= findPgTools();
  return cached;
}
