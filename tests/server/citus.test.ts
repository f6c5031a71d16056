/**
 * The Citus placement step (src/server/db/citus.ts, decision record 0042). On plain PostgreSQL
 * (the usual run) it must do nothing; on a Citus cluster (TEST_CITUS=1, vitest.citus.config.ts)
 * every table sits where docs/operations/distributed-postgresql.md says, the step is idempotent,
 * and a one-site query reaches one shard.
 */
import { describe, expect, it } from 'vitest';
import { distributeForCitus, isCitusCluster, REFERENCE_TABLES } from '../../src/server/db/citus.ts';
import { ON_CITUS } from '../helpers/citus.ts';
import { setUpFixtureDatabase } from '../helpers/db.ts';

const f = setUpFixtureDatabase(async () => ({}));

describe('placing the tables on Citus', () => {
  it(ON_CITUS ? 'sees a Citus cluster' : 'sees no Citus cluster and changes nothing', async () => {
    expect(await isCitusCluster(f.database.pool)).toBe(ON_CITUS);
    if (!ON_CITUS) {
      expect(await distributeForCitus(f.database.pool)).toBeNull();
      const ext = await f.database.pool.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
      expect(ext.rowCount).toBe(0);
    }
  });

  it('places every table as documented, once (a second run places nothing)', async () => {
    const again = await distributeForCitus(f.database.pool);
    if (!ON_CITUS) {
      expect(again).toBeNull();
      return;
    }
    expect(again).toEqual({ reference: [], distributed: [] });
    const { rows } = await f.database.pool.query<{
      name: string;
      method: string;
      col: string | null;
      colo: number;
    }>(
      `SELECT logicalrelid::text AS name, partmethod AS method,
              column_to_column_name(logicalrelid, partkey) AS col, colocationid AS colo
       FROM pg_dist_partition`,
    );
    const by = new Map(rows.map((r) => [r.name, r]));
    for (const t of REFERENCE_TABLES) expect(by.get(t)?.method, t).toBe('n');
    const tickets = by.get('tickets');
    expect(tickets?.method).toBe('h');
    expect(tickets?.col).toBe('site_id');
    for (const t of [
      'ticket_lines',
      'payments',
      'daily_sales',
      'cash_counts',
      'data_loads',
      'local_event_sites',
    ]) {
      expect(by.get(t)?.method, t).toBe('h');
      expect(by.get(t)?.col, t).toBe('site_id');
      expect(by.get(t)?.colo, t).toBe(tickets?.colo);
    }
    // Coordinator-only tables are not distributed (a citus local table at most: method 'n', no replication).
    for (const t of ['audit_log', 'idempotency_keys', 'job_runs'])
      expect(by.get(t)?.method ?? 'local', t).not.toBe('h');
  });

  it('runs a one-site report query on one shard (the site filter reaches the worker)', async () => {
    if (!ON_CITUS) {
      expect(await isCitusCluster(f.database.pool)).toBe(false);
      return;
    }
    const { rows } = await f.database.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT sum(net_cents) FROM daily_sales WHERE site_id = ANY($1::int[]) AND fiscal_date BETWEEN $2 AND $3`,
      [[7], '2025-01-01', '2025-12-31'],
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Task Count: 1\b/);
    const all = await f.database.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT sum(net_cents) FROM daily_sales WHERE fiscal_date BETWEEN $1 AND $2`,
      ['2025-01-01', '2025-12-31'],
    );
    expect(all.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toMatch(/Task Count: 1\b/);
  });
});
