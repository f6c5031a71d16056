/**
 * Archive first, or nothing (issue #30): when the archive cannot be written (its folder is a
 * file) or does not verify when read back (a byte damaged between write and read), nothing is
 * deleted and no purge is recorded. Then the whole empty (bo/emptyDataBase): refused without a
 * comment, empties only the caller's scope, archives every site, keeps the audit log and the grand totals, and a
 * repeat with the same Idempotency-Key replays the answer without purging again.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurgeRun } from '../../src/contract/purge.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { beginTransaction, rollback } from '../../src/server/db/transaction.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { ArchiveError } from '../../src/server/purge/archive.ts';
import { lockPurgedTables, PURGED_TABLES, purgeSitePeriod } from '../../src/server/purge/purge.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { endedPurgeRun } from '../helpers/purge-runs.ts';

const NOW = new Date('2026-03-18T14:37:00Z');
const PASSWORD = 'Purge-Passw0rd!';
const PERIOD = { debut: '2026-03-01', fin: '2026-03-10' };

let t: TestApp;
let dataDir: string;
let admin: AuthHeaders;
let adminId: number;
let siteIds: number[];

/** Row count of every purged table, and of the purge records. */
async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [...PURGED_TABLES, 'daily_sales', 'data_purges', 'fiscal_day_totals']) {
    const { rows } = await t.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    out[table] = rows[0]!.n;
  }
  return out;
}

const partialUrl = () =>
  `/api/bo/emptyPartialDataBase?id=${adminId}&Site=${siteIds[0]}&debut=${PERIOD.debut}&fin=${PERIOD.fin}&commentaire=test`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-purge-fail-'));
  t = await createTestApp({ config: { dataDir } });
  adminId = await t.createUser({ login: 'admin', password: PASSWORD, droits: [...RIGHTS], allSites: true });
  admin = await t.signIn('admin', PASSWORD);
  await generateDemoChain(t.database.pool, { seed: 20261208, now: NOW, days: 21 });
  const { rows } = await t.database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id');
  siteIds = rows.map((r) => r.id);
}, 240_000);

afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('archive first, or nothing', () => {
  it('deletes nothing when the archive folder cannot be written (run FAILED, PurgeArchiveFailed)', async () => {
    const before = await counts();
    expect(before.tickets).toBeGreaterThan(0);
    await writeFile(path.join(dataDir, 'archives'), 'a file where the archive folder should be');
    const res = await t.app.inject({ method: 'GET', url: partialUrl(), headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const run = await endedPurgeRun(t, admin, adminId, res.json<PurgeRun>().runId);
    expect(run).toMatchObject({ statut: 'FAILED', erreur: 'PurgeArchiveFailed', purges: [] });
    expect(await counts()).toEqual(before);
    const audit = await t.database.pool.query(
      `SELECT 1 FROM audit_log WHERE action = 'database.emptyPartial'`,
    );
    expect(audit.rowCount).toBe(0);
    await rm(path.join(dataDir, 'archives'));
  });

  it('deletes nothing, and leaves no file, when the archive read back does not verify', async () => {
    const before = await counts();
    const archiveDir = path.join(dataDir, 'archives');
    await mkdir(archiveDir, { recursive: true });
    const tx = await beginTransaction(t.database.pool);
    let failure: unknown;
    try {
      await lockPurgedTables(tx);
      await purgeSitePeriod(
        tx,
        { userId: adminId, address: null },
        { siteId: siteIds[0]!, fromDate: PERIOD.debut, toDate: PERIOD.fin, comment: 'test' },
        {
          dataDir,
          archiveDir,
          now: NOW,
          async beforeVerify(file) {
            // One byte flipped in the middle of the file, as a failing disk would.
            const handle = await open(file, 'r+');
            const { size } = await handle.stat();
            const byte = Buffer.alloc(1);
            await handle.read(byte, 0, 1, Math.floor(size / 2));
            byte[0] = byte[0]! ^ 0xff;
            await handle.write(byte, 0, 1, Math.floor(size / 2));
            await handle.close();
          },
        },
      );
    } catch (error) {
      failure = error;
    } finally {
      await rollback(tx);
    }
    expect(failure).toBeInstanceOf(ArchiveError);
    expect(await counts()).toEqual(before);
    expect(await readdir(archiveDir)).toEqual([]);
  });
});

describe('the whole empty (bo/emptyDataBase)', () => {
  let totalsBefore: { net: number; tickets: number };

  /** Tickets per site id. */
  async function ticketsBySite(): Promise<Record<number, number>> {
    const { rows } = await t.database.pool.query<{ site_id: number; n: number }>(
      'SELECT site_id, count(*)::int AS n FROM tickets GROUP BY site_id',
    );
    return Object.fromEntries(rows.map((r) => [r.site_id, r.n]));
  }

  it('is refused without a comment (400), deleting nothing', async () => {
    const { rows } = await t.database.pool.query(
      'SELECT sum(net_cents)::float8 AS net, sum(tickets)::int AS tickets FROM daily_sales',
    );
    totalsBefore = rows[0];
    const before = await counts();
    const blank = await t.app.inject({
      method: 'GET',
      url: `/api/bo/emptyDataBase?id=${adminId}`,
      headers: admin,
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ code: 'InvalidField', details: { field: 'commentaire' } });
    expect(await counts()).toEqual(before);
  });

  it("empties only the sites of the caller's scope", async () => {
    const id = await t.createUser({
      login: 'partial',
      password: PASSWORD,
      droits: ['ACCES_BASE'],
      restaurantIds: siteIds.slice(0, 2),
    });
    const before = await ticketsBySite();
    const headers = await t.signIn('partial', PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/emptyDataBase?id=${id}&commentaire=test`,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = await endedPurgeRun(t, headers, id, res.json<PurgeRun>().runId);
    expect(run.purges.map((p) => p.restaurantId)).toEqual(siteIds.slice(0, 2));
    const after = await ticketsBySite();
    expect(after[siteIds[0]!] ?? 0).toBe(0);
    expect(after[siteIds[1]!] ?? 0).toBe(0);
    for (const site of siteIds.slice(2)) expect(after[site], `site ${site}`).toBe(before[site]);
  });

  it('archives and empties every site, keeps audit log and totals, once per Idempotency-Key', async () => {
    const { rows: auditBefore } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log',
    );
    const headers = { ...admin, 'idempotency-key': randomUUID() };
    const url = `/api/bo/emptyDataBase?id=${adminId}&commentaire=${encodeURIComponent('Nouvel exercice')}`;
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    const queued = res.json<PurgeRun>();
    const answer = await endedPurgeRun(t, admin, adminId, queued.runId);
    expect(answer).toMatchObject({ code: 'EmptyOk', statut: 'SUCCEEDED' });
    expect(answer.purges.map((p) => p.restaurantId)).toEqual(siteIds.slice(2));
    const after = await counts();
    for (const table of [...PURGED_TABLES, 'daily_sales']) expect(after[table], table).toBe(0);
    expect(after.data_purges).toBe(siteIds.length);
    const { rows: kept } = await t.database.pool.query(
      'SELECT sum(net_cents)::float8 AS net, sum(tickets)::int AS tickets FROM fiscal_day_totals',
    );
    expect(kept[0]).toEqual(totalsBefore);
    const { rows: auditAfter } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log',
    );
    // One entry for the request, one per site purged.
    expect(auditAfter[0]!.n).toBe(auditBefore[0]!.n + 1 + siteIds.length - 2);
    const files = await readdir(path.join(dataDir, 'archives'));
    expect(files.filter((f) => f.endsWith('.jsonl.gz'))).toHaveLength(siteIds.length);

    const repeat = await t.app.inject({ method: 'GET', url, headers });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(queued);
    expect(await counts()).toEqual(after);
  });
});
