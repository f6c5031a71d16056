/**
 * Discounts in the BI explorer (issue #19 "/bi": measure DISCOUNTS), on real PostgreSQL: the
 * aggregates' `discount_cents` (migration 0011, filled by db/aggregates.ts) answer, by site,
 * terminal, seller, family and hour, exactly what the discount lines of the fixture's tickets
 * gave away — summed here from the tickets themselves (a kept line running against its ticket:
 * negative on a sale, positive on the cancellation that takes it back), not from the SQL under
 * test. The migration's backfill, run on rows written without the column, gives the same rows.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BiExploreAnswerSchema, type BiDimension, measureAllowed } from '../../src/contract/bi.ts';
import { MIGRATIONS_FOLDER } from '../../src/server/db/connect.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import type { TestTicket } from '../helpers/chain.ts';
import { LYON, PARIS, seedDiscountChain } from './bi-fixture.ts';

const PASSWORD = 'Correct-Horse1';
const PERIOD = { from: '2026-03-02', to: '2026-03-03' };
const COMPARISON = { from: '2025-03-03', to: '2025-03-04' };
/** The tables migration 0011 gives a `discount_cents`. */
const DISCOUNT_TABLES = [
  'daily_ticket_stats',
  'daily_hour_sales',
  'daily_terminal_sales',
  'daily_seller_sales',
  'daily_family_sales',
];

type Key = (t: TestTicket, family: string | null) => string | null;

const KEYS: Partial<Record<BiDimension, Key>> = {
  SITE: (t) => String(t.siteId),
  TERMINAL: (t) => `${t.siteId}:${t.terminalId}`,
  SELLER: (t) => `${t.siteId}:${t.sellerCode}`,
  FAMILY: (_t, family) => family,
  HOUR: (t) => String(t.localHour),
};

/**
 * What the discount lines of `tickets` in `period` gave away, by `key` (cents, positive); every
 * key the period's tickets (for FAMILY: lines) have is there, 0 when it had no discount.
 */
function discountsBy(tickets: readonly TestTicket[], key: Key, period: { from: string; to: string }) {
  const out: Record<string, number> = {};
  for (const t of tickets) {
    if (t.trainingMode || t.fiscalDate < period.from || t.fiscalDate > period.to) continue;
    for (const l of t.lines ?? []) {
      const k = String(key(t, l.family));
      const runsAgainst = t.kind === 'SALE' ? l.amountCents < 0 : l.amountCents > 0;
      out[k] = (out[k] ?? 0) + (!l.corrected && runsAgainst ? -l.amountCents : 0);
    }
  }
  return out;
}

describe('the DISCOUNTS measure of bo/bi/explore', () => {
  let t: TestApp;
  let tickets: TestTicket[];
  let headers: Record<string, string>;
  let id: number;
  const explore = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/bi/explore?id=${id}&sites=${PARIS},${LYON}&dateDebut=${PERIOD.from}&dateFin=${PERIOD.to}&${query}`,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return BiExploreAnswerSchema.parse(res.json()).data;
  };
  /** Every row of the tables that hold discounts, as text, in a stable order. */
  const aggregateRows = async () => {
    const out: Record<string, string[]> = {};
    for (const table of DISCOUNT_TABLES) {
      const { rows } = await t.database.pool.query<{ row: string }>(
        `SELECT (a.*)::text AS row FROM ${table} a ORDER BY 1`,
      );
      out[table] = rows.map((r) => r.row);
    }
    return out;
  };

  beforeAll(async () => {
    t = await createTestApp();
    tickets = await seedDiscountChain(t.database);
    id = await t.createUser({ login: 'analyst', password: PASSWORD, droits: ['BI'], allSites: true });
    headers = await t.signIn('analyst', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is held by site, hour, day part, terminal, seller and family, not by VAT rate or payment', async () => {
    for (const d of [
      'SITE',
      'GROUP',
      'COMPANY',
      'WEEKDAY',
      'HOUR',
      'DAY_PART',
      'TERMINAL',
      'SELLER',
      'FAMILY',
    ] as const) {
      expect(measureAllowed('DISCOUNTS', [d]), d).toBe(true);
    }
    expect(measureAllowed('DISCOUNTS', ['SITE', 'HOUR'])).toBe(true);
    expect(measureAllowed('DISCOUNTS', ['VAT'])).toBe(false);
    expect(measureAllowed('DISCOUNTS', ['PAYMENT'])).toBe(false);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/bi/explore?id=${id}&dateDebut=${PERIOD.from}&dateFin=${PERIOD.to}&measure=DISCOUNTS&dimension1=VAT`,
      headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.unsupported).toEqual({ measure: 'DISCOUNTS', dimensions: ['VAT'] });
  });

  it('gives in total what the discount lines gave away, net of the cancelled sale, training left out', async () => {
    const data = await explore('measure=DISCOUNTS');
    // Paris 2.50 (the 1.00 of the cancelled sale taken back, the training 9.99 not counted), Lyon 3.00.
    expect(data.total).toEqual({ value: 550, comparisonValue: 150 });
  });

  it.each(Object.keys(KEYS) as BiDimension[])(
    'by %s equals the sum of the discount lines of the tickets, in the period and the comparison',
    async (dimension) => {
      const data = await explore(`measure=DISCOUNTS&dimension1=${dimension}`);
      const key = KEYS[dimension]!;
      const current = Object.fromEntries(
        data.rows.filter((r) => r.value !== null).map((r) => [String(r.keys[0]), r.value]),
      );
      const before = Object.fromEntries(
        data.rows
          .filter((r) => r.comparisonValue !== null)
          .map((r) => [String(r.keys[0]), r.comparisonValue]),
      );
      expect(current).toEqual(discountsBy(tickets, key, PERIOD));
      expect(before).toEqual(discountsBy(tickets, key, COMPARISON));
      expect(Object.values(current).some((v) => v !== 0)).toBe(true);
    },
  );

  it('reads by two dimensions and exports as money', async () => {
    const both = await explore('measure=DISCOUNTS&dimension1=SITE&dimension2=SELLER');
    expect(both.rows.map((r) => [...r.labels, r.value])).toEqual([
      ['Lyon', 'Alice (Lyon)', 300],
      ['Lyon', 'Bruno (Lyon)', 0],
      ['Paris', 'Alice (Paris)', 250],
      ['Paris', 'Bruno (Paris)', 0],
    ]);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/bo/bi/explore?id=${id}&dateDebut=${PERIOD.from}&dateFin=${PERIOD.to}&measure=DISCOUNTS&dimension1=SITE&format=CSV&language=en`,
      headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Discounts given');
    expect(csv.body).toMatch(/3[.,]00/);
  });

  it('is backfilled by migration 0011 on rows written before it, as the refresh writes it', async () => {
    const refreshed = await aggregateRows();
    expect(refreshed.daily_ticket_stats!.join('\n')).toMatch(/,250\)$/m);
    const { pool } = t.database;
    for (const table of DISCOUNT_TABLES) await pool.query(`ALTER TABLE ${table} DROP COLUMN discount_cents`);
    const sql = await fs.readFile(path.join(MIGRATIONS_FOLDER, '0011_discount_aggregates.sql'), 'utf8');
    const client = await pool.connect();
    try {
      // As the migrator runs it: every statement in one transaction.
      await client.query('BEGIN');
      for (const statement of sql.split('--> statement-breakpoint')) await client.query(statement);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await aggregateRows()).toEqual(refreshed);
  });
});
