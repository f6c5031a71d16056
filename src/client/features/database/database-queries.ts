/**
 * The /config/bdd screen's calls (issue #30, decision 0039): the status (tools, runs with their
 * step, previous databases), the backups, the automatic backup's settings, and the writes that
 * start an operation or save / drop, each sent with an Idempotency-Key.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type AutoBackupConfig,
  AutoBackupConfigSchema,
  BackupFilesSchema,
  DatabaseStatusSchema,
  OperationStartedSchema,
} from '../../../contract/database.ts';
import { getJson } from '../../lib/http.ts';
import { sendKeyed } from '../../lib/request-keys.ts';

/** Query-key factory of /config/bdd for user `userId`. */
export const databaseQueries = {
  all: (userId: number) => ['database', userId] as const,
  /** Tools, latest runs and previous databases; polled every second while a run is under way. */
  status: (userId: number) =>
    queryOptions({
      queryKey: [...databaseQueries.all(userId), 'status'] as const,
      queryFn: () => getJson('bo/database/status', DatabaseStatusSchema, { id: userId }),
      refetchInterval: (query) =>
        query.state.data?.runs.some((r) => r.status === 'queued' || r.status === 'running') ? 1_000 : false,
    }),
  /** The backups of the backup folder, newest first. */
  files: (userId: number) =>
    queryOptions({
      queryKey: [...databaseQueries.all(userId), 'files'] as const,
      queryFn: () => getJson('bo/getBackupFiles', BackupFilesSchema, { id: userId }),
    }),
  /** The automatic backup's settings. */
  autoBackup: (userId: number) =>
    queryOptions({
      queryKey: [...databaseQueries.all(userId), 'autobackup'] as const,
      queryFn: () => getJson('bo/getAutoBackupDataBaseConfig', AutoBackupConfigSchema, { id: userId }),
    }),
};

/**
 * Starts an operation (`bo/backupDataBase` with `dest`, `bo/restoreDataBase` with `src`,
 * `bo/reindexationDataBase`); resolves to its run's id.
 * @throws ApiFailure BackupPathRefused, RestoreRefused, DatabaseBusy, PgToolsMissing…
 */
export async function startOperation(
  userId: number,
  path: 'bo/backupDataBase' | 'bo/restoreDataBase' | 'bo/reindexationDataBase',
  params: { dest?: string; src?: string },
  key: string,
): Promise<string> {
  const answer = await sendKeyed({
    method: 'get',
    path,
    params: { id: userId, ...params },
    key,
    parse: (body) => OperationStartedSchema.parse(body),
  });
  return answer.runId;
}

/** POST bo/saveAutoBackupDataBaseConfig; resolves to the saved settings. @throws ApiFailure InvalidField… */
export function saveAutoBackup(
  userId: number,
  config: AutoBackupConfig,
  key: string,
): Promise<AutoBackupConfig> {
  return sendKeyed({
    method: 'post',
    path: 'bo/saveAutoBackupDataBaseConfig',
    params: { id: userId },
    key,
    json: config,
    parse: (body) => AutoBackupConfigSchema.parse(body),
  });
}

/** POST bo/database/dropPrevious of database `name`. */
export function dropPreviousDatabase(userId: number, name: string, key: string): Promise<unknown> {
  return sendKeyed({
    method: 'post',
    path: 'bo/database/dropPrevious',
    params: { id: userId, name },
    key,
    json: {},
    parse: (body) => z.object({ name: z.string(), dropped: z.boolean() }).parse(body),
  });
}
