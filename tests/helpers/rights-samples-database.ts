/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the database operations (issue #30):
 * none names a site. Each operation waits until the one before has ended (one at a time per
 * server, 409 DatabaseBusy otherwise). The restore sample names a backup whose manifest does not
 * match its bytes: the call is accepted (2xx, a run starts) and the run is refused at its first
 * check, so the matrix's database is never switched.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseStatus } from '../../src/contract/database.ts';
import { backupFolder } from '../../src/server/routes/database-routes.ts';
import { type Sample, type SampleContext, type SampleRequest, unique } from './rights-samples.ts';

const NONE = 'none: the database is the whole chain';

/** Waits until no database run of the server is queued or running (asked as the admin). */
async function idle(ctx: SampleContext): Promise<void> {
  for (;;) {
    const res = await ctx.t.app.inject({
      method: 'GET',
      url: `/api/bo/database/status?id=${ctx.admin.id}`,
      headers: ctx.admin.headers,
    });
    const runs = res.json<DatabaseStatus>().runs;
    if (!runs.some((r) => r.status === 'queued' || r.status === 'running')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A `.backup` with a manifest whose SHA-256 is not the file's; its path relative to the folder. */
async function mismatchedBackup(ctx: SampleContext): Promise<string> {
  const name = `matrix/${unique('mismatch')}.backup`;
  const file = path.join(backupFolder(ctx.t.config), name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'not a dump');
  const manifest = {
    format: 'comptoir-backup/1',
    file: path.basename(file),
    bytes: 10,
    sha256: '0'.repeat(64),
    appVersion: '0',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    tables: {},
  };
  await writeFile(`${file}.json`, JSON.stringify(manifest));
  return name;
}

const url = (p: string, params: Record<string, string | number>) =>
  `/api/${p}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

export const DATABASE_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/backupDataBase': {
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => {
      await idle(ctx);
      const dest = `matrix/${unique('b')}.backup`;
      return { method: 'GET', url: url('bo/backupDataBase', { id: ctx.caller.id, dest }) };
    },
  },
  'GET bo/restoreDataBase': {
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => {
      await idle(ctx);
      const src = await mismatchedBackup(ctx);
      return { method: 'GET', url: url('bo/restoreDataBase', { id: ctx.caller.id, src }) };
    },
  },
  'GET bo/reindexationDataBase': {
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => {
      await idle(ctx);
      return { method: 'GET', url: url('bo/reindexationDataBase', { id: ctx.caller.id }) };
    },
  },
  'GET bo/getBackupFiles': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: url('bo/getBackupFiles', { id: ctx.caller.id }) }),
  },
  'GET bo/database/status': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: url('bo/database/status', { id: ctx.caller.id }) }),
  },
  'POST bo/database/dropPrevious': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: url('bo/database/dropPrevious', { id: ctx.caller.id, name: 'none' }),
      payload: {},
    }),
  },
  'GET bo/isAutobackUpActive': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: url('bo/isAutobackUpActive', { id: ctx.caller.id }) }),
  },
  'GET bo/getAutoBackupDataBaseConfig': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: url('bo/getAutoBackupDataBaseConfig', { id: ctx.caller.id }) }),
  },
  'POST bo/saveAutoBackupDataBaseConfig': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: url('bo/saveAutoBackupDataBaseConfig', { id: ctx.caller.id }),
      payload: { active: false, type: 'DAILY', heure: 3, folder: 'auto', keep: 5 },
    }),
  },
};
