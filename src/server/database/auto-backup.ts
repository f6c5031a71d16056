/**
 * The automatic backup (issue #30, decision 0039): its settings (`auto_backup_config`, one row),
 * the due source that asks the job queue's clock for a run at each occurrence of its rule
 * (subscriptions/occurrences.ts, exactly once per occurrence through the singleton key
 * `autobackup:<instant>`), and the job `database.autobackup`: a backup named
 * `auto-<UTC stamp>.backup` into the configured sub-folder, then the oldest automatic backups
 * beyond `keep` deleted (file and manifest; other backups of the folder are never touched).
 * A failed run is retried by the queue (3 times, 5 minutes apart, doubling) and shows as failed
 * on the screen. The job holds the database-wide operation lock (operation-lock.ts) like a backup
 * asked from the screen: while a backup, restore or reindex runs on any server, it fails with
 * `DatabaseBusy` and the queue retries it later.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { AutoBackupConfig } from '../../contract/database.ts';
import type { Queryable } from '../db/queryable.ts';
import type { DueItem, DueSource, JobDefinition } from '../jobs/contract.ts';
import { occurrencesBetween } from '../subscriptions/occurrences.ts';
import { backupDatabase } from './backup.ts';
import { manifestPath } from './manifest.ts';
import { tryOperationLock } from './operation-lock.ts';
import { pgTools } from './tools.ts';
import { PG_CLIENT_PACKAGE } from '../../contract/database.ts';

/** The job kind of the automatic backup. */
export const AUTO_BACKUP_KIND = 'database.autobackup';

/** The settings before any save: inactive, daily at 02:30 Paris time, 7 kept in `auto`. */
export const DEFAULT_AUTO_BACKUP: AutoBackupConfig = {
  active: false,
  type: 'DAILY',
  jours: [],
  jourDuMois: null,
  dernierJour: false,
  heure: 2,
  minute: 30,
  timeZone: 'Europe/Paris',
  folder: 'auto',
  keep: 7,
};

/** The saved settings, or {@link DEFAULT_AUTO_BACKUP} when none were saved. */
export async function readAutoBackupConfig(db: Queryable): Promise<AutoBackupConfig> {
  const { rows } = await db.query<AutoBackupConfig>(
    `SELECT active, type, jours, jour_du_mois AS "jourDuMois", dernier_jour AS "dernierJour", heure, minute,
            time_zone AS "timeZone", folder, keep FROM auto_backup_config WHERE id = 1`,
  );
  return rows[0] ?? DEFAULT_AUTO_BACKUP;
}

/** Saves the settings (the one row, created or replaced); answers what the row holds before. */
export async function saveAutoBackupConfig(
  db: Queryable,
  config: AutoBackupConfig,
): Promise<AutoBackupConfig> {
  const before = await readAutoBackupConfig(db);
  await db.query(
    `INSERT INTO auto_backup_config (id, active, type, jours, jour_du_mois, dernier_jour, heure, minute, time_zone, folder, keep, updated_at)
     VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
     ON CONFLICT (id) DO UPDATE SET active = $1, type = $2, jours = $3, jour_du_mois = $4, dernier_jour = $5,
       heure = $6, minute = $7, time_zone = $8, folder = $9, keep = $10, updated_at = now()`,
    [
      config.active,
      config.type,
      config.jours,
      config.jourDuMois,
      config.dernierJour,
      config.heure,
      config.minute,
      config.timeZone,
      config.folder,
      config.keep,
    ],
  );
  return before;
}

/** What a run of {@link AUTO_BACKUP_KIND} carries: nothing but its due instant (ISO). */
export interface AutoBackupData {
  due: string;
}

/** The automatic backups due in (`from`, `to`]: one per occurrence of the active rule. */
export async function dueAutoBackups(
  pool: pg.Pool,
  from: Date,
  to: Date,
): Promise<DueItem<AutoBackupData>[]> {
  const config = await readAutoBackupConfig(pool);
  if (!config.active) return [];
  return occurrencesBetween(config, config.timeZone, from, to).map((at) => ({
    kind: AUTO_BACKUP_KIND,
    data: { due: at.toISOString() },
    plannedAt: at,
    singletonKey: `autobackup:${at.toISOString()}`,
  }));
}

/** The due source of the automatic backup, for the queue's clock. */
export const autoBackupDueSource: DueSource = { name: 'autobackup', due: dueAutoBackups };

/** `auto-YYYYMMDDTHHMMSSZ.backup` for instant `at`. */
export function autoBackupName(at: Date): string {
  return `auto-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.backup`;
}

/** Deletes the automatic backups of `dir` beyond the newest `keep` (names sort by time). */
export async function pruneAutoBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => /^auto-\d{8}T\d{6}Z\.backup$/.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) {
    await rm(manifestPath(path.join(dir, name)), { force: true });
    await rm(path.join(dir, name), { force: true });
  }
  return old;
}

/**
 * The job: a backup into `<root>/<folder>`, then the pruning.
 * @param root the backup folder (`DATA_DIR/backups`).
 */
export function autoBackupJob(root: string): JobDefinition<AutoBackupData> {
  return {
    kind: AUTO_BACKUP_KIND,
    retryLimit: 3,
    retryDelaySeconds: 300,
    expireSeconds: 6 * 3600,
    async run(data, ctx) {
      const tools = await pgTools();
      if (!tools) throw new Error(`pg_dump and pg_restore 15 are missing: install ${PG_CLIENT_PACKAGE}`);
      const lock = await tryOperationLock(ctx.pool);
      if (!lock) throw new Error('DatabaseBusy: another backup, restore or reindex is running');
      try {
        const config = await readAutoBackupConfig(ctx.pool);
        const dest = config.folder
          ? `${config.folder}/${autoBackupName(new Date(data.due))}`
          : autoBackupName(new Date(data.due));
        const { path: file, manifest } = await backupDatabase(ctx.pool, { folder: root, dest, tools }).catch(
          async (e: unknown) => {
            // A retry of a run whose backup was complete: the file is there, keep it.
            if ((e as { reason?: string }).reason === 'exists')
              return { path: path.join(root, dest), manifest: null };
            throw e;
          },
        );
        if (manifest) await ctx.recordFile({ name: path.basename(file), bytes: manifest.bytes, path: dest });
        await pruneAutoBackups(path.dirname(file), config.keep);
      } finally {
        await lock.release();
      }
    },
  };
}
