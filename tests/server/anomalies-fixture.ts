/**
 * A small chain for the anomaly tests (tests/server/anomalies.test.ts and the client page test):
 * two sites (1 "Paris Bastille", 2 "Lyon Part-Dieu") with terminals 1–3 and sellers V01–V06,
 * 12 weeks of tickets drawn from known rates by a seeded generator, and 60 days of cash counts.
 * Planted on site 1 over the period (the 4 weeks {@link PERIOD}): seller V03 cancels 5 % of its
 * tickets (the others about 1 %), terminal 2 voids 6 % of its lines (others about 1 %), seller V05
 * gives a discount on 15 % of its tickets (others 2 %), terminal 3's cash counts are short by
 * about 25 € (others ±3 €). Decoys that a careless reading would flag: training-mode
 * cancellations of V01, a superseded (version 1) cash count far off on site 2's terminal 1, and
 * seller V06 of site 2 who rings only 2 tickets a day, about 10 % of them cancelled.
 */
import type { Database } from '../../src/server/db/connect.ts';
import { loadTestChain, type TestLine, type TestTicket } from '../helpers/chain.ts';

/** The period asked for, and the first day of its 8-week history. */
export const PERIOD = { dateDebut: '2026-03-02', dateFin: '2026-03-29' } as const;
export const HISTORY_DEBUT = '2026-01-05';
export const SELLERS = ['V01', 'V02', 'V03', 'V04', 'V05', 'V06'].map((code, i) => ({
  code,
  nom: ['Alice Martin', 'Bruno Petit', 'Chloé Durand', 'David Moreau', 'Emma Laurent', 'Farid Haddad'][i]!,
}));
/** What the fixture plants, as the answer names it. */
export const PLANTED = [
  { siteId: 1, kind: 'seller', key: 'V03', measure: 'cancellations' },
  { siteId: 1, kind: 'terminal', key: '2', measure: 'corrections' },
  { siteId: 1, kind: 'seller', key: 'V05', measure: 'discounts' },
  { siteId: 1, kind: 'terminal', key: '3', measure: 'cashVariance' },
] as const;

/** mulberry32, so every run draws the same chain. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `YYYY-MM-DD` `n` days after `date`. */
function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const line = (corrected: boolean): TestLine => ({
  article: 'Café',
  family: 'Boissons',
  quantity: 1,
  unitPriceCents: 500,
  amountCents: corrected ? 0 : 500,
  vatRate: 0.1,
  amountExclCents: corrected ? 0 : 455,
  taxCents: corrected ? 0 : 45,
  corrected,
});
const DISCOUNT: TestLine = {
  article: 'Remise fidélité',
  family: null,
  quantity: 1,
  unitPriceCents: -100,
  amountCents: -100,
  vatRate: 0.1,
  amountExclCents: -91,
  taxCents: -9,
  corrected: false,
};

/** Rates of one ticket of `seller` on `terminal` of `siteId`, in or out of the period. */
function rates(siteId: number, seller: string, terminal: number, inPeriod: boolean) {
  const planted = inPeriod && siteId === 1;
  return {
    cancel: planted && seller === 'V03' ? 0.05 : 0.01,
    correct: planted && terminal === 2 ? 0.06 : 0.01,
    discount: planted && seller === 'V05' ? 0.15 : 0.02,
  };
}

interface Draw {
  random: () => number;
  nextId: () => number;
}

/** One SALE ticket (3 lines, maybe a voided line and a discount) and maybe (surely when `cancelled`) its cancellation. */
function drawTicket(
  draw: Draw,
  base: Omit<TestTicket, 'ticketId' | 'kind' | 'totalCents' | 'totalExclCents' | 'taxCents'>,
  inPeriod: boolean,
  cancelled = false,
): TestTicket[] {
  const { random } = draw;
  const r = rates(base.siteId, base.sellerCode!, base.terminalId!, inPeriod);
  const lines = [0, 1, 2].map(() => line(random() < r.correct));
  if (random() < r.discount) lines.push(DISCOUNT);
  const sum = (k: 'amountCents' | 'amountExclCents' | 'taxCents') => lines.reduce((a, l) => a + l[k], 0);
  const sale: TestTicket = {
    ...base,
    ticketId: draw.nextId(),
    kind: 'SALE',
    totalCents: sum('amountCents'),
    totalExclCents: sum('amountExclCents'),
    taxCents: sum('taxCents'),
    lines,
    payments: [{ method: 'CARD', amountCents: sum('amountCents') }],
  };
  if (!cancelled && random() >= r.cancel) return [sale];
  const cancellation: TestTicket = {
    ...sale,
    ticketId: draw.nextId(),
    kind: 'CANCELLATION',
    localMinute: base.localMinute + 1,
    totalCents: -sale.totalCents,
    totalExclCents: -sale.totalExclCents,
    taxCents: -sale.taxCents,
    lines: lines
      .filter((l) => !l.corrected)
      .map((l) => ({
        ...l,
        quantity: -1,
        amountCents: -l.amountCents,
        amountExclCents: -l.amountExclCents,
        taxCents: -l.taxCents,
      })),
    payments: [{ method: 'CARD', amountCents: -sale.totalCents }],
  };
  return [sale, cancellation];
}

/** Every ticket of the chain, 20 a day per seller (V06 of site 2: 2), spread over the terminals. */
function tickets(): TestTicket[] {
  const random = rng(19);
  let id = 1000;
  const draw: Draw = { random, nextId: () => id++ };
  const all: TestTicket[] = [];
  for (let day = 0; day < 84; day++) {
    const fiscalDate = addDays(HISTORY_DEBUT, day);
    const inPeriod = fiscalDate >= PERIOD.dateDebut;
    for (const siteId of [1, 2]) {
      for (const { code } of SELLERS) {
        const perDay = siteId === 2 && code === 'V06' ? 2 : 20;
        for (let k = 0; k < perDay; k++) {
          const base = {
            siteId,
            fiscalDate,
            localHour: 9 + (k % 12),
            localMinute: 2 * (k % 20),
            terminalId: (k % 3) + 1,
            sellerCode: code,
            trainingMode: false,
          };
          const lowVolumeDecoy = siteId === 2 && code === 'V06' && inPeriod && k === 0 && day % 5 === 0;
          all.push(
            ...(lowVolumeDecoy ? drawTicket(draw, base, false, true) : drawTicket(draw, base, inPeriod)),
          );
        }
      }
      // Training tickets cancelled by V01 of site 1: left out, or V01 would stand out.
      if (inPeriod && siteId === 1) {
        const training = {
          siteId,
          fiscalDate,
          localHour: 8,
          localMinute: 0,
          terminalId: 1,
          sellerCode: 'V01',
          trainingMode: true,
        };
        all.push(...drawTicket(draw, training, false, true), ...drawTicket(draw, training, false, true));
      }
    }
  }
  return all;
}

/** Cash counts of the 60 days up to the period's end, one per terminal and day. */
async function cashCounts(pool: Database['pool']): Promise<void> {
  const random = rng(7);
  const rows: [number, string, number, number, number][] = [];
  for (let day = 0; day < 60; day++) {
    const fiscalDate = addDays(PERIOD.dateFin, -day);
    for (const siteId of [1, 2]) {
      for (const terminal of [1, 2, 3]) {
        const short = siteId === 1 && terminal === 3 && fiscalDate >= PERIOD.dateDebut;
        const variance = Math.round((random() - 0.5) * 600) - (short ? 2500 : 0);
        if (siteId === 2 && terminal === 1 && fiscalDate >= PERIOD.dateDebut)
          rows.push([siteId, fiscalDate, terminal, 1, -9000]);
        rows.push([
          siteId,
          fiscalDate,
          terminal,
          siteId === 2 && terminal === 1 && fiscalDate >= PERIOD.dateDebut ? 2 : 1,
          variance,
        ]);
      }
    }
  }
  await pool.query(
    `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash_cents, expected_cash_cents,
                              expected_cheques_cents, expected_meal_vouchers_cents, expected_card_slips_cents,
                              counted_by, counted_by_login, counted_at)
     SELECT s, d, t, v, 50000 + var, 50000, 0, 0, 0, 1, 'fixture', d::timestamptz + interval '23 hours'
       FROM unnest($1::int[], $2::date[], $3::int[], $4::int[], $5::int[]) AS x(s, d, t, v, var)`,
    [
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      rows.map((r) => r[2]),
      rows.map((r) => r[3]),
      rows.map((r) => r[4]),
    ],
  );
}

/** Writes the chain (sites, terminals, sellers, tickets with their aggregates, cash counts). */
export async function loadAnomalyChain(database: Database): Promise<void> {
  await loadTestChain(database, {
    sites: [
      { id: 1, libelle: 'Paris Bastille', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
      { id: 2, libelle: 'Lyon Part-Dieu', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
    ],
    sellers: SELLERS,
    tickets: tickets(),
    refresh: { from: HISTORY_DEBUT, to: PERIOD.dateFin },
  });
  await cashCounts(database.pool);
  // As every load does (import/sales.ts, demo/generate.ts): the planner needs the statistics.
  await database.pool.query('ANALYZE tickets, ticket_lines, cash_counts');
}
