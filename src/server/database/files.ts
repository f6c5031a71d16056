/**
 * The backups of a folder (`bo/getBackupFiles`): every `*.backup` with a valid manifest beside
 * it, under the backup folder's sub-folder `src` (checked as paths.ts does), newest first.
 * A `.partial` left by an interrupted backup, or a file without manifest, is not listed.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { BackupFile } from '../../contract/database.ts';
import { readManifest } from './manifest.ts';
import { BACKUP_EXTENSION, BackupPathError } from './paths.ts';

/** Sub-folders looked into below `src`. */
const MAX_DEPTH = 3;

/**
 * Lists the backups under `folder`/`src` (`src` '' = the folder itself).
 * @throws BackupPathError for a `src` with NUL, absolute, `..` or leaving the folder.
 */
export async function listBackups(folder: string, src = ''): Promise<BackupFile[]> {
  if (src.includes('\0')) throw new BackupPathError('nul', 'NUL in backup path');
  if (path.isAbsolute(src) || /^[\\/]/.test(src))
    throw new BackupPathError('absolute', 'absolute backup path');
  if (src.split(/[\\/]+/).some((s) => s === '..')) throw new BackupPathError('parent', '".." in backup path');
  let realFolder: string;
  let start: string;
  try {
    realFolder = await realpath(folder);
    start = await realpath(path.join(realFolder, src));
  } catch {
    return [];
  }
  const rel = path.relative(realFolder, start);
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new BackupPathError('outside', 'leaves the backup folder');
  const files: BackupFile[] = [];
  async function walk(dir: string, depth: number): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(full, depth + 1);
      if (!entry.isFile() || !entry.name.endsWith(BACKUP_EXTENSION)) continue;
      const manifest = await readManifest(full);
      if (!manifest) continue;
      files.push({
        path: path.relative(realFolder, full).split(path.sep).join('/'),
        bytes: manifest.bytes,
        createdAt: manifest.createdAt,
        appVersion: manifest.appVersion,
        schemaVersion: manifest.schemaVersion,
        sha256: manifest.sha256,
        rows: Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0),
      });
    }
  }
  await walk(start, 0);
  return files.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
