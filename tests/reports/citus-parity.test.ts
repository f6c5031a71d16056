/**
 * Every report family to the cent against plain PostgreSQL on the same data (issue #33, decision
 * record 0046): the demo chain is generated twice with the same seed and clock, once in the run's
 * test database — on a Citus cluster in CI's Citus stage (vitest.citus.config.ts), sales tables
 * distributed by site — and once in a plain PostgreSQL database created on the same server
 * without the `citus` extension (nothing distributed). Every class of the report registry, in
 * each of its variants, for the whole chain and for one site, answers the same dataset from both,
 * or the same error. It runs only in the Citus stage (vitest.config.ts excludes it): on one
 * PostgreSQL it would compare two plain databases.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Dataset, ReportVariant } from '../../src/contract/reports.ts';
import { type Database, migrateDatabase } from '../../src/server/db/connect.ts';
import * as schema from '../../src/server/db/schema.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { REPORT_CLASSES } from '../../src/server/reports/registry.ts';
import { resolveReport } from '../../src/server/reports/request.ts';
import { runReport } from '../../src/server/reports/run.ts';
import { reportInput } from '../helpers/chain.ts';
import { ON_CITUS } from '../helpers/citus.ts';
import { createTestDatabase, type TestDatabase, testConnection } from '../helpers/db.ts';

const NOW = new Date('2026-11-02T22:30:00Z');
const DEMO = { seed: 11, now: NOW, days: 10 } as const;

let tested: TestDatabase;
let plain: Database & { name: string };
let sites: number[];
let from: string;
let to: string;

/** A database of the test server from template1 (no `citus` extension there), migrated. */
async function createPlainDatabase(): Promise<Database & { name: string }> {
  const name = `p_${Math.random().toString(16).slice(2, 14)}`;
  const admin = new pg.Client(inject('pgAdmin'));
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template1`);
  await admin.end();
  const pool = new pg.Pool({ ...testConnection(name), max: 4 });
  await migrateDatabase(pool);
  return {
    name,
    pool,
    db: drizzle(pool, { schema }),
    async close() {
      await pool.end();
      const a = new pg.Client(inject('pgAdmin'));
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

beforeAll(async () => {
  [tested, plain] = await Promise.all([createTestDatabase(), createPlainDatabase()]);
  await generateDemoChain(tested.pool, DEMO);
  await generateDemoChain(plain.pool, DEMO);
  sites = (await tested.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id')).rows.map((r) => r.id);
  const range = await tested.pool.query<{ from: string; to: string }>(
    'SELECT min(fiscal_date)::text AS from, max(fiscal_date)::text AS to FROM tickets',
  );
  ({ from, to } = range.rows[0]!);
}, 300_000);
afterAll(async () => {
  await tested?.close();
  await plain?.close();
});

/** The dataset of `className` (variant `variant`) on `database`, or the error's message. */
async function answer(
  database: Database,
  className: string,
  variant: ReportVariant,
  siteIds: number[],
): Promise<Dataset | { error: string }> {
  try {
    const input = reportInput(className, from, to, { sites: siteIds, typeRapport: variant });
    const resolved = await resolveReport(input, sites, database, { now: NOW });
    return await runReport(resolved, database);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('every report family answers on the tested database as on plain PostgreSQL', () => {
  it(`finds the same demo chain in both (${ON_CITUS ? 'Citus cluster' : 'plain'} against plain)`, async () => {
    const count = 'SELECT count(*)::int AS n, sum(total_cents)::text AS cents FROM tickets';
    const [a, b] = await Promise.all([tested.pool.query(count), plain.pool.query(count)]);
    expect(a.rows[0].n).toBeGreaterThan(1_000);
    expect(a.rows).toEqual(b.rows);
    if (ON_CITUS) {
      const placed = await tested.pool.query(
        `SELECT count(*)::int AS n FROM pg_dist_partition WHERE logicalrelid = 'tickets'::regclass`,
      );
      expect(placed.rows[0].n).toBe(1);
    }
  });

  for (const cls of REPORT_CLASSES) {
    it(`answers ${cls.className} in every variant, for the chain and for one site, as plain PostgreSQL does`, async () => {
      let rows = 0;
      for (const variant of cls.variants) {
        for (const siteIds of [sites, [sites[1]!]]) {
          const [a, b] = await Promise.all([
            answer(tested, cls.className, variant, siteIds),
            answer(plain, cls.className, variant, siteIds),
          ]);
          expect(a, `${cls.className} ${variant} ${siteIds.join(',')}`).toEqual(b);
          if ('rows' in a) rows += a.rows.length;
        }
      }
      // Not an empty answer compared with another: every class finds rows in ten demo days.
      expect(rows).toBeGreaterThan(0);
    }, 120_000);
  }
});
