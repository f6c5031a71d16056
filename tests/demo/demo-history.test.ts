/**
 * What issue #19 adds to the demo chain (src/server/demo): local events whose impact is really
 * in the sales of their sites and days, the planted anomalies (anomalies.ts) standing out while
 * ordinary sellers and terminals stay ordinary, and the counting history (counting.ts) the
 * counting reports and the home's widgets read. Generated once, on 12 weeks (the 8 planted weeks
 * and 4 before), after an administrator exists, as at `npm start`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../src/contract/rights.ts';
import { siteScope } from '../../src/server/auth/scope.ts';
import { expectedAmounts } from '../../src/server/counting/cash-counts.ts';
import { signatureStatuses } from '../../src/server/counting/countersignatures.ts';
import { PLANTED_ANOMALIES, PLANTED_WEEKS } from '../../src/server/demo/anomalies.ts';
import { SITES } from '../../src/server/demo/catalogue.ts';
import { AWAITING_COUNTERSIGNATURE, MISSING_CASH_COUNT_SITE } from '../../src/server/demo/counting.ts';
import { DEMO_EVENTS, demoEvents, eventFactor } from '../../src/server/demo/events.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const NOW = new Date('2026-03-18T14:37:00Z');
const TODAY = '2026-03-18';
const DAYS = 84;
const SEED = 20261122;
const PASSWORD = 'Admin-Passw0rd!';
const DAY_MS = 86_400_000;

let t: TestApp;
let adminId: number;
/** Database id of each demo site, in catalogue order. */
let siteIds: number[];

const dayNumber = (date: string) => Date.parse(date) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
/** First fiscal date of the planted window. */
const PLANTED_FROM = dateOf(dayNumber(TODAY) - PLANTED_WEEKS * 7 + 1);

beforeAll(async () => {
  t = await createTestApp();
  // As at `npm start`: the administrator exists before the demo chain is created.
  adminId = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: RIGHTS.filter((r) => r !== 'LIMITATION_SITE'),
    allSites: true,
  });
  await generateDemoChain(t.database.pool, { seed: SEED, now: NOW, days: DAYS });
  const { rows } = await t.database.pool.query<{ id: number; code_implant: string }>(
    'SELECT id, code_implant FROM sites',
  );
  siteIds = SITES.map((s) => rows.find((r) => r.code_implant === s.codeImplant)!.id);
}, 180_000);
afterAll(async () => {
  await t.close();
});

describe('demo events', () => {
  it('are stored with their dates, sites and impacts, some past and some to come', async () => {
    const dated = demoEvents(NOW);
    const { rows } = await t.database.pool.query<{
      designation: string;
      start_date: string;
      end_date: string;
      impact_type: string;
      impact_rate: string;
      sites: number[];
    }>(`SELECT e.designation, e.start_date::text, e.end_date::text, e.impact_type, e.impact_rate::text,
               array_agg(s.site_id ORDER BY s.site_id) AS sites
          FROM local_events e JOIN local_event_sites s ON s.event_uuid = e.uuid GROUP BY e.uuid`);
    expect(rows).toHaveLength(DEMO_EVENTS.length);
    for (const e of dated) {
      expect(rows).toContainEqual({
        designation: e.designation,
        start_date: e.dateDebut,
        end_date: e.dateFin,
        impact_type: e.typeImpact,
        impact_rate: e.tauxImpact.toFixed(2),
        sites: e.sites.map((s) => siteIds[s]).sort((a, b) => a! - b!),
      });
    }
    expect(dated.filter((e) => e.dateFin < TODAY).length).toBeGreaterThanOrEqual(6);
    expect(
      dated.filter((e) => e.dateDebut > TODAY && e.dateDebut <= dateOf(dayNumber(TODAY) + 30)).length,
    ).toBeGreaterThanOrEqual(4);
    // Every past event lies in the 13 months the demo covers by default.
    for (const e of dated) expect(e.dateDebut >= '2025-02-19').toBe(true);
  });

  it('move the ticket volume of their sites and days by their impact rate', async () => {
    const dated = demoEvents(NOW);
    const { rows } = await t.database.pool.query<{ site_id: number; fiscal_date: string; tickets: number }>(
      'SELECT site_id, fiscal_date::text, tickets FROM daily_sales WHERE fiscal_date < $1',
      [TODAY],
    );
    const tickets = new Map(rows.map((r) => [`${r.site_id}:${r.fiscal_date}`, r.tickets]));
    const at = (s: number, d: number) => tickets.get(`${siteIds[s]}:${dateOf(d)}`);
    // Absolute errors of a forecast by the same weekday around, blind to the events or knowing them.
    let blind = 0;
    let aware = 0;
    const results: { event: string; site: number; days: number; expected: number; observed: number }[] = [];
    for (const e of dated.filter((d) => d.dateFin < TODAY)) {
      for (const s of e.sites) {
        let actual = 0;
        let usual = 0;
        let expected = 0;
        for (let d = e.firstDay; d <= e.lastDay; d++) {
          // The same weekday one and two weeks around, on days without any event of the site.
          const around = [-14, -7, 7, 14]
            .map((k) => d + k)
            .filter((k) => eventFactor(dated, s, k) === 1 && dateOf(k) < TODAY)
            .map((k) => at(s, k))
            .filter((n): n is number => n !== undefined);
          const here = at(s, d);
          if (here === undefined || around.length < 2) continue;
          const mean = around.reduce((a, b) => a + b, 0) / around.length;
          actual += here;
          usual += mean;
          expected += mean * eventFactor(dated, s, d);
          blind += Math.abs(here - mean);
          aware += Math.abs(here - mean * eventFactor(dated, s, d));
        }
        if (usual > 0)
          results.push({
            event: e.designation,
            site: s,
            days: e.when.days,
            expected: expected / usual,
            observed: actual / usual,
          });
      }
    }
    // The generated span holds the relative events (roadworks, strike, promotion, football final…).
    expect(results.length).toBeGreaterThanOrEqual(8);
    for (const r of results) {
      const label = `${r.event} at site ${r.site}: ${r.observed.toFixed(3)} vs ${r.expected.toFixed(3)}`;
      // Seen: what the event predicts, within the noise of one day (σ ≈ 9 % of a day against
      // the mean of its neighbours) or, over a week or two, within a few percent.
      expect(Math.abs(r.observed / r.expected - 1), label).toBeLessThan(r.days === 1 ? 0.2 : 0.08);
      // And clearly not an ordinary day: a forecast ignoring the event would miss by about the rate.
      expect(Math.abs(r.observed - 1), label).toBeGreaterThan(0.1);
    }
    // A forecast that knows the events does better than one that does not.
    expect(aware).toBeLessThan(0.5 * blind);
    const meanError = results.reduce((a, r) => a + Math.abs(r.observed / r.expected - 1), 0) / results.length;
    expect(meanError).toBeLessThan(0.08);
  });
});

/** Per seller (`kind` seller) or terminal of each demo site over [from, to): tickets and how many of them did `measure`. */
async function rates(kind: 'seller' | 'terminal', from: string, to: string) {
  const key = kind === 'seller' ? 't.seller_code' : 't.terminal_id::text';
  const { rows } = await t.database.pool.query<{
    site_id: number;
    key: string;
    sales: number;
    cancellations: number;
    corrections: number;
    discounts: number;
  }>(
    `SELECT t.site_id, ${key} AS key,
            count(*) FILTER (WHERE t.kind = 'SALE')::int AS sales,
            count(*) FILTER (WHERE t.kind = 'CANCELLATION')::int AS cancellations,
            coalesce(sum(l.corrected), 0)::int AS corrections,
            count(*) FILTER (WHERE t.kind = 'SALE' AND l.discounts > 0)::int AS discounts
       FROM tickets t
       LEFT JOIN (SELECT site_id, ticket_id, count(*) FILTER (WHERE corrected) AS corrected,
                         count(*) FILTER (WHERE family IS NULL AND amount_cents < 0 AND article LIKE 'Remise%') AS discounts
                    FROM ticket_lines GROUP BY 1, 2) l USING (site_id, ticket_id)
      WHERE t.fiscal_date >= $1 AND t.fiscal_date < $2 AND NOT t.training_mode AND NOT t.employee_meal
      GROUP BY 1, 2`,
    [from, to],
  );
  return rows.map((r) => ({
    site: siteIds.indexOf(r.site_id),
    key: r.key,
    sales: r.sales,
    cancellations: r.cancellations / r.sales,
    corrections: r.corrections / r.sales,
    discounts: r.discounts / r.sales,
  }));
}

/** Cash counts (latest versions) per site and terminal: how many, mean cash variance (cents), how many short of over 5 €. */
async function cashVariances() {
  const { rows } = await t.database.pool.query<{
    site_id: number;
    terminal: string;
    n: number;
    mean: number;
    short: number;
  }>(
    `SELECT site_id, terminal_id::text AS terminal, count(*)::int AS n, avg(cash_cents - expected_cash_cents)::float AS mean,
            count(*) FILTER (WHERE cash_cents - expected_cash_cents < -500)::int AS short
       FROM (SELECT DISTINCT ON (site_id, fiscal_date, terminal_id) * FROM cash_counts WHERE fiscal_date >= $1
              ORDER BY site_id, fiscal_date, terminal_id, version DESC) c GROUP BY 1, 2`,
    [PLANTED_FROM],
  );
  return rows.map((r) => ({ ...r, site: siteIds.indexOf(r.site_id) }));
}

const MEASURES = ['cancellations', 'corrections', 'discounts'] as const;
const isPlanted = (site: number, kind: 'seller' | 'terminal', key: string, measure: string) =>
  PLANTED_ANOMALIES.some(
    (a) => a.siteId === site && a.kind === kind && a.key === key && a.measure === measure,
  );

describe('planted anomalies', () => {
  it('stand out against their peers of the site over the planted weeks', async () => {
    for (const planted of PLANTED_ANOMALIES.filter((a) => a.measure !== 'cashVariance')) {
      const measure = planted.measure as (typeof MEASURES)[number];
      const all = (await rates(planted.kind, PLANTED_FROM, TODAY)).filter((r) => r.site === planted.siteId);
      const it = all.find((r) => r.key === planted.key)!;
      const peers = all.filter((r) => r.key !== planted.key).map((r) => r[measure]);
      const label = `${planted.kind} ${planted.key} of site ${planted.siteId}, ${measure}`;
      expect(it.sales, label).toBeGreaterThan(250);
      expect(it[measure], label).toBeGreaterThanOrEqual(3 * median(peers));
    }
    const cash = await cashVariances();
    const short = PLANTED_ANOMALIES.find((a) => a.measure === 'cashVariance')!;
    const it = cash.find((c) => c.site === short.siteId && c.terminal === short.key)!;
    expect(it.short).toBeGreaterThanOrEqual(it.n / 2);
    expect(it.mean).toBeLessThan(-500);
    for (const c of cash.filter((x) => x !== it)) {
      expect(c.short, `terminal ${c.terminal} of site ${c.site}`).toBe(0);
      expect(Math.abs(c.mean), `terminal ${c.terminal} of site ${c.site}`).toBeLessThan(100);
    }
  });

  it('leave ordinary sellers and terminals ordinary: within Poisson noise of their site (3σ)', async () => {
    for (const kind of ['seller', 'terminal'] as const) {
      const all = await rates(kind, PLANTED_FROM, TODAY);
      for (const measure of MEASURES) {
        for (const r of all.filter((x) => !isPlanted(x.site, kind, x.key, measure))) {
          const peers = all.filter((x) => x.site === r.site && !isPlanted(x.site, kind, x.key, measure));
          const pooled =
            peers.reduce((a, x) => a + x[measure] * x.sales, 0) / peers.reduce((a, x) => a + x.sales, 0);
          const expected = pooled * r.sales;
          // The planted voiding terminal takes its corrections from the others: they sit below, never above.
          if (kind === 'terminal' && measure === 'corrections' && r.site === 2) continue;
          expect(r[measure] * r.sales, `${kind} ${r.key} of site ${r.site}, ${measure}`).toBeLessThanOrEqual(
            expected + 3 * Math.sqrt(expected) + 1,
          );
        }
      }
    }
    // Every seller of the site of the voiding terminal keeps an ordinary correction rate.
    const grenoble = (await rates('seller', PLANTED_FROM, TODAY)).filter((r) => r.site === 2);
    for (const r of grenoble) expect(r.corrections).toBeLessThan(0.045);
    // Ordinary sellers give discounts too, at the ordinary rate (about 2 % of tickets).
    const sellers = (await rates('seller', PLANTED_FROM, TODAY)).filter(
      (r) => !isPlanted(r.site, 'seller', r.key, 'discounts'),
    );
    expect(median(sellers.map((r) => r.discounts))).toBeGreaterThan(0.01);
    expect(median(sellers.map((r) => r.discounts))).toBeLessThan(0.03);
  });

  it('were ordinary before the planted weeks', async () => {
    const before = await rates('terminal', dateOf(dayNumber(TODAY) - DAYS + 1), PLANTED_FROM);
    const grenoble = before.filter((r) => r.site === 2);
    const voiding = grenoble.find((r) => r.key === '2')!;
    expect(voiding.corrections).toBeLessThan(2 * median(grenoble.map((r) => r.corrections)));
    const sellers = await rates('seller', dateOf(dayNumber(TODAY) - DAYS + 1), PLANTED_FROM);
    const annecy = sellers.filter((r) => r.site === 1);
    expect(annecy.find((r) => r.key === 'V04')!.discounts).toBeLessThan(
      2 * median(annecy.map((r) => r.discounts)),
    );
  });
});

/** The fiscal dates of the last 7 days before today, oldest first. */
const LAST_WEEK = [7, 6, 5, 4, 3, 2, 1].map((k) => dateOf(dayNumber(TODAY) - k));

describe('counting history', () => {
  it('has, for every site and each of the last 7 days, a cash count per terminal that sold, a safe count and receipts; none today', async () => {
    const { rows } = await t.database.pool.query<{
      site_id: number;
      fiscal_date: string;
      sold: number[];
      counted: number[];
      safes: number;
      receipts: number;
    }>(
      `SELECT d.site_id, d.fiscal_date::text,
              (SELECT array_agg(DISTINCT terminal_id ORDER BY terminal_id) FROM tickets x
                WHERE x.site_id = d.site_id AND x.fiscal_date = d.fiscal_date AND NOT x.training_mode) AS sold,
              coalesce((SELECT array_agg(DISTINCT terminal_id ORDER BY terminal_id) FROM cash_counts c
                WHERE c.site_id = d.site_id AND c.fiscal_date = d.fiscal_date), '{}') AS counted,
              (SELECT count(*) FROM safe_counts c WHERE c.site_id = d.site_id AND c.fiscal_date = d.fiscal_date)::int AS safes,
              (SELECT count(*) FROM manager_receipts r WHERE r.site_id = d.site_id AND r.fiscal_date = d.fiscal_date)::int AS receipts
         FROM daily_sales d WHERE d.fiscal_date = ANY($1::date[])`,
      [LAST_WEEK],
    );
    for (let s = 0; s < SITES.length; s++) {
      const days = rows.filter((r) => r.site_id === siteIds[s]);
      // Angers closes on Mondays: six open days of the seven.
      expect(days.length, `site ${s}`).toBeGreaterThanOrEqual(SITES[s]!.closedWeekdays.length > 0 ? 6 : 7);
      for (const d of days) {
        const missing = s === MISSING_CASH_COUNT_SITE && d.fiscal_date === LAST_WEEK[6];
        expect(d.counted, `site ${s} on ${d.fiscal_date}`).toEqual(missing ? [] : d.sold);
        expect(d.safes, `site ${s} on ${d.fiscal_date}`).toBeGreaterThanOrEqual(1);
        expect(d.receipts, `site ${s} on ${d.fiscal_date}`).toBeGreaterThanOrEqual(1);
      }
    }
    const { rows: today } = await t.database.pool.query(
      `SELECT (SELECT count(*) FROM cash_counts WHERE fiscal_date >= $1)::int AS cash,
              (SELECT count(*) FROM safe_counts WHERE fiscal_date >= $1)::int AS safe,
              (SELECT count(*) FROM manager_receipts WHERE fiscal_date >= $1)::int AS receipts,
              (SELECT min(fiscal_date)::text FROM cash_counts) AS first,
              (SELECT min(fiscal_date)::text FROM daily_sales WHERE fiscal_date >= $2 AND tickets > 0) AS sold`,
      [TODAY, dateOf(dayNumber(TODAY) - 91)],
    );
    // Counts go back 91 days (generate.ts COUNTING_DAYS), from the first of them that had sales
    // (this chain of 84 days starts later; its first day, 25 Dec, is closed).
    const { sold, ...counts } = today[0];
    expect(counts).toEqual({ cash: 0, safe: 0, receipts: 0, first: sold });
  });

  it('counts what the counting domain expects: expected amounts are the terminal’s payments of the day', async () => {
    const { rows } = await t.database.pool.query<{
      site_id: number;
      fiscal_date: string;
      terminal_id: number;
      expected_cash_cents: number;
      expected_cheques_cents: number;
      expected_meal_vouchers_cents: number;
      expected_card_slips_cents: number;
      card_slips_cents: number | null;
      cash_cents: number;
      cash: { denominationCents: number; quantity: number }[];
    }>('SELECT * FROM cash_counts WHERE fiscal_date = ANY($1::date[])', [LAST_WEEK.slice(4)]);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      const expected = await expectedAmounts(t.database.pool, r.site_id, r.fiscal_date, r.terminal_id);
      expect(expected).toEqual({
        cashCents: Number(r.expected_cash_cents),
        chequesCents: Number(r.expected_cheques_cents),
        mealVouchersCents: Number(r.expected_meal_vouchers_cents),
        cardSlipsCents: Number(r.expected_card_slips_cents),
      });
      // The default rules: cash, cheques and meal vouchers counted, card slips not; cash as notes and coins.
      expect(r.card_slips_cents).toBeNull();
      expect(r.cash.reduce((a, d) => a + d.denominationCents * d.quantity, 0)).toBe(Number(r.cash_cents));
    }
  });

  it('chains the safe from day to day, and has it countersigned by another manager who may, but two recent counts', async () => {
    const statuses = await signatureStatuses(
      t.database.pool,
      siteIds,
      dateOf(dayNumber(TODAY) - (DAYS - 1)),
      TODAY,
    );
    const waiting = statuses.data.filter((c) => c.status === 'EN_ATTENTE');
    expect(
      waiting.map((c) => [siteIds.indexOf(c.site), dayNumber(TODAY) - dayNumber(c.dateFiscale)]),
    ).toEqual(expect.arrayContaining(AWAITING_COUNTERSIGNATURE.map((a) => [a.site, a.daysAgo])));
    expect(waiting).toHaveLength(AWAITING_COUNTERSIGNATURE.length);
    const scopes = new Map<number, number[]>();
    const scopeOf = async (user: number) => {
      if (!scopes.has(user)) scopes.set(user, await siteScope(t.database.pool, user));
      return scopes.get(user)!;
    };
    const previous = new Map<number, number>();
    for (const c of statuses.data) {
      if (previous.has(c.site))
        expect(c.openingCents, `${c.libelle} ${c.dateFiscale}`).toBe(previous.get(c.site));
      previous.set(c.site, c.countedCents);
      expect(c.expectedCents).toBeGreaterThanOrEqual(0);
      expect(Math.abs(c.varianceCents)).toBeLessThanOrEqual(1500);
      expect(await scopeOf(c.countedBy.userId)).toContain(c.site);
      if (!c.countersignature) continue;
      expect(c.countersignature.managerUserId).not.toBe(c.countedBy.userId);
      expect(await scopeOf(c.countersignature.managerUserId)).toContain(c.site);
    }
    // Each site is counted by its own manager; the administrator countersigns where no other manager may.
    const { rows } = await t.database.pool.query<{ site_id: number; counters: string[]; signers: string[] }>(
      `SELECT site_id, array_agg(DISTINCT counted_by_login) AS counters,
              array_remove(array_agg(DISTINCT countersigned_name), NULL) AS signers FROM safe_counts GROUP BY 1`,
    );
    const by = (s: number) => rows.find((r) => r.site_id === siteIds[s])!;
    expect(by(0)).toMatchObject({ counters: ['gerant.bellecour'], signers: ['responsable.brasseries'] });
    expect(by(1)).toMatchObject({ counters: ['responsable.brasseries'], signers: ['admin'] });
    expect(by(4)).toMatchObject({ counters: ['gerante.ferrand'], signers: ['admin'] });
  });

  it('shows rows in RapportComptageCaisses, RapportComptageCoffre and RapportRecus for the last 7 days of every site', async () => {
    const headers = await t.signIn('admin', PASSWORD);
    for (const className of ['RapportComptageCaisses', 'RapportComptageCoffre', 'RapportRecus']) {
      const res = await t.app.inject({
        url: `/api/bo/getReport?id=${adminId}&rapportClassName=${className}&format=JSON&language=fr&dateDebut=${LAST_WEEK[0]}&dateFin=${LAST_WEEK[6]}${siteIds.map((id) => `&sites[]=${id}`).join('')}`,
        headers,
      });
      expect(res.statusCode, className).toBe(200);
      const data = datasetAnswer(res);
      const sites = new Set(data.rows.map((r) => r.site));
      expect(sites.size, className).toBe(SITES.length);
      const dates = new Set(data.rows.map((r) => r.fiscalDate));
      expect(dates, className).toEqual(new Set(LAST_WEEK));
    }
  });
});
