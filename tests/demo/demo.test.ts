import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFiscalDates, generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestDatabase } from '../helpers/db.ts';

// Four weeks (a month start included) instead of the default 13 months keeps the test quick;
// the rules checked here do not depend on the span.
const NOW = new Date('2026-03-18T14:37:00Z');
const DAYS = 28;
const SEED = 20261122;

type Db = Awaited<ReturnType<typeof createTestDatabase>>;

/** Counts and sums of every table the generator fills, plus a digest of every ticket and line. */
async function checksums(db: Db) {
  const { rows } = await db.pool.query(`SELECT
      (SELECT count(*) FROM companies)::int AS companies,
      (SELECT count(*) FROM sites)::int AS sites,
      (SELECT count(*) FROM groups)::int AS groups,
      (SELECT count(*) FROM terminals)::int AS terminals,
      (SELECT count(*) FROM sellers)::int AS sellers,
      (SELECT count(*) FROM tickets)::int AS tickets,
      (SELECT sum(total_cents)::text FROM tickets) AS ticket_cents,
      (SELECT count(*) FROM ticket_lines)::int AS lines,
      (SELECT sum(amount_excl_cents)::text FROM ticket_lines) AS line_excl_cents,
      (SELECT count(*) FROM payments)::int AS payments,
      (SELECT sum(amount_cents)::text FROM payments) AS payment_cents,
      (SELECT count(*) FROM losses)::int AS losses,
      (SELECT sum(amount_cents)::text FROM losses) AS loss_cents,
      (SELECT md5(string_agg(concat_ws('|', s.libelle, t.fiscal_date, t.opened_at, t.kind, t.terminal_id, t.seller_code, t.covers, t.total_cents, t.source_ref), ',' ORDER BY s.libelle, t.source_ref))
         FROM tickets t JOIN sites s ON s.id = t.site_id) AS tickets_digest,
      (SELECT md5(string_agg(concat_ws('|', t.source_ref, l.line_no, l.article, l.quantity, l.amount_cents, l.corrected), ',' ORDER BY t.source_ref, l.line_no))
         FROM ticket_lines l JOIN tickets t USING (site_id, ticket_id)) AS lines_digest,
      (SELECT md5(string_agg(concat_ws('|', fiscal_date, tickets, net_cents, net_excl_cents, tax_cents), ',' ORDER BY site_id, fiscal_date)) FROM daily_sales) AS daily_digest,
      (SELECT md5(string_agg(concat_ws('|', e.uuid, e.designation, e.start_date, e.end_date, e.impact_type, e.impact_rate, s.code_implant), ',' ORDER BY e.uuid, s.code_implant))
         FROM local_events e JOIN local_event_sites l ON l.event_uuid = e.uuid JOIN sites s ON s.id = l.site_id) AS events_digest,
      (SELECT md5(string_agg(concat_ws('|', s.code_implant, c.fiscal_date, c.terminal_id, c.version, c.cash_cents, c.expected_cash_cents, c.meal_vouchers_cents, c.counted_by_login, c.counted_at), ',' ORDER BY s.code_implant, c.fiscal_date, c.terminal_id, c.version))
         FROM cash_counts c JOIN sites s ON s.id = c.site_id) AS cash_counts_digest,
      (SELECT md5(string_agg(concat_ws('|', s.code_implant, c.fiscal_date, c.version, c.opening_cents, c.deposits_cents, c.withdrawals_cents, c.counted_cents, c.countersigned_name, c.countersigned_at), ',' ORDER BY s.code_implant, c.fiscal_date, c.version))
         FROM safe_counts c JOIN sites s ON s.id = c.site_id) AS safe_counts_digest,
      (SELECT md5(string_agg(concat_ws('|', s.code_implant, r.fiscal_date, r.seller_code, r.manager_name, r.complements::text, r.created_at), ',' ORDER BY s.code_implant, r.fiscal_date, r.created_at, r.seller_code))
         FROM manager_receipts r JOIN sites s ON s.id = r.site_id) AS receipts_digest`);
  return rows[0];
}

describe('demo chain', () => {
  let db: Db;
  let result: Awaited<ReturnType<typeof generateDemoChain>>;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    result = await generateDemoChain(db.pool, { seed: SEED, now: NOW, days: DAYS, log: (m) => logs.push(m) });
  }, 120_000);
  afterAll(async () => {
    await db.close();
  });

  it('is deterministic: the same seed and hour give the same rows (events and counting history included), another seed other rows', async () => {
    const first = await checksums(db);
    const again = await createTestDatabase();
    const other = await createTestDatabase();
    try {
      // Another minute of the same hour: same data.
      await generateDemoChain(again.pool, { seed: SEED, now: new Date('2026-03-18T14:05:00Z'), days: DAYS });
      await generateDemoChain(other.pool, { seed: SEED + 1, now: NOW, days: DAYS });
      expect(await checksums(again)).toEqual(first);
      const different = await checksums(other);
      expect(different.tickets_digest).not.toBe(first.tickets_digest);
      expect(first.events_digest).toEqual(expect.any(String));
      expect(first.cash_counts_digest).toEqual(expect.any(String));
      expect(different.cash_counts_digest).not.toBe(first.cash_counts_digest);
      expect(different.sites).toBe(first.sites);
    } finally {
      await again.close();
      await other.close();
    }
  }, 120_000);

  it('creates 2 companies, 6 sites in Europe/Paris, groups with a site in two of them, 2–4 terminals and 3–8 sellers per site', async () => {
    expect(result.sites).toBe(6);
    const { rows: companies } = await db.pool.query(
      'SELECT raison_sociale, enseigne, siret FROM companies ORDER BY id',
    );
    expect(companies).toHaveLength(2);
    for (const c of companies) expect(c.siret).toMatch(/^\d{14}$/);
    const { rows: sites } = await db.pool.query(`SELECT s.time_zone, s.currency,
        (SELECT count(*) FROM terminals t WHERE t.site_id = s.id)::int AS terminals,
        (SELECT count(*) FROM sellers v WHERE v.site_id = s.id)::int AS sellers,
        (SELECT count(*) FROM group_sites g WHERE g.site_id = s.id)::int AS groups
      FROM sites s`);
    expect(sites).toHaveLength(6);
    for (const s of sites) {
      expect(s).toMatchObject({ time_zone: 'Europe/Paris', currency: 'EUR' });
      expect(s.terminals).toBeGreaterThanOrEqual(2);
      expect(s.terminals).toBeLessThanOrEqual(4);
      expect(s.sellers).toBeGreaterThanOrEqual(3);
      expect(s.sellers).toBeLessThanOrEqual(8);
      expect(s.groups).toBeGreaterThanOrEqual(1);
    }
    expect(sites.some((s) => s.groups === 2)).toBe(true);
  });

  it('has about 100–300 tickets a day per site by size, and a volume that reaches about a million lines over 13 months', async () => {
    const { rows } =
      await db.pool.query(`SELECT site_id, count(*)::float / count(DISTINCT fiscal_date) AS per_day
        FROM tickets WHERE kind = 'SALE' AND fiscal_date < DATE '2026-03-18' GROUP BY site_id`);
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      expect(r.per_day).toBeGreaterThan(90);
      expect(r.per_day).toBeLessThan(330);
    }
    const perDay = result.lines / DAYS;
    expect(perDay * 395).toBeGreaterThan(800_000);
    expect(perDay * 395).toBeLessThan(1_400_000);
    expect(logs.at(-1)).toMatch(/^Demo chain created: 6 sites, \d+ tickets, \d+ lines in [\d.]+ s\.$/);
  });

  it('stops before the current hour of now, and dates tickets in the site’s zone and business day', async () => {
    const { rows } =
      await db.pool.query(`SELECT max(opened_at) < TIMESTAMPTZ '2026-03-18 14:00:00Z' AS before_hour,
        max(opened_at) > TIMESTAMPTZ '2026-03-18 12:00:00Z' AS today_started,
        count(*) FILTER (WHERE t.fiscal_date <> ((t.opened_at AT TIME ZONE s.time_zone) - s.day_start::interval)::date)::int AS wrong_dates,
        count(*) FILTER (WHERE (t.opened_at AT TIME ZONE s.time_zone)::time < TIME '05:00' AND (t.opened_at AT TIME ZONE s.time_zone)::date > t.fiscal_date)::int AS after_midnight
      FROM tickets t JOIN sites s ON s.id = t.site_id`);
    expect(rows[0]).toEqual({
      before_hour: true,
      today_started: true,
      wrong_dates: 0,
      after_midnight: expect.any(Number),
    });
    // The late bar (day start 05:00) sells after midnight on the previous fiscal date.
    expect(rows[0].after_midnight).toBeGreaterThan(0);
  });

  it('has lunch and dinner peaks', async () => {
    const { rows } =
      await db.pool.query(`SELECT extract(hour FROM t.opened_at AT TIME ZONE s.time_zone)::int AS hour, count(*)::int AS n
        FROM tickets t JOIN sites s ON s.id = t.site_id JOIN companies c ON c.id = s.company_id
       WHERE c.raison_sociale LIKE '%Brasseries%' GROUP BY 1`);
    const at = (h: number) => rows.find((r) => r.hour === h)?.n ?? 0;
    expect(at(12)).toBeGreaterThan(3 * at(16));
    expect(at(20)).toBeGreaterThan(3 * at(16));
    expect(at(12)).toBeGreaterThan(at(10));
  });

  it('keeps amounts consistent: lines in exact cents, totals as sums of lines, payments summing to totals', async () => {
    const { rows } = await db.pool.query(`SELECT
        (SELECT count(*) FROM ticket_lines WHERE NOT corrected AND amount_cents <> quantity * unit_price_cents)::int AS bad_amount,
        (SELECT count(*) FROM ticket_lines WHERE corrected AND (amount_cents, amount_excl_cents, tax_cents) <> (0, 0, 0))::int AS bad_corrected,
        (SELECT count(*) FROM ticket_lines WHERE amount_excl_cents <> round(amount_cents / (1 + vat_rate)) OR tax_cents <> amount_cents - amount_excl_cents)::int AS bad_vat,
        (SELECT count(*) FROM tickets t LEFT JOIN (
           SELECT site_id, ticket_id, sum(amount_cents) AS a, sum(amount_excl_cents) AS e, sum(tax_cents) AS x
             FROM ticket_lines GROUP BY 1, 2) l USING (site_id, ticket_id)
          WHERE (t.total_cents, t.total_excl_cents, t.tax_cents) IS DISTINCT FROM (l.a, l.e, l.x))::int AS bad_totals,
        (SELECT count(*) FROM tickets t WHERE t.total_cents <> coalesce(
           (SELECT sum(amount_cents) FROM payments p WHERE p.site_id = t.site_id AND p.ticket_id = t.ticket_id), 0))::int AS bad_payments,
        (SELECT array_agg(DISTINCT vat_rate::text ORDER BY vat_rate::text) FROM ticket_lines) AS vat_rates`);
    expect(rows[0]).toEqual({
      bad_amount: 0,
      bad_corrected: 0,
      bad_vat: 0,
      bad_totals: 0,
      bad_payments: 0,
      vat_rates: ['0.0550', '0.1000', '0.2000'],
    });
  });

  it('has cancellations linked to the sale they mirror, corrections, employee meals, covers, split payments, every payment method and loss type', async () => {
    const { rows } = await db.pool.query(`SELECT
        (SELECT count(*) FROM tickets WHERE kind = 'CANCELLATION')::int AS cancellations,
        (SELECT count(*) FROM tickets c WHERE c.kind = 'CANCELLATION' AND NOT EXISTS (
           SELECT 1 FROM tickets s WHERE s.site_id = c.site_id AND s.ticket_id = c.cancels_ticket_id AND s.kind = 'SALE'
              AND s.fiscal_date = c.fiscal_date AND s.terminal_id = c.terminal_id AND s.total_cents = -c.total_cents
              AND s.opened_at < c.opened_at))::int AS unmatched,
        (SELECT count(*) FROM tickets WHERE kind <> 'CANCELLATION' AND cancels_ticket_id IS NOT NULL)::int AS misplaced_links,
        (SELECT count(*) FROM ticket_lines WHERE corrected)::int AS corrections,
        (SELECT count(*) FROM tickets WHERE employee_meal)::int AS employee_meals,
        (SELECT count(*) FROM tickets WHERE training_mode)::int AS training,
        (SELECT count(*) FROM tickets WHERE covers > 0)::int AS with_covers,
        (SELECT count(*) FROM (SELECT 1 FROM payments GROUP BY site_id, ticket_id HAVING count(*) > 1) x)::int AS split,
        (SELECT array_agg(DISTINCT method ORDER BY method) FROM payments) AS methods,
        (SELECT array_agg(DISTINCT type ORDER BY type) FROM losses) AS loss_types`);
    const r = rows[0];
    expect(r.cancellations).toBeGreaterThan(0);
    // Each cancellation links the very sale it mirrors (cancels_ticket_id), and only cancellations link.
    expect(r.unmatched).toBe(0);
    expect(r.misplaced_links).toBe(0);
    expect(r.corrections).toBeGreaterThan(0);
    expect(r.employee_meals).toBeGreaterThan(0);
    expect(r.training).toBeGreaterThan(0);
    expect(r.with_covers).toBeGreaterThan(0);
    expect(r.split).toBeGreaterThan(0);
    expect(r.methods).toEqual(expect.arrayContaining(['CARD', 'CASH', 'MEAL_VOUCHER']));
    expect(r.loss_types).toEqual(['CUSTOM', 'DEGRADED', 'LOSS', 'REMADE']);
  });

  it('fills daily_sales with exactly the aggregate of the tickets (SALE tickets counted, training left out)', async () => {
    const { rows } = await db.pool.query(`WITH direct AS (
        SELECT site_id, fiscal_date, count(*) FILTER (WHERE kind = 'SALE')::int AS tickets, sum(total_cents)::bigint AS net_cents,
               sum(total_excl_cents)::bigint AS net_excl_cents, sum(tax_cents)::bigint AS tax_cents
          FROM tickets WHERE NOT training_mode GROUP BY 1, 2)
      SELECT (SELECT count(*) FROM direct)::int AS days,
             (SELECT count(*) FROM (SELECT * FROM direct EXCEPT SELECT * FROM daily_sales) x)::int AS missing,
             (SELECT count(*) FROM (SELECT * FROM daily_sales EXCEPT SELECT * FROM direct) x)::int AS extra`);
    expect(rows[0].days).toBeGreaterThan(6 * 20);
    expect(rows[0]).toMatchObject({ missing: 0, extra: 0 });
  });
});

describe('demo span', () => {
  it('covers by default the 13 months up to the current fiscal date, which follows the site’s day start', () => {
    expect(demoFiscalDates(NOW, '00:00')).toEqual({ from: '2025-02-19', to: '2026-03-18' });
    expect(demoFiscalDates(NOW, '00:00', DAYS)).toEqual({ from: '2026-02-19', to: '2026-03-18' });
    // 03:30 in Paris on 19 March is still the 18th for a site whose day starts at 05:00.
    const night = new Date('2026-03-19T02:30:00Z');
    expect(demoFiscalDates(night, '05:00').to).toBe('2026-03-18');
    expect(demoFiscalDates(night, '00:00').to).toBe('2026-03-19');
  });
});
