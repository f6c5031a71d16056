/**
 * The path checks of `dest` and `src` (issue #30): a backup file is named relative to the
 * backup folder as `folder/filename.backup` (or `filename.backup`), and never leaves it.
 * Refused: a NUL character, an absolute path, a `..` segment, a name not ending in `.backup`,
 * and a path that a symbolic link takes out of the folder.
 */
import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Why a backup path is refused (sent as `details.reason` of the 400 BackupPathRefused). */
export type BackupPathReason =
  | 'empty'
  | 'nul'
  | 'absolute'
  | 'parent'
  | 'extension'
  | 'outside'
  | 'missing'
  | 'exists';

/** A refused backup path, with its {@link BackupPathReason}. */
export class BackupPathError extends Error {
  readonly reason: BackupPathReason;
  constructor(reason: BackupPathReason, message: string) {
    super(message);
    this.name = 'BackupPathError';
    this.reason = reason;
  }
}

/** The file extension of a backup (pg_dump's custom format). */
export const BACKUP_EXTENSION = '.backup';

/** The checks that need no file system: NUL, absolute, `..`, extension. */
function checkSyntax(relative: string): string[] {
  if (relative.length === 0) throw new BackupPathError('empty', 'empty backup path');
  if (relative.includes('\0')) throw new BackupPathError('nul', 'NUL in backup path');
  if (path.isAbsolute(relative) || /^[\\/]/.test(relative) || /^[a-zA-Z]:/.test(relative)) {
    throw new BackupPathError('absolute', 'absolute backup path');
  }
  const segments = relative.split(/[\\/]+/);
  if (segments.some((s) => s === '..' || s === '.'))
    throw new BackupPathError('parent', '".." in backup path');
  if (!relative.endsWith(BACKUP_EXTENSION) || segments.at(-1) === BACKUP_EXTENSION) {
    throw new BackupPathError('extension', `backup path must end in ${BACKUP_EXTENSION}`);
  }
  return segments;
}

function inside(folder: string, candidate: string): boolean {
  const rel = path.relative(folder, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The absolute path of backup `relative` to write, under `folder` (created if needed, as are
 * the sub-folders of `relative`), after every check.
 * @throws BackupPathError
 */
export async function destinationPath(folder: string, relative: string): Promise<string> {
  checkSyntax(relative);
  await mkdir(folder, { recursive: true });
  const realFolder = await realpath(folder);
  const target = path.join(realFolder, relative);
  // The deepest folder that exists must be inside before any sub-folder is created.
  const parent = path.dirname(target);
  let existing = parent;
  for (;;) {
    try {
      if (!inside(realFolder, await realpath(existing))) {
        throw new BackupPathError('outside', 'backup path leaves the backup folder');
      }
      break;
    } catch (e) {
      if (e instanceof BackupPathError) throw e;
      existing = path.dirname(existing);
    }
  }
  await mkdir(parent, { recursive: true });
  const realParent = await realpath(parent);
  if (!inside(realFolder, realParent))
    throw new BackupPathError('outside', 'backup path leaves the backup folder');
  const final = path.join(realParent, path.basename(target));
  try {
    const realFinal = await realpath(final);
    if (realFinal !== final) throw new BackupPathError('outside', 'backup path is a link');
  } catch (e) {
    if (e instanceof BackupPathError) throw e;
  }
  return final;
}

/**
 * The absolute path of existing backup `relative` to read, under `folder`, after every check.
 * @throws BackupPathError (`missing` when there is no such file)
 */
export async function sourcePath(folder: string, relative: string): Promise<string> {
  checkSyntax(relative);
  let realFolder: string;
  let real: string;
  try {
    realFolder = await realpath(folder);
    real = await realpath(path.join(realFolder, relative));
  } catch {
    throw new BackupPathError('missing', 'no such backup');
  }
  if (!inside(realFolder, real)) throw new BackupPathError('outside', 'backup path leaves the backup folder');
  return real;
}
