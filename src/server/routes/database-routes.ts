/**
 * HTTP of the database operations (SPEC.md §7, issue #30, decision record 0039), right ACCES_BASE:
 * - `GET bo/backupDataBase?id&dest` — starts a backup to `dest` (`folder/filename.backup`, relative
 *   to the backup folder `DATA_DIR/backups`); a write (WRITE_GETS);
 * - `GET bo/restoreDataBase?id&src` — starts a verified restore of backup `src`; a write;
 * - `GET bo/reindexationDataBase?id` — starts a reindex; a write;
 * - `GET bo/getBackupFiles?id&src` — the backups under sub-folder `src` (absent: all);
 * - `GET bo/database/status?id` — the tools, the latest runs (progress), the kept previous databases;
 * - `POST bo/database/dropPrevious?id&name` — drops a previous database kept by a restore.
 * The three operations answer at once with the run's id (`runId`); the screen follows the run
 * through `bo/database/status` (job_runs), also after a reload. One operation at a time per server
 * (409 DatabaseBusy). Without pg_dump / pg_restore, backup and restore answer 500 PgToolsMissing
 * with `details.install` (the package to install); everything else works.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AutoBackupConfigSchema,
  BackupFilesSchema,
  type DatabaseRun,
  DatabaseStatusSchema,
  OperationStartedSchema,
  PG_CLIENT_PACKAGE,
} from '../../contract/database.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { readAutoBackupConfig, saveAutoBackupConfig } from '../database/auto-backup.ts';
import { backupDatabase } from '../database/backup.ts';
import { listBackups } from '../database/files.ts';
import type { SwitchGate } from '../database/gate.ts';
import { knownSchemaVersion, readManifest } from '../database/manifest.ts';
import { DatabaseOperations, latestRuns, recoverInterrupted } from '../database/operations.ts';
import { BackupPathError, destinationPath, sourcePath } from '../database/paths.ts';
import { reindexDatabase } from '../database/reindex.ts';
import { dropPrevious, previousDatabases, restoreDatabase } from '../database/restore.ts';
import { type PgTools, pgTools } from '../database/tools.ts';
import { DomainError } from '../errors.ts';
import type { JobRun } from '../jobs/run-records.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor } from './admin-write-helpers.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['database'];
const IdQuery = z.object({ id: UserIdParam });
const BackupPath = z.string().min(1).max(300);

/** The backup folder of a configuration: `DATA_DIR/backups`. */
export function backupFolder(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'backups');
}

/** A refused path as the 400 BackupPathRefused, other errors unchanged. */
function pathRefused(e: unknown): never {
  if (e instanceof BackupPathError) {
    throw new DomainError(e.reason === 'missing' ? 'notFound' : 'invalid', 'BackupPathRefused', e.message, {
      reason: e.reason,
    });
  }
  throw e;
}

async function requireTools(): Promise<PgTools> {
  const tools = await pgTools();
  if (!tools) {
    throw new DomainError(
      'internal',
      'PgToolsMissing',
      `pg_dump and pg_restore 15 are missing: install ${PG_CLIENT_PACKAGE}`,
      {
        install: PG_CLIENT_PACKAGE,
      },
    );
  }
  return tools;
}

function busy(): never {
  throw new DomainError('conflict', 'DatabaseBusy', 'a database operation is under way');
}

function wireRun(run: JobRun): DatabaseRun {
  const data = (run.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: run.id,
    kind: run.kind as DatabaseRun['kind'],
    status: run.status,
    step: text(data.step),
    path: text(data.dest) ?? text(data.src),
    error: run.error,
    reason: text(data.reason),
    ms: typeof data.ms === 'number' ? data.ms : null,
    queuedAt: run.queuedAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    endedAt: run.endedAt?.toISOString() ?? null,
  };
}

/** Registers the database operations' calls. `gate` is the app's switch gate (app.ts). */
export async function databaseRoutes(
  app: FastifyInstance,
  options: { database: Database; config: Config; gate: SwitchGate },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const folder = backupFolder(options.config);
  const operations = new DatabaseOperations(pool, app.log);
  // What a crash or a stop cut short: its runs failed, its half-restored databases dropped
  // (once the app is ready: building it reads no database), unless another server runs one now.
  app.addHook('onReady', async function recoverDatabaseOperations() {
    await recoverInterrupted(pool, app.log).catch((e: unknown) =>
      app.log.warn({ err: e }, 'interrupted database operations not recovered'),
    );
  });
  app.addHook('onClose', () => operations.idle());

  api.get(
    '/bo/backupDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/backupDataBase', write: true },
      schema: {
        summary: 'Starts a backup of the database',
        description:
          'pg_dump (custom format) into `dest`, relative to the backup folder (`folder/filename.backup`), with a ' +
          'manifest beside it (`<dest>.json`: SHA-256, app and schema versions, rows and checksum per table). ' +
          'Answers the run at once; follow it with bo/database/status. 400 BackupPathRefused (details.reason: nul, ' +
          'absolute, parent, extension, outside, exists); 409 DatabaseBusy; 500 PgToolsMissing (details.install). ' +
          'Audit-logged (`database.backup`).',
        tags,
        querystring: z.object({ id: UserIdParam, dest: BackupPath.describe('folder/filename.backup') }),
        response: { 200: OperationStartedSchema, ...errorResponses },
      },
    },
    async function backupDataBase(request) {
      ownSession(request, request.query.id);
      const tools = await requireTools();
      const { dest } = request.query;
      await destinationPath(folder, dest).catch(pathRefused);
      const runId = await operations.start(
        writeTx(request),
        auditActor(request),
        'database.backup',
        { dest },
        async (ctx) => {
          const { manifest } = await backupDatabase(pool, {
            folder,
            dest,
            tools,
            progress: (s) => void ctx.step(s),
          });
          return { bytes: manifest.bytes, sha256: manifest.sha256 };
        },
      );
      return runId ? { runId } : busy();
    },
  );

  registerRestoreRoute(app, { pool, folder, operations, gate: options.gate });

  api.get(
    '/bo/reindexationDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/reindexationDataBase', write: true },
      schema: {
        summary: 'Starts a reindex of the database',
        description:
          "REINDEX TABLE CONCURRENTLY of every table of Comptoir's schema (plainly where PostgreSQL cannot), one " +
          'table at a time; the run records the time it took (`ms`). 409 DatabaseBusy. Audit-logged (`database.reindex`).',
        tags,
        querystring: IdQuery,
        response: { 200: OperationStartedSchema, ...errorResponses },
      },
    },
    async function reindexationDataBase(request) {
      ownSession(request, request.query.id);
      const runId = await operations.start(
        writeTx(request),
        auditActor(request),
        'database.reindex',
        {},
        async (ctx) => {
          const result = await reindexDatabase(pool, (table) => void ctx.step(table));
          return { ms: result.ms, tables: result.tables, plain: result.plain };
        },
      );
      return runId ? { runId } : busy();
    },
  );

  registerReadRoutes(app, pool, folder);
  registerAutoBackupRoutes(app, pool);
}

/** Registers bo/isAutobackUpActive, bo/getAutoBackupDataBaseConfig and bo/saveAutoBackupDataBaseConfig. */
function registerAutoBackupRoutes(app: FastifyInstance, pool: Database['pool']): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/isAutobackUpActive',
    {
      config: { rights: 'GET bo/isAutobackUpActive' },
      schema: {
        summary: 'Whether the automatic backup is active',
        description: '`active`: false until a configuration with `active` true is saved.',
        tags,
        querystring: IdQuery,
        response: { 200: z.object({ active: z.boolean() }), ...errorResponses },
      },
    },
    async function isAutobackUpActive(request) {
      ownSession(request, request.query.id);
      return { active: (await readAutoBackupConfig(pool)).active };
    },
  );
  api.get(
    '/bo/getAutoBackupDataBaseConfig',
    {
      config: { rights: 'GET bo/getAutoBackupDataBaseConfig' },
      schema: {
        summary: 'The automatic backup configuration',
        description:
          'As saved, or the default (inactive, DAILY at 02:30 Europe/Paris, folder `auto`, 7 kept). The rule uses the ' +
          "subscriptions' words (`type`, `jours`, `jourDuMois`, `dernierJour`, `heure`, `minute`, `timeZone`).",
        tags,
        querystring: IdQuery,
        response: { 200: AutoBackupConfigSchema, ...errorResponses },
      },
    },
    async function getAutoBackupDataBaseConfig(request) {
      ownSession(request, request.query.id);
      return readAutoBackupConfig(pool);
    },
  );
  api.post(
    '/bo/saveAutoBackupDataBaseConfig',
    {
      config: { rights: 'POST bo/saveAutoBackupDataBaseConfig', write: true },
      schema: {
        summary: 'Saves the automatic backup configuration',
        description:
          'Body: the whole configuration (see bo/getAutoBackupDataBaseConfig); answers it as saved. 400 ' +
          'InvalidField for a bad field (a WEEKLY rule without `jours`, a MONTHLY one without a day, a folder ' +
          'with other than letters, digits, `-`, `_` and `/`, an unknown time zone). Audit-logged ' +
          '(`database.autobackup.save`, before → after). The job queue runs it at each occurrence of the rule.',
        tags,
        querystring: IdQuery,
        body: AutoBackupConfigSchema,
        response: { 200: AutoBackupConfigSchema, ...errorResponses },
      },
    },
    async function saveAutoBackupDataBaseConfig(request) {
      ownSession(request, request.query.id);
      const config = request.body;
      try {
        new Intl.DateTimeFormat('en', { timeZone: config.timeZone });
      } catch {
        throw new DomainError('invalid', 'InvalidField', 'unknown time zone', { field: 'timeZone' });
      }
      const tx = writeTx(request);
      const before = await saveAutoBackupConfig(tx, config);
      await recordAudit(tx, auditActor(request), {
        action: 'database.autobackup.save',
        targetId: 1,
        before: { ...before },
        after: { ...config },
      });
      return readAutoBackupConfig(tx);
    },
  );
}

/** Registers bo/restoreDataBase. */
function registerRestoreRoute(
  app: FastifyInstance,
  deps: { pool: Database['pool']; folder: string; operations: DatabaseOperations; gate: SwitchGate },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool, folder, operations } = deps;
  api.get(
    '/bo/restoreDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/restoreDataBase', write: true },
      schema: {
        summary: 'Starts a verified restore of a backup',
        description:
          'Restores backup `src` (relative to the backup folder) into a new database, checks it against its ' +
          'manifest (size, SHA-256, schema version not newer, rows and checksum of every table), then switches to ' +
          'it: for those seconds every call answers 503 DatabaseSwitching; every session ends (sign in again). The ' +
          'previous database is kept until dropped (bo/database/dropPrevious). A refused file leaves the running ' +
          'data untouched: the run fails with details.reason (noManifest, truncated, checksum, newerSchema, ' +
          'unreadable, verification). 400 BackupPathRefused, 400 RestoreRefused (no manifest, newer schema: ' +
          'checked at once), 404 BackupPathRefused (missing), 409 DatabaseBusy, 500 PgToolsMissing. Audit-logged ' +
          '(`database.restore`, in the previous database and in the restored one).',
        tags,
        querystring: z.object({ id: UserIdParam, src: BackupPath.describe('folder/filename.backup') }),
        response: { 200: OperationStartedSchema, ...errorResponses },
      },
    },
    async function restoreDataBase(request) {
      ownSession(request, request.query.id);
      const tools = await requireTools();
      const { src } = request.query;
      const file = await sourcePath(folder, src).catch(pathRefused);
      const manifest = await readManifest(file);
      if (!manifest)
        throw new DomainError('invalid', 'RestoreRefused', 'no valid manifest', { reason: 'noManifest' });
      if (manifest.schemaVersion > (await knownSchemaVersion())) {
        throw new DomainError('invalid', 'RestoreRefused', 'a newer schema', { reason: 'newerSchema' });
      }
      const runId = await operations.start(
        writeTx(request),
        auditActor(request),
        'database.restore',
        { src },
        async (ctx) => {
          const result = await restoreDatabase(pool, {
            folder,
            src,
            tools,
            gate: deps.gate,
            progress: (s) => void ctx.step(s),
          });
          return { previous: result.previous, backupCreatedAt: result.backupCreatedAt };
        },
      );
      return runId ? { runId } : busy();
    },
  );
}

/** Registers bo/getBackupFiles, bo/database/status and bo/database/dropPrevious. */
function registerReadRoutes(app: FastifyInstance, pool: Database['pool'], folder: string): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/getBackupFiles',
    {
      config: { rights: 'GET bo/getBackupFiles' },
      schema: {
        summary: 'The backups of the backup folder',
        description:
          'Every `.backup` with its manifest under sub-folder `src` of the backup folder (absent or empty: the whole ' +
          'folder, three levels deep), newest first. 400 BackupPathRefused for a `src` with NUL, `..`, absolute or ' +
          'leaving the folder.',
        tags,
        querystring: z.object({
          id: UserIdParam,
          src: z.string().max(300).optional().describe('sub-folder'),
        }),
        response: { 200: BackupFilesSchema, ...errorResponses },
      },
    },
    async function getBackupFiles(request) {
      ownSession(request, request.query.id);
      return { files: await listBackups(folder, request.query.src ?? '').catch(pathRefused) };
    },
  );

  api.get(
    '/bo/database/status',
    {
      config: { rights: 'GET bo/database/status' },
      schema: {
        summary: 'Database operations: tools, latest runs, previous databases',
        description:
          'Whether pg_dump / pg_restore were found (`toolsVersion`, null: install `install`), the backup folder, the ' +
          'latest 20 runs of backup, restore, reindex and automatic backup with their step, and the previous ' +
          'databases kept by restores.',
        tags,
        querystring: IdQuery,
        response: { 200: DatabaseStatusSchema, ...errorResponses },
      },
    },
    async function databaseStatus(request) {
      ownSession(request, request.query.id);
      const tools = await pgTools();
      return {
        toolsVersion: tools?.version ?? null,
        install: PG_CLIENT_PACKAGE,
        folder,
        runs: (await latestRuns(pool)).map(wireRun),
        previous: await previousDatabases(pool),
      };
    },
  );

  api.post(
    '/bo/database/dropPrevious',
    {
      config: { rights: 'POST bo/database/dropPrevious', write: true },
      schema: {
        summary: 'Drops a previous database kept by a restore',
        description:
          'Drops database `name` when it is one of the previous databases bo/database/status lists (`dropped` ' +
          'true; audit-logged `database.dropPrevious`); any other name drops nothing (`dropped` false), so a ' +
          'repeated call answers the same.',
        tags,
        querystring: z.object({ id: UserIdParam, name: z.string().min(1).max(63) }),
        body: z.object({}).strict().nullish().describe('nothing: the database is named by the query'),
        response: { 200: z.object({ name: z.string(), dropped: z.boolean() }), ...errorResponses },
      },
    },
    async function dropPreviousDatabase(request) {
      ownSession(request, request.query.id);
      const { name } = request.query;
      const dropped = await dropPrevious(pool, name);
      if (dropped) {
        await recordAudit(writeTx(request), auditActor(request), {
          action: 'database.dropPrevious',
          targetId: name,
          before: { name },
        });
      }
      return { name, dropped };
    },
  );
}

/**
 * The switch gate's hooks on the whole app: while a restored database is switched to, every
 * request answers 503 DatabaseSwitching with Retry-After 5 (restore.ts).
 */
export function installSwitchGate(app: FastifyInstance, gate: SwitchGate): void {
  const counted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async function databaseSwitchGate(request: FastifyRequest, reply: FastifyReply) {
    if (!gate.enter()) {
      reply.code(503).header('Retry-After', '5');
      return reply.send({
        code: 'DatabaseSwitching',
        message: 'the database is being switched to a restored one',
      });
    }
    counted.add(request);
  });
  app.addHook('onResponse', async function databaseSwitchGateLeave(request: FastifyRequest) {
    if (counted.delete(request)) gate.leave();
  });
  app.addHook('onRequestAbort', async function databaseSwitchGateAbort(request: FastifyRequest) {
    if (counted.delete(request)) gate.leave();
  });
}
