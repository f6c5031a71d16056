/**
 * Wire shapes of the database operations (SPEC.md §7, issue #30, decision 0039): backup, restore,
 * reindex, automatic backup, and the screen's status. Backup paths are relative to the server's
 * backup folder (`DATA_DIR/backups`), as `folder/filename.backup`. Instants are ISO 8601 text.
 */
import { z } from 'zod';
import { RULE_TYPES } from './subscriptions.ts';

/** The package to install when pg_dump / pg_restore are missing. */
export const PG_CLIENT_PACKAGE = 'postgresql-client-15';

/** Where a database run stands (job_runs' statuses). */
export const DatabaseRunSchema = z.object({
  id: z.string(),
  kind: z.enum(['database.backup', 'database.restore', 'database.reindex', 'database.autobackup']),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'retrying']),
  /** The step under way (`dump`, `checksum`, `restore`, `verify`, `switch`, a table's name…) or `done`. */
  step: z.string().nullable(),
  /** The backup path (`dest` / `src`) the run concerns, when any. */
  path: z.string().nullable(),
  /** Why it failed: an English hint; `reason` a RestoreRefused / BackupPathRefused reason when known. */
  error: z.string().nullable(),
  reason: z.string().nullable(),
  /** Reindex: the time it took in milliseconds. */
  ms: z.number().nullable(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type DatabaseRun = z.infer<typeof DatabaseRunSchema>;

/** Answer of `GET bo/database/status`: the tools, the latest runs, the kept previous databases. */
export const DatabaseStatusSchema = z.object({
  /** pg_dump / pg_restore found (major version), or null: install {@link PG_CLIENT_PACKAGE}. */
  toolsVersion: z.number().int().nullable(),
  install: z.string().describe(`the package that provides them (${PG_CLIENT_PACKAGE})`),
  /** The backup folder on the server (absolute path). */
  folder: z.string(),
  runs: z.array(DatabaseRunSchema),
  previous: z.array(z.object({ name: z.string(), bytes: z.number().int() })),
});
export type DatabaseStatus = z.infer<typeof DatabaseStatusSchema>;

/** One backup with its manifest: `path` relative to the backup folder, `bytes`, `createdAt`… */
export const BackupFileSchema = z.object({
  path: z.string(),
  bytes: z.number().int(),
  createdAt: z.string(),
  appVersion: z.string(),
  schemaVersion: z.number().int(),
  sha256: z.string(),
  rows: z.number().int().describe('rows of all tables together'),
});
export type BackupFile = z.infer<typeof BackupFileSchema>;

/** Answer of `GET bo/getBackupFiles`: the backups under `src` (newest first). */
export const BackupFilesSchema = z.object({ files: z.array(BackupFileSchema) });

/** Answer of the calls that start an operation: its run, followed through `bo/database/status`. */
export const OperationStartedSchema = z.object({ runId: z.string() });

/**
 * The automatic backup (`bo/getAutoBackupDataBaseConfig`, `POST bo/saveAutoBackupDataBaseConfig`):
 * `active`; when, in the subscriptions' rule words (`type` DAILY / WEEKDAYS / WEEKLY with `jours`
 * ISO 1–7 / MONTHLY with `jourDuMois` 1–28 or `dernierJour`; `heure`, `minute` local to
 * `timeZone`); `folder`, a sub-folder of the backup folder ('' = the folder itself); `keep`, how
 * many automatic backups are kept there (the oldest beyond are deleted).
 */
export const AutoBackupConfigSchema = z
  .object({
    active: z.boolean(),
    type: z.enum(RULE_TYPES),
    jours: z.array(z.number().int().min(1).max(7)).max(7).default([]),
    jourDuMois: z.number().int().min(1).max(28).nullable().default(null),
    dernierJour: z.boolean().default(false),
    heure: z.number().int().min(0).max(23),
    minute: z.number().int().min(0).max(59).default(0),
    timeZone: z.string().min(1).max(64).default('Europe/Paris'),
    folder: z
      .string()
      .max(200)
      .regex(/^(?:[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*)?$/, 'letters, digits, - and _, sub-folders with /')
      .default(''),
    keep: z.number().int().min(1).max(365),
  })
  .superRefine((c, ctx) => {
    if (c.type === 'WEEKLY' && c.jours.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['jours'], message: 'a weekly rule needs at least one day' });
    }
    if (c.type === 'MONTHLY' && c.jourDuMois === null && !c.dernierJour) {
      ctx.addIssue({
        code: 'custom',
        path: ['jourDuMois'],
        message: 'a monthly rule needs a day or dernierJour',
      });
    }
  });
export type AutoBackupConfig = z.output<typeof AutoBackupConfigSchema>;
