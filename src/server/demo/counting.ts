/**
 * The demo chain's counting history (issue #19 "All of it": "cash counts, safe counts and
 * manager receipts for past days, so every counting report and widget shows rows on a fresh
 * start"): for every site and each of the fiscal days before today that the generator counts
 * (generate.ts COUNTING_DAYS), the rows the counting domain (src/server/counting) would have
 * written when the managers used the app:
 * - a cash count per terminal that took money that day (cash_counts, version 1, sometimes a
 *   recount as version 2), its expected amounts being the terminal's payments of the day by
 *   method (counting/cash-counts.ts expectedAmounts: training tickets left out), the parts the
 *   default counting rules require counted (cash, cheques, meal vouchers; card slips not), with
 *   small variances — except the planted short terminal (anomalies.ts), short of 8 to 25 € at
 *   most counts;
 * - a safe count per site (safe_counts): opening = the previous count's content, deposits = the
 *   day's counted cash, withdrawals = the bank deposits (Mondays and Thursdays, or when the safe
 *   holds over 4,000 €), content counted in notes and coins; countersigned at closing by another
 *   manager holding COFFRE on the site (people.ts), as countersignatures.ts requires;
 * - one or two manager receipts (manager_receipts).
 * Planted for the home's widgets: yesterday's cash counts of {@link MISSING_CASH_COUNT_SITE} are
 * missing, and the safe counts of {@link AWAITING_COUNTERSIGNATURE} wait for a countersignature.
 * Amounts in cents; nothing here holds or prints a manager's code.
 */
import { tzOffset } from '@date-fns/tz';
import type pg from 'pg';
import { DENOMINATIONS_CENTS } from '../../contract/counting.ts';
import { CopyWriter, copyText, RowBuffer } from '../import/copy.ts';
import { PLANTED_ANOMALIES, PLANTED_WEEKS } from './anomalies.ts';
import { COMPANIES, type DemoSite, SITES } from './catalogue.ts';
import type { DemoPeople, DemoPerson } from './people.ts';
import { mix, Rng } from './random.ts';

const DAY_MS = 86_400_000;

/** The site (index in catalogue.ts SITES) whose cash counts of yesterday are missing: La Rochelle. */
export const MISSING_CASH_COUNT_SITE = 5;

/** Safe counts left waiting for a countersignature: Lyon Bellecour's of yesterday, Nantes's of the day before. */
export const AWAITING_COUNTERSIGNATURE: readonly { site: number; daysAgo: number }[] = [
  { site: 0, daysAgo: 1 },
  { site: 3, daysAgo: 2 },
];

/** A terminal's takings of the day by method, cents. */
interface Takings {
  cash: number;
  cheques: number;
  mealVouchers: number;
  cards: number;
}

/** What the counts of a site and fiscal date are made from. */
export interface CountingDay {
  siteIndex: number;
  siteId: number;
  /** Fiscal date, `YYYY-MM-DD`. */
  date: string;
  /** 1 for the fiscal date before the site's today. */
  daysAgo: number;
  /** Takings of each terminal that rang up a ticket that day, by terminal number ascending. */
  terminals: Map<number, Takings>;
}

/** The part of a generated ticket the counts read. */
interface CountedTicket {
  terminal: number;
  training: boolean;
  payments: readonly (readonly [string, number])[];
}

/**
 * The counting day of site `siteIndex` (database id `siteId`) on `date`, `daysAgo` days before
 * its today, from the day's tickets: the terminals' payments summed by method, as
 * counting/cash-counts.ts expectedAmounts sums them (training tickets left out).
 */
export function countingDay(
  siteIndex: number,
  siteId: number,
  date: string,
  daysAgo: number,
  tickets: readonly { ticket: CountedTicket }[],
): CountingDay {
  const terminals = new Map<number, Takings>();
  for (const { ticket } of tickets) {
    if (ticket.training) continue;
    let t = terminals.get(ticket.terminal);
    if (!t) {
      t = { cash: 0, cheques: 0, mealVouchers: 0, cards: 0 };
      terminals.set(ticket.terminal, t);
    }
    for (const [method, cents] of ticket.payments) {
      if (method === 'CASH') t.cash += cents;
      else if (method === 'CHEQUE') t.cheques += cents;
      else if (method === 'MEAL_VOUCHER') t.mealVouchers += cents;
      else if (method === 'CARD') t.cards += cents;
    }
  }
  const sorted = new Map([...terminals.entries()].sort((a, b) => a[0] - b[0]));
  return { siteIndex, siteId, date, daysAgo, terminals: sorted };
}

/** `cents` in notes and coins, largest first, as a counted cash drawer or safe (at most 50 € notes). */
function denominations(cents: number): { denominationCents: number; quantity: number }[] {
  const out: { denominationCents: number; quantity: number }[] = [];
  let left = Math.max(0, cents);
  for (const d of DENOMINATIONS_CENTS) {
    if (d > 5000) continue;
    const quantity = Math.floor(left / d);
    if (quantity > 0) out.push({ denominationCents: d, quantity });
    left -= quantity * d;
  }
  return out;
}

/** The instant of `minutes` after the wall-clock midnight of `date` in Europe/Paris, as ISO 8601. */
function parisInstant(date: string, minutes: number): string {
  const wall = Date.parse(date) + minutes * 60_000;
  const offset = tzOffset('Europe/Paris', new Date(wall - tzOffset('Europe/Paris', new Date(wall)) * 60_000));
  return new Date(wall - offset * 60_000).toISOString();
}

/** Minutes after midnight of the fiscal date at which a site's day's counting starts (after closing). */
function closingMinutes(site: DemoSite, date: string): number {
  if (COMPANIES[site.company]?.kind === 'bakery') return new Date(date).getUTCDay() === 0 ? 795 : 1180;
  return site.lateBar ? 1545 : 1425;
}

/** A small ordinary variance: none most of the time, else a few cents to a few euros either way. */
function smallVariance(rng: Rng, chance: number, max: number): number {
  if (!rng.chance(chance)) return 0;
  return (rng.chance(0.5) ? -1 : 1) * rng.int(1, max / 10) * 10;
}

/** The COPY rows of the three tables, built before they are sent one COPY after the other. */
interface CountingRows {
  cash: RowBuffer;
  safe: RowBuffer;
  receipts: RowBuffer;
}

/** What writing one site's day needs besides its rows: its generator, counter, clock and site. */
interface DayContext {
  rng: Rng;
  day: CountingDay;
  site: DemoSite;
  counter: DemoPerson;
  /** Minutes after the fiscal date's midnight when the counting starts. */
  closing: number;
  /** Instants are kept before this one (ms): the start of now's hour, like the tickets. */
  cutMs: number;
}

/**
 * An ISO instant `minutes` after the fiscal date's midnight, never after the cut (a count of
 * yesterday made late at night, when the demo is created just after midnight).
 */
function at(ctx: DayContext, minutes: number): string {
  const iso = parisInstant(ctx.day.date, minutes);
  return Date.parse(iso) < ctx.cutMs ? iso : new Date(ctx.cutMs - 60_000).toISOString();
}

/** The cash variance of a terminal's count: ordinary, or short (8 to 25 €) on the planted terminal. */
function cashVariance(ctx: DayContext, terminal: number): number {
  const short = PLANTED_ANOMALIES.find(
    (a) => a.siteId === ctx.day.siteIndex && a.measure === 'cashVariance' && Number(a.key) === terminal,
  );
  if (short && ctx.day.daysAgo <= PLANTED_WEEKS * 7 && ctx.rng.chance(0.8)) return -ctx.rng.int(80, 250) * 10;
  return smallVariance(ctx.rng, 0.3, 300);
}

/**
 * Queues the cash counts of the day's terminals (a recount as version 2 now and then) and
 * answers the cash they counted in all (cents), which goes to the safe.
 */
function cashCountRows(ctx: DayContext, rows: CountingRows): number {
  let counted = 0;
  let minutes = ctx.closing + ctx.rng.int(5, 15);
  for (const [terminal, expected] of ctx.day.terminals) {
    const variance = cashVariance(ctx, terminal);
    const cash = Math.max(0, expected.cash + variance);
    const vouchers = Math.max(0, expected.mealVouchers + smallVariance(ctx.rng, 0.05, 500));
    const versions = ctx.rng.chance(0.03) ? [cash + (ctx.rng.chance(0.5) ? 1000 : -1000), cash] : [cash];
    versions.forEach((v, i) => {
      const when = at(ctx, minutes + i * 6);
      const comment = i === 0 && versions.length > 1 ? 'Erreur de comptage, recompté' : '';
      rows.cash.push(
        [
          ctx.day.siteId,
          ctx.day.date,
          terminal,
          i + 1,
          copyText(JSON.stringify(denominations(Math.max(0, v)))),
          Math.max(0, v),
          expected.cheques,
          vouchers,
          '\\N',
          expected.cash,
          expected.cheques,
          expected.mealVouchers,
          expected.cards,
          copyText(variance < -500 && i === versions.length - 1 ? 'Écart de caisse constaté' : comment),
          ctx.counter.userId,
          copyText(ctx.counter.login),
          when,
          when,
        ].join('\t'),
      );
    });
    counted += cash;
    minutes += ctx.rng.int(4, 9);
  }
  return counted;
}

/** A site's safe between two days: the content counted last (cents). */
interface SafeState {
  contentCents: number;
}

/**
 * Queues the day's safe count (a recount as version 2 now and then): the drawers' cash goes in,
 * the bank deposit goes out, countersigned by `signer` (null: left waiting).
 */
function safeCountRows(
  ctx: DayContext,
  state: SafeState,
  deposits: number,
  signer: DemoPerson | null,
  rows: CountingRows,
): void {
  const opening = state.contentCents;
  const weekday = new Date(ctx.day.date).getUTCDay();
  const bankDay = weekday === 1 || weekday === 4 || opening + deposits > 400_000;
  const withdrawals = bankDay ? Math.max(0, Math.floor((opening + deposits - 30_000) / 1000) * 1000) : 0;
  const expected = opening + deposits - withdrawals;
  const counted = Math.max(0, expected + smallVariance(ctx.rng, 0.15, 1500));
  const versions = ctx.rng.chance(0.03) ? [counted + 2000, counted] : [counted];
  const minutes = ctx.closing + 45 + ctx.rng.int(0, 10);
  versions.forEach((v, i) => {
    const last = i === versions.length - 1;
    const when = at(ctx, minutes + i * 8);
    const signedAt = signer && last ? at(ctx, minutes + i * 8 + ctx.rng.int(5, 25)) : null;
    rows.safe.push(
      [
        ctx.day.siteId,
        ctx.day.date,
        i + 1,
        opening,
        deposits,
        withdrawals,
        copyText(JSON.stringify(denominations(v))),
        v,
        last ? '' : 'Recompté',
        ctx.counter.userId,
        copyText(ctx.counter.login),
        when,
        when,
        signedAt ? signer?.userId : '\\N',
        signedAt ? copyText(signer?.login) : '\\N',
        signedAt ? '' : '\\N',
        signedAt ?? '\\N',
      ].join('\t'),
    );
  });
  state.contentCents = counted;
}

const RECEIPT_REASONS = [
  'Remise des espèces de fin de service',
  'Fond de caisse restitué',
  'Pourboires collectés',
  'Remboursement d’une avance fournisseur',
];

/** Queues the day's one or two manager receipts: a seller hands money to the site's manager. */
function receiptRows(ctx: DayContext, rows: CountingRows): void {
  const n = 1 + ctx.rng.weighted([60, 40]);
  for (let r = 0; r < n; r++) {
    const k = ctx.rng.int(0, ctx.site.sellers.length - 1);
    const when = at(ctx, ctx.closing - ctx.rng.int(30, 240));
    const complements = {
      montantCents: ctx.rng.int(2, 40) * 500,
      motif: ctx.rng.pick(RECEIPT_REASONS),
      commentaire: '',
    };
    rows.receipts.push(
      [
        ctx.day.siteId,
        ctx.day.date,
        `V${String(k + 1).padStart(2, '0')}`,
        copyText(ctx.site.sellers[k]),
        copyText(ctx.site.manager.code),
        copyText(ctx.site.manager.name),
        copyText(JSON.stringify(complements)),
        ctx.counter.userId,
        copyText(ctx.counter.login),
        when,
        ctx.counter.userId,
        when,
      ].join('\t'),
    );
  }
}

/** How many rows {@link insertCountingHistory} wrote in each table. */
export interface CountingCounts {
  cashCounts: number;
  safeCounts: number;
  receipts: number;
}

/**
 * Writes the counting history of `days` (each site's days in ascending order) through `client`,
 * the demo's transaction: cash counts, safe counts and receipts by the site's counter, safe
 * counts countersigned by another manager (people.ts), instants kept before `cutMs` (the start of
 * now's hour, so any minute of the same hour gives the same rows). A site
 * nobody may count at gets no history. Each site and day draws from its own generator.
 * @throws the database's error.
 */
export async function insertCountingHistory(
  client: pg.ClientBase,
  seed: number,
  days: readonly CountingDay[],
  people: DemoPeople,
  cutMs: number,
): Promise<CountingCounts> {
  const rows: CountingRows = { cash: new RowBuffer(), safe: new RowBuffer(), receipts: new RowBuffer() };
  const safes = new Map<number, SafeState>();
  for (const day of days) {
    const site = SITES[day.siteIndex] as DemoSite;
    const counter = people.counter(day.siteIndex);
    if (!counter) continue;
    const rng = new Rng(mix(seed, day.siteIndex, Date.parse(day.date) / DAY_MS, 0xc0));
    const ctx: DayContext = { rng, day, site, counter, closing: closingMinutes(site, day.date), cutMs };
    let state = safes.get(day.siteIndex);
    if (!state) {
      state = { contentCents: 150_000 + day.siteIndex * 10_000 };
      safes.set(day.siteIndex, state);
    }
    const missing = day.siteIndex === MISSING_CASH_COUNT_SITE && day.daysAgo === 1;
    let deposits = 0;
    if (missing) for (const t of day.terminals.values()) deposits += Math.max(0, t.cash);
    else deposits = cashCountRows(ctx, rows);
    const waiting = AWAITING_COUNTERSIGNATURE.some(
      (a) => a.site === day.siteIndex && a.daysAgo === day.daysAgo,
    );
    safeCountRows(ctx, state, deposits, waiting ? null : people.countersigner(day.siteIndex, counter), rows);
    receiptRows(ctx, rows);
  }
  const copies: [string, RowBuffer][] = [
    [
      'cash_counts (site_id, fiscal_date, terminal_id, version, cash, cash_cents, cheques_cents, meal_vouchers_cents, card_slips_cents, expected_cash_cents, expected_cheques_cents, expected_meal_vouchers_cents, expected_card_slips_cents, comment, counted_by, counted_by_login, counted_at, received_at)',
      rows.cash,
    ],
    [
      'safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents, contents, counted_cents, comment, counted_by, counted_by_login, counted_at, received_at, countersigned_by, countersigned_name, countersign_comment, countersigned_at)',
      rows.safe,
    ],
    [
      'manager_receipts (site_id, fiscal_date, seller_code, seller_name, manager_code, manager_name, complements, created_by, created_by_login, created_at, updated_by, updated_at)',
      rows.receipts,
    ],
  ];
  for (const [target, buffer] of copies) {
    const copy = new CopyWriter(client, target);
    await copy.chunks(buffer.chunks());
    await copy.end();
  }
  return { cashCounts: rows.cash.rows, safeCounts: rows.safe.rows, receipts: rows.receipts.rows };
}
