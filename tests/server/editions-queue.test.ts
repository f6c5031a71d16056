/**
 * The report history's writing and retention (issue #17 item 6, decision record 0018): editions
 * go through a bounded queue written in batches — 20,000 queued at once all reach the table with
 * never more than the bound held in memory; a graceful stop writes what is queued; an author
 * deleted meanwhile does not fail a batch; old editions are deleted in batches. Real app, real
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawReportInput, ResolvedReport } from '../../src/server/reports/request.ts';
import {
  EDITION_BATCH,
  EDITION_QUEUE_BOUND,
  type EditionRecord,
  editionQueueStats,
  editionsWritten,
  queueEdition,
} from '../../src/server/reports/editions.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { deleteOldEditions } from '../../src/server/reports/edition-retention.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** An edition of `userId` for sites 1 and 2; `n` tells them apart (stored in the request's `heureDebut`). */
function edition(userId: number, n: number): EditionRecord {
  const input = {
    rapportClassName: 'RapportTickets',
    typeRapport: 'Daily',
    format: 'JSON',
    language: 'fr',
    dateDebut: '2026-11-01',
    dateFin: '2026-11-03',
    datefiscales: n % 2 === 0 ? [] : ['2026-11-01', '2026-11-03'],
    sites: [1, 2],
    tpv: [],
    vendeurs: [],
    trancheHoraire: false,
    heureDebut: String(n),
    heureFin: '',
  } as unknown as RawReportInput;
  // Only the request's identity is read from the resolved report when recording it.
  const report = {
    request: {
      className: 'RapportTickets',
      variant: 'Daily',
      format: 'JSON',
      language: 'fr',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-03',
      fiscalDates: n % 2 === 0 ? null : ['2026-11-01', '2026-11-03'],
      sites: [{ id: 1 }, { id: 2 }],
    },
  } as unknown as ResolvedReport;
  return { userId, login: 'gerant', report, input, status: 'OK', bytes: 100 + n, rows: 3 };
}

describe('report editions queue', () => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp();
    userId = await t.createUser({ login: 'gerant', password: 'Qu3ue!-editions', droits: ['RAPPORTS'] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes 20,000 editions queued at once, in batches, never holding more than the bound', async () => {
    const { pool } = t.database;
    const before = editionQueueStats(pool);
    const failures: unknown[] = [];
    const queued = await Promise.all(
      Array.from({ length: 20_000 }, (_, n) =>
        queueEdition(pool, edition(userId, n), (err) => failures.push(err)),
      ),
    );
    const ids = await Promise.all(queued.map((q) => q.written));
    const stats = editionQueueStats(pool);
    expect(failures).toEqual([]);
    expect(stats.highWater).toBe(EDITION_QUEUE_BOUND);
    expect(stats.waited - before.waited).toBe(20_000 - EDITION_QUEUE_BOUND);
    expect(stats.written - before.written).toBe(20_000);
    expect(stats.writes - before.writes).toBe(20_000 / EDITION_BATCH);
    expect(stats.queued + stats.waiting).toBe(0);
    // Ids ascend in the order the editions were queued.
    expect(ids.every((id, i) => id !== null && (i === 0 || id > ids[i - 1]!))).toBe(true);
    const { rows } = await pool.query<{ n: number; distinct_n: number; odd_dates: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT request->>'heureDebut')::int AS distinct_n,
              count(*) FILTER (WHERE fiscal_dates = '{2026-11-01,2026-11-03}'::date[])::int AS odd_dates
         FROM report_editions WHERE user_id = $1 AND site_ids = '{1,2}'::int[]`,
      [userId],
    );
    expect(rows[0]).toEqual({ n: 20_000, distinct_n: 20_000, odd_dates: 10_000 });
  }, 120_000);

  it('stores an edition whose author was deleted meanwhile as authorless, with the rest of its batch', async () => {
    const { pool } = t.database;
    const goneId = await t.createUser({ login: 'parti', password: 'Qu3ue!-editions', droits: [] });
    const first = await queueEdition(pool, edition(goneId, 1), () => {});
    const second = await queueEdition(pool, edition(userId, 2), () => {});
    await pool.query('DELETE FROM users WHERE id = $1', [goneId]);
    const [a, b] = await Promise.all([first.written, second.written]);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    const { rows } = await pool.query(
      'SELECT id, user_id FROM report_editions WHERE id = ANY($1) ORDER BY id',
      [[a, b]],
    );
    expect(rows).toEqual([
      { id: a, user_id: null },
      { id: b, user_id: userId },
    ]);
  });

  it('reports a failed batch once to its caller, with the number of editions lost, and carries on', async () => {
    const { pool } = t.database;
    const lost: number[] = [];
    const bad = { ...edition(userId, 3), bytes: Number.MAX_VALUE }; // not a bigint
    const failed = await queueEdition(pool, bad, (_err, n) => lost.push(n));
    expect(await failed.written).toBeNull();
    expect(lost).toEqual([1]);
    const next = await queueEdition(pool, edition(userId, 4), () => {});
    expect(await next.written).not.toBeNull();
  });

  it('deletes editions older than the retention, in batches, and keeps the others', async () => {
    const { pool } = t.database;
    await editionsWritten();
    const { rows: recent } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM report_editions',
    );
    await pool.query(
      `INSERT INTO report_editions (user_id, login, class_name, variant, format, language, date_debut, date_fin,
                                    site_ids, request, status, generated_at)
       SELECT $1, 'gerant', 'RapportTickets', 'Daily', 'JSON', 'fr', '2025-01-01', '2025-01-01', '{1}', '{}', 'OK',
              now() - make_interval(days => 400 + g)
         FROM generate_series(1, 12) g`,
      [userId],
    );
    expect(await deleteOldEditions(pool, 400, 5)).toBe(12);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM report_editions');
    expect(rows[0]!.n).toBe(recent[0]!.n);
    expect(await deleteOldEditions(pool, 400, 5)).toBe(0);
  });
});

describe('a graceful stop', () => {
  it('writes the editions still queued before the pool closes', async () => {
    const t = await createTestApp();
    try {
      const userId = await t.createUser({
        login: 'gerant',
        password: 'Qu3ue!-editions',
        droits: ['RAPPORTS'],
      });
      for (let n = 0; n < 300; n++) await queueEdition(t.database.pool, edition(userId, n), () => {});
      expect(editionQueueStats(t.database.pool).queued).toBeGreaterThan(0);
      await t.app.close();
      const { rows } = await t.database.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM report_editions',
      );
      expect(rows[0]!.n).toBe(300);
    } finally {
      await t.close();
    }
  });
});

describe('COMPTOIR_EDITIONS_DAYS', () => {
  it('defaults to 400 days, takes a number of days, and refuses one out of 1–36,500 naming the variable', () => {
    expect(loadConfig({}, false).editionsDays).toBe(400);
    expect(loadConfig({ COMPTOIR_EDITIONS_DAYS: '30' }, false).editionsDays).toBe(30);
    for (const bad of ['0', '36501', 'forever']) {
      expect(() => loadConfig({ COMPTOIR_EDITIONS_DAYS: bad }, false)).toThrow(ConfigError);
      expect(() => loadConfig({ COMPTOIR_EDITIONS_DAYS: bad }, false)).toThrow(/COMPTOIR_EDITIONS_DAYS/);
    }
  });
});
