/**
 * The demo chain (issue #2 §2): what `npm start` loads into an empty database so the app shows
 * something true to life on first use — 2 companies, 6 sites in Europe/Paris, groups, terminals,
 * sellers, 13 months of tickets up to the current hour (about a million ticket lines), and four
 * users besides the administrator who show the rights model (catalogue.ts DEMO_USERS, users.ts).
 * Issue #19 adds: local events whose impact is in the sales of their sites and days (events.ts),
 * anomalies planted over the last 4 weeks (anomalies.ts: a seller who cancels, a terminal that
 * voids lines, a seller who gives discounts, a terminal short of cash), and 91 days of cash
 * counts, safe counts and manager receipts made by the users who may (counting.ts, people.ts).
 * Issue #28 adds three report e-mail subscriptions of the area manager and the accountant
 * (subscriptions.ts), one of them daily at a near quarter hour.
 *
 * Guarantees:
 * - Deterministic: the data of a site and fiscal date comes from a generator seeded with
 *   (seed, site, date) alone, so the same seed and the same hour of `now` give the same rows
 *   (ticket ids come from `ticket_id_seq`, hence equal only on equally fresh databases).
 * - Consistent: line amounts are `quantity × unit price` in cents, `amountExcl =
 *   round(amount / (1 + vat))` half away from zero, tax = amount − excl; ticket totals are sums of
 *   lines; payments sum to the ticket total; corrected (voided) lines carry zero amounts; a
 *   cancellation mirrors a sale of the same day with negative lines and payments; fiscal dates
 *   follow the site's time zone and day start.
 * - Bulk: every table is filled with COPY in one transaction that also refreshes `daily_sales`.
 *   On empty tables (first start) the transaction truncates them, drops their indexes, loads
 *   with COPY … FREEZE and rebuilds the indexes once at the end; PostgreSQL ingests a site's
 *   rows while the next site is generated.
 *
 * Shapes of the days: lunch and dinner peaks for brasseries (a late bar until 01:30 on the site
 * whose day starts at 05:00), morning, lunch and after-school peaks for bakeries, busier
 * weekends, summer peaks for tourist towns and a quieter August in cities, closed on 25 Dec and
 * 1 Jan (and Mondays for one bakery).
 */
import { tzOffset } from '@date-fns/tz';
import type pg from 'pg';
import { BREAKDOWN_TABLES, refreshDailySales } from '../db/aggregates.ts';
import { type DataLoad, recordDataLoad } from '../db/data-loads.ts';
import { CopyWriter, copyText, RowBuffer } from '../import/copy.ts';
import { roundDivInt } from '../import/decimal.ts';
import {
  type Article,
  BAKERY,
  BRASSERIE,
  COMPANIES,
  type DemoSite,
  type Family,
  GROUPS,
  SITES,
  type SiteKind,
} from './catalogue.ts';
import { dayRates, type DayRates, PLANTED_WEEKS } from './anomalies.ts';
import { type CountingDay, countingDay, insertCountingHistory } from './counting.ts';
import { type DatedDemoEvent, demoEvents, eventFactor, insertDemoEvents, parisDay } from './events.ts';
import { demoPeople } from './people.ts';
import { mix, Rng } from './random.ts';
import { createDemoSubscriptions } from './subscriptions.ts';
import { createDemoFecPlans } from './fec-plans.ts';
import { createDemoFecRecurrences } from './fec-recurrences.ts';
import { createDemoIntegration } from './integrations.ts';
import { createDemoUsers, type DemoUser } from './users.ts';

export interface DemoOptions {
  /** Same seed (and same hour of `now`) → same data. */
  seed: number;
  /** Tickets are generated up to the start of this instant's hour (default: the current time). */
  now?: Date;
  /** Number of fiscal days ending today (default: the 13 months up to today). Tests use fewer. */
  days?: number;
  /**
   * Multiplies the tickets of every site and day (default 1, the chain as described above):
   * benchmarks use 10 to get ~10 M lines over the same sites and dates.
   */
  ticketsScale?: number;
  log?: (message: string) => void;
}

export interface DemoResult {
  sites: number;
  tickets: number;
  lines: number;
  /** The demo users created now with their generated passwords (users.ts): print them once. */
  users: DemoUser[];
}

const TIME_ZONE = 'Europe/Paris';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What every site's days depend on besides the seed: today's day number (Europe/Paris) and the dated events. */
interface ChainPlan {
  today: number;
  events: readonly DatedDemoEvent[];
}

/** A part of the day: minutes from the fiscal date's midnight, weight, and the kind of ticket. */
interface DayPart {
  from: number;
  to: number;
  peak: number;
  weight: number;
  kind:
    | 'coffee'
    | 'lunch'
    | 'afternoon'
    | 'dinner'
    | 'drinks'
    | 'morning'
    | 'bakeryLunch'
    | 'bakeryAfternoon';
}

function dayParts(kind: SiteKind, site: DemoSite, weekday: number): DayPart[] {
  if (kind === 'bakery') {
    if (weekday === 0) {
      return [
        { from: 420, to: 690, peak: 570, weight: 0.8, kind: 'morning' },
        { from: 690, to: 780, peak: 720, weight: 0.2, kind: 'bakeryLunch' },
      ];
    }
    return [
      { from: 390, to: 690, peak: 480, weight: 0.45, kind: 'morning' },
      { from: 690, to: 840, peak: 750, weight: weekday === 6 ? 0.2 : 0.3, kind: 'bakeryLunch' },
      { from: 900, to: 1170, peak: 1050, weight: 0.25, kind: 'bakeryAfternoon' },
    ];
  }
  const weekend = weekday === 0 || weekday === 6;
  const parts: DayPart[] = [
    { from: 480, to: 690, peak: 540, weight: weekend ? 0.09 : 0.15, kind: 'coffee' },
    { from: 705, to: 870, peak: 765, weight: weekday === 0 ? 0.55 : 0.45, kind: 'lunch' },
    { from: 870, to: 1110, peak: 1000, weight: 0.08, kind: 'afternoon' },
    {
      from: 1140,
      to: 1350,
      peak: 1245,
      weight: weekday === 0 ? 0.16 : weekday === 6 ? 0.42 : weekday === 1 ? 0.26 : 0.33,
      kind: 'dinner',
    },
    { from: 1350, to: 1410, peak: 1360, weight: 0.02, kind: 'drinks' },
  ];
  if (site.lateBar) {
    const busy = weekday >= 4 || weekday === 6;
    parts.push({ from: 1410, to: 1530, peak: 1430, weight: busy ? 0.08 : 0.025, kind: 'drinks' });
  }
  return parts;
}

const WEEKDAY_FACTOR: Record<SiteKind, number[]> = {
  //          Sun   Mon   Tue   Wed   Thu   Fri   Sat
  brasserie: [0.85, 0.8, 0.85, 0.92, 1.0, 1.2, 1.3],
  bakery: [1.3, 0.85, 0.9, 0.95, 0.95, 1.05, 1.25],
};
//                     Jan   Feb   Mar   Apr  May   Jun   Jul   Aug  Sep  Oct  Nov   Dec
const CITY_SEASON = [0.85, 0.88, 0.95, 1.0, 1.02, 1.05, 0.95, 0.8, 1.0, 1.0, 0.97, 1.12];
const TOURIST_SEASON = [0.7, 0.75, 0.85, 0.95, 1.05, 1.2, 1.45, 1.5, 1.1, 0.9, 0.75, 0.95];

interface Line {
  family: Family;
  article: Article;
  quantity: number;
  /** Unit price actually charged (0 for an employee meal), cents. */
  unitPrice: number;
  corrected: boolean;
  /** A discount line (anomalies.ts): no family, its article "Remise …", quantity 1, a negative unit price. */
  discount?: true;
}

interface Ticket {
  minute: number;
  terminal: number;
  seller: string;
  kind: 'SALE' | 'RETURN' | 'CANCELLATION';
  employeeMeal: boolean;
  training: boolean;
  covers: number | null;
  lines: Line[];
  payments: [string, number][];
  /** For a CANCELLATION: the sale it cancels (same day, same terminal, a few minutes earlier). */
  cancels?: Ticket;
}

/** Ticket contents: adds `quantity` of `article` to `lines`, merging with an earlier line of it. */
function add(lines: Line[], family: Family, article: Article, quantity = 1): void {
  const same = lines.find((l) => l.article === article && !l.corrected);
  if (same) same.quantity += quantity;
  else lines.push({ family, article, quantity, unitPrice: article.price, corrected: false });
}

function addFrom(rng: Rng, lines: Line[], family: Family, quantity = 1): void {
  add(lines, family, rng.pick(family.articles), quantity);
}

function brasserieTicket(
  rng: Rng,
  part: DayPart['kind'],
  weekday: number,
): { lines: Line[]; covers: number | null } {
  const b = BRASSERIE;
  const lines: Line[] = [];
  if (part === 'coffee' || part === 'afternoon' || part === 'drinks') {
    const people = rng.weighted([55, 30, 10, 5]) + 1;
    for (let p = 0; p < people; p++) {
      if (part === 'drinks') addFrom(rng, lines, rng.chance(0.85) ? b.alcohol : b.softs);
      else if (part === 'coffee') {
        addFrom(rng, lines, b.hot);
        if (rng.chance(0.1)) addFrom(rng, lines, b.softs);
      } else {
        addFrom(rng, lines, rng.chance(0.5) ? b.softs : rng.chance(0.5) ? b.hot : b.alcohol);
        if (rng.chance(0.2)) addFrom(rng, lines, b.desserts);
      }
    }
    return { lines, covers: null };
  }
  const lunch = part === 'lunch';
  const covers = rng.weighted(lunch ? [38, 40, 11, 7, 2, 2] : [14, 52, 13, 15, 3, 3]) + 1;
  const weekdayLunch = lunch && weekday >= 1 && weekday <= 5;
  for (let c = 0; c < covers; c++) {
    if (weekdayLunch && rng.chance(0.35)) {
      addFrom(rng, lines, b.menus);
    } else {
      if (rng.chance(lunch ? 0.15 : 0.3)) addFrom(rng, lines, b.starters);
      addFrom(rng, lines, b.mains);
      if (rng.chance(lunch ? 0.2 : 0.3)) addFrom(rng, lines, b.desserts);
    }
    if (rng.chance(lunch ? 0.42 : 0.5))
      addFrom(rng, lines, rng.chance(lunch ? 0.6 : 0.3) ? b.softs : b.alcohol);
    if (rng.chance(lunch ? 0.35 : 0.2)) addFrom(rng, lines, b.hot);
  }
  if (!lunch && covers >= 2 && rng.chance(0.25))
    add(lines, b.alcohol, rng.pick([b.alcohol.articles[1], b.alcohol.articles[2]]) as Article);
  return { lines, covers };
}

function bakeryTicket(rng: Rng, part: DayPart['kind']): Line[] {
  const k = BAKERY;
  const lines: Line[] = [];
  if (part === 'morning') {
    if (rng.chance(0.72)) addFrom(rng, lines, k.breads, rng.weighted([70, 22, 8]) + 1);
    if (rng.chance(0.5) || lines.length === 0)
      addFrom(rng, lines, k.viennoiseries, rng.weighted([40, 30, 10, 15, 5]) + 1);
    if (rng.chance(0.1)) addFrom(rng, lines, k.hot);
  } else if (part === 'bakeryLunch') {
    if (rng.chance(0.85)) addFrom(rng, lines, k.snacks, rng.weighted([80, 20]) + 1);
    if (rng.chance(0.45)) addFrom(rng, lines, k.colds);
    if (rng.chance(0.25)) addFrom(rng, lines, k.pastries);
    if (rng.chance(0.22) || lines.length === 0) addFrom(rng, lines, k.breads);
  } else {
    if (rng.chance(0.7)) addFrom(rng, lines, k.breads, rng.weighted([75, 20, 5]) + 1);
    if (rng.chance(0.38) || lines.length === 0)
      addFrom(rng, lines, k.pastries, rng.weighted([50, 20, 10, 20]) + 1);
    if (rng.chance(0.12)) addFrom(rng, lines, k.viennoiseries, rng.int(1, 4));
  }
  return lines;
}

function lineAmount(line: Line): number {
  return line.corrected ? 0 : line.quantity * line.unitPrice;
}

function ticketTotal(t: Ticket): number {
  let total = 0;
  for (const l of t.lines) total += lineAmount(l);
  return total;
}

const VOUCHERS = [900, 1000, 1100, 1200, 1300, 1500, 1800];

function payments(
  rng: Rng,
  kind: SiteKind,
  part: DayPart['kind'],
  weekday: number,
  total: number,
  covers: number | null,
): [string, number][] {
  if (total === 0) return [];
  if (kind === 'brasserie' && covers !== null && covers >= 2 && rng.chance(0.08)) {
    const parts = Math.min(covers, rng.int(2, 4));
    const share = Math.floor(total / parts);
    const result: [string, number][] = [];
    for (let i = 0; i < parts; i++)
      result.push([rng.chance(0.85) ? 'CARD' : 'CASH', i === 0 ? total - share * (parts - 1) : share]);
    return result;
  }
  const lunch = part === 'lunch' || part === 'bakeryLunch';
  if (lunch && weekday >= 1 && weekday <= 5 && rng.chance(kind === 'brasserie' ? 0.22 : 0.15)) {
    const voucher = Math.min(total, rng.pick(VOUCHERS) * (total > 2500 && rng.chance(0.4) ? 2 : 1));
    if (voucher === total) return [['MEAL_VOUCHER', total]];
    return [
      ['MEAL_VOUCHER', voucher],
      [rng.chance(0.8) ? 'CARD' : 'CASH', total - voucher],
    ];
  }
  const cashShare = kind === 'bakery' ? (total < 500 ? 0.5 : 0.28) : part === 'coffee' ? 0.4 : 0.18;
  if (kind === 'brasserie' && rng.chance(0.01)) return [['CHEQUE', total]];
  return [[rng.chance(cashShare) ? 'CASH' : 'CARD', total]];
}

/** Calendar helpers on day numbers (days since 1970-01-01, UTC-based calendar arithmetic). */
function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** Wall-clock time (ms, as if UTC) in Europe/Paris → instant (ms), with the offset cached per hour. */
function wallToInstant(cache: Map<number, number>, wallMs: number): number {
  const key = Math.floor(wallMs / HOUR_MS);
  let offset = cache.get(key);
  if (offset === undefined) {
    const first = tzOffset(TIME_ZONE, new Date(wallMs));
    offset = tzOffset(TIME_ZONE, new Date(wallMs - first * 60_000));
    cache.set(key, offset);
  }
  return wallMs - offset * 60_000;
}

interface SiteDay {
  date: string;
  tickets: { ticket: Ticket; instant: number }[];
  losses: {
    type: 'CUSTOM' | 'LOSS' | 'REMADE' | 'DEGRADED';
    family: Family;
    article: Article;
    quantity: number;
  }[];
}

/** A ticket's place in the day: its minute and the part of the day (lunch, dinner…) it falls in. */
interface Slot {
  minute: number;
  part: DayPart['kind'];
}

/** Draws a seller code (`V01`…) for a ticket at a minute of the day. */
type SellerPicker = (minute: number) => string;

/**
 * How many tickets the site has on a day: its base count × the weekday's and the month's factors
 * × a little noise (at least 20).
 */
function ticketCountOf(
  rng: Rng,
  site: DemoSite,
  kind: SiteKind,
  weekday: number,
  month: number,
  scale: number,
): number {
  const season = (site.tourist ? TOURIST_SEASON : CITY_SEASON)[month] ?? 1;
  const noise = 1 + (rng.float() + rng.float() + rng.float() - 1.5) * 0.16;
  return Math.max(
    20,
    Math.round(site.baseTickets * scale * (WEEKDAY_FACTOR[kind][weekday] ?? 1) * season * noise),
  );
}

/**
 * The day's ticket slots: `count` minutes drawn from the day's parts (each part by its weight,
 * then a minute peaking at the part's peak), in the order drawn.
 */
function daySlots(rng: Rng, parts: readonly DayPart[], count: number): Slot[] {
  const weights = parts.map((p) => p.weight);
  const slots: Slot[] = [];
  for (let i = 0; i < count; i++) {
    const p = parts[rng.weighted(weights)] as DayPart;
    slots.push({ minute: Math.floor(rng.triangular(p.from, p.to, p.peak)), part: p.kind });
  }
  return slots;
}

/** The seller of a ticket at `minute`: one of the morning team before 16:00, of the evening team after. */
function sellerPicker(rng: Rng, site: DemoSite): SellerPicker {
  const halfSellers = Math.max(1, Math.floor(site.sellers.length / 2));
  return (minute) => {
    const team = minute < 960 ? site.sellers.slice(0, halfSellers) : site.sellers.slice(halfSellers);
    const i = site.sellers.indexOf(rng.pick(team.length > 0 ? team : site.sellers));
    return `V${String(i + 1).padStart(2, '0')}`;
  };
}

/** The training ticket rung up before the first opening of a month, paid in cash. */
function trainingTicket(rng: Rng, kind: SiteKind, firstMinute: number, pickSeller: SellerPicker): Ticket {
  const lines: Line[] = [];
  addFrom(rng, lines, kind === 'brasserie' ? BRASSERIE.hot : BAKERY.breads);
  const t: Ticket = {
    minute: Math.max(0, firstMinute - 20),
    terminal: 1,
    seller: pickSeller(firstMinute),
    kind: 'SALE',
    employeeMeal: false,
    training: true,
    covers: null,
    lines,
    payments: [],
  };
  t.payments = [['CASH', ticketTotal(t)]];
  return t;
}

/** `n` employee meals before the lunch rush, five minutes apart from 11:15. */
function employeeMealTickets(rng: Rng, n: number, kind: SiteKind, pickSeller: SellerPicker): Ticket[] {
  const tickets: Ticket[] = [];
  for (let e = 0; e < n; e++) {
    const lines: Line[] = [];
    if (kind === 'brasserie') {
      add(lines, BRASSERIE.mains, BRASSERIE.mains.articles[0] as Article);
      addFrom(rng, lines, BRASSERIE.softs);
    } else {
      add(lines, BAKERY.snacks, BAKERY.snacks.articles[4] as Article);
    }
    for (const l of lines) l.unitPrice = 0; // staff meals are offered: rung up at no charge
    tickets.push({
      minute: 675 + e * 5,
      terminal: 1,
      seller: pickSeller(675),
      kind: 'SALE',
      employeeMeal: true,
      training: false,
      covers: kind === 'brasserie' ? 1 : null,
      lines,
      payments: [],
    });
  }
  return tickets;
}

/** What a slot's ticket depends on besides the generator: the site, its kind, the weekday, the seller draw. */
interface SlotContext {
  site: DemoSite;
  kind: SiteKind;
  weekday: number;
  pickSeller: SellerPicker;
  /** The day's chances of cancellations, voided lines and discounts (anomalies.ts). */
  rates: DayRates;
}

/** Reasons of a discount, as a POS names the line. */
const DISCOUNTS: readonly [string, number][] = [
  ['Remise fidélité 10 %', 10],
  ['Remise commerciale 15 %', 15],
  ['Remise personnel 20 %', 20],
];

/**
 * A discount on the dearest line of `lines` (not voided): a line of its VAT rate with no family,
 * quantity 1 and the negative amount as unit price (cents), as POS exports write one.
 */
function discountLine(rng: Rng, lines: readonly Line[]): Line {
  let dearest = lines[0] as Line;
  for (const l of lines) if (!l.corrected && lineAmount(l) > lineAmount(dearest)) dearest = l;
  const [name, percent] = rng.pick(DISCOUNTS);
  const cents = -Math.max(10, Math.round((lineAmount(dearest) * percent) / 100));
  return {
    family: dearest.family,
    article: { name, price: cents },
    quantity: 1,
    unitPrice: cents,
    corrected: false,
    discount: true,
  };
}

/**
 * The ticket of a slot, sometimes with a voided line or a discount (at the day's rates, anomalies.ts);
 * followed, rarely, by its cancellation a few minutes later on the same terminal, or (bakeries) by
 * a pastry returned the next minute.
 */
function slotTickets(rng: Rng, slot: Slot, ctx: SlotContext): Ticket[] {
  const { site, kind, weekday } = ctx;
  let lines: Line[];
  let covers: number | null = null;
  if (kind === 'brasserie') ({ lines, covers } = brasserieTicket(rng, slot.part, weekday));
  else lines = bakeryTicket(rng, slot.part);
  const terminal = rng.chance(0.5) ? 1 : rng.int(1, site.terminals);
  const seller = ctx.pickSeller(slot.minute);
  if (rng.chance(ctx.rates.correction(terminal))) {
    // A correction: an article rung up by mistake, then voided on the same ticket.
    const family = (lines[rng.int(0, lines.length - 1)] as Line).family;
    const article = rng.pick(family.articles);
    lines.push({ family, article, quantity: 1, unitPrice: article.price, corrected: true });
  }
  if (rng.chance(ctx.rates.discount(seller))) lines.push(discountLine(rng, lines));
  const t: Ticket = {
    minute: slot.minute,
    terminal,
    seller,
    kind: 'SALE',
    employeeMeal: false,
    training: false,
    covers,
    lines,
    payments: [],
  };
  t.payments = payments(rng, kind, slot.part, weekday, ticketTotal(t), covers);
  if (rng.chance(ctx.rates.cancellation(seller))) {
    // A cancellation: the whole ticket cancelled a few minutes later on the same terminal.
    const cancellation: Ticket = {
      ...t,
      minute: Math.min(slot.minute + rng.int(1, 8), 24 * 60 + minutesOf(site.dayStart) - 1),
      kind: 'CANCELLATION',
      cancels: t,
      // Mirrored like the amounts, so covers of a day net out a cancelled table.
      covers: t.covers === null ? null : -t.covers,
      lines: t.lines.filter((l) => !l.corrected).map((l) => ({ ...l, quantity: -l.quantity })),
      payments: t.payments.map(([m, a]) => [m, -a]),
    };
    return [t, cancellation];
  }
  if (kind === 'bakery' && rng.chance(0.001)) {
    const article = rng.pick(BAKERY.pastries.articles);
    const returned: Ticket = {
      minute: slot.minute + 1,
      terminal: t.terminal,
      seller: t.seller,
      kind: 'RETURN',
      employeeMeal: false,
      training: false,
      covers: null,
      lines: [{ family: BAKERY.pastries, article, quantity: -1, unitPrice: article.price, corrected: false }],
      payments: [['CASH', -article.price]],
    };
    return [t, returned];
  }
  return [t];
}

/** A bakery's losses declared at closing: unsold bread and viennoiseries, sometimes a damaged or custom item. */
function bakeryLosses(rng: Rng): SiteDay['losses'] {
  const losses: SiteDay['losses'] = [];
  const n = rng.int(2, 5);
  for (let i = 0; i < n; i++) {
    const family = rng.chance(0.6) ? BAKERY.breads : BAKERY.viennoiseries;
    losses.push({ type: 'LOSS', family, article: rng.pick(family.articles), quantity: rng.int(1, 8) });
  }
  if (rng.chance(0.12))
    losses.push({
      type: 'DEGRADED',
      family: BAKERY.pastries,
      article: rng.pick(BAKERY.pastries.articles),
      quantity: 1,
    });
  if (rng.chance(0.05))
    losses.push({
      type: 'CUSTOM',
      family: BAKERY.viennoiseries,
      article: rng.pick(BAKERY.viennoiseries.articles),
      quantity: rng.int(1, 3),
    });
  return losses;
}

/** A brasserie's losses declared at closing: remade mains, sometimes a damaged dessert, offered drinks or lost desserts. */
function brasserieLosses(rng: Rng): SiteDay['losses'] {
  const losses: SiteDay['losses'] = [];
  const remade = rng.weighted([50, 35, 15]);
  for (let i = 0; i < remade; i++)
    losses.push({
      type: 'REMADE',
      family: BRASSERIE.mains,
      article: rng.pick(BRASSERIE.mains.articles),
      quantity: 1,
    });
  if (rng.chance(0.15))
    losses.push({
      type: 'DEGRADED',
      family: BRASSERIE.desserts,
      article: rng.pick(BRASSERIE.desserts.articles),
      quantity: 1,
    });
  if (rng.chance(0.2))
    losses.push({
      type: 'CUSTOM',
      family: BRASSERIE.alcohol,
      article: rng.pick(BRASSERIE.alcohol.articles),
      quantity: rng.int(1, 2),
    });
  if (rng.chance(0.1))
    losses.push({
      type: 'LOSS',
      family: BRASSERIE.desserts,
      article: rng.pick(BRASSERIE.desserts.articles),
      quantity: rng.int(1, 4),
    });
  return losses;
}

/** Everything a site sells on one fiscal date, from its own generator (null on a closed day). */
function generateDay(
  seed: number,
  siteIndex: number,
  day: number,
  cutMs: number,
  offsets: Map<number, number>,
  plan: ChainPlan,
  scale = 1,
): SiteDay | null {
  const site = SITES[siteIndex] as DemoSite;
  const kind = (COMPANIES[site.company] ?? COMPANIES[0])?.kind ?? 'brasserie';
  const date = new Date(day * DAY_MS);
  const weekday = date.getUTCDay();
  const month = date.getUTCMonth();
  const dom = date.getUTCDate();
  if ((month === 11 && dom === 25) || (month === 0 && dom === 1) || site.closedWeekdays.includes(weekday))
    return null;
  // Every draw of the day comes from this generator, in a fixed order: the same seed, site and
  // day give the same tickets and losses.
  const rng = new Rng(mix(seed, siteIndex, day));
  // A local event moves the day's volume by its impact rate (events.ts).
  const count = Math.max(
    1,
    Math.round(
      ticketCountOf(rng, site, kind, weekday, month, scale) * eventFactor(plan.events, siteIndex, day),
    ),
  );
  const slots = daySlots(rng, dayParts(kind, site, weekday), count);
  // Employee meals before the lunch rush, training tickets at the first opening of a month.
  const employeeMeals = kind === 'brasserie' ? rng.int(1, 3) : rng.int(0, 1);
  const pickSeller = sellerPicker(rng, site);
  const tickets: Ticket[] = [];
  slots.sort((a, b) => a.minute - b.minute);
  if (dom === 1) tickets.push(trainingTicket(rng, kind, slots[0]?.minute ?? 480, pickSeller));
  tickets.push(...employeeMealTickets(rng, employeeMeals, kind, pickSeller));
  const planted = day > plan.today - PLANTED_WEEKS * 7;
  const rates = dayRates(siteIndex, kind, site.terminals, planted);
  const ctx: SlotContext = { site, kind, weekday, pickSeller, rates };
  for (const slot of slots) tickets.push(...slotTickets(rng, slot, ctx));
  tickets.sort((a, b) => a.minute - b.minute);
  const dayWall = day * DAY_MS;
  const placed: SiteDay['tickets'] = [];
  for (const ticket of tickets) {
    const instant = wallToInstant(offsets, dayWall + ticket.minute * 60_000);
    if (instant < cutMs) placed.push({ ticket, instant });
  }
  // Losses are declared at closing: none yet for a day still in progress.
  const closing = wallToInstant(offsets, dayWall + (24 * 60 + minutesOf(site.dayStart)) * 60_000);
  const losses = closing > cutMs ? [] : kind === 'bakery' ? bakeryLosses(rng) : brasserieLosses(rng);
  return { date: dayText(day), tickets: placed, losses };
}

const ARTICLE_CODES = new Map<Article, string>();
for (const [brand, menu] of [
  ['B', BRASSERIE],
  ['F', BAKERY],
] as const) {
  for (const [key, fam] of Object.entries(menu)) {
    fam.articles.forEach((a, i) => {
      ARTICLE_CODES.set(a, `${brand}${key.slice(0, 3).toUpperCase()}${String(i + 1).padStart(2, '0')}`);
    });
  }
}

/** The fiscal day number of `instant` for a site of the demo (Europe/Paris, day start `dayStart`). */
function fiscalDay(instant: number, dayStart: string): number {
  const wall = instant + tzOffset(TIME_ZONE, new Date(instant)) * 60_000;
  return Math.floor((wall - minutesOf(dayStart) * 60_000) / DAY_MS);
}

/** Fiscal day numbers generated for a site: the 13 months (or `days` days) up to today's date. */
function span(nowMs: number, dayStart: string, days?: number): { firstDay: number; lastDay: number } {
  const lastDay = fiscalDay(nowMs, dayStart);
  if (days !== undefined) return { firstDay: lastDay - Math.max(1, Math.floor(days)) + 1, lastDay };
  const last = new Date(lastDay * DAY_MS);
  return {
    firstDay:
      Math.floor(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 13, last.getUTCDate()) / DAY_MS) + 1,
    lastDay,
  };
}

/**
 * The fiscal dates the demo covers for a site with day start `dayStart` (Europe/Paris), as
 * `YYYY-MM-DD`: by default the 13 months up to the fiscal date of `now`.
 */
export function demoFiscalDates(now: Date, dayStart: string, days?: number): { from: string; to: string } {
  const { firstDay, lastDay } = span(now.getTime(), dayStart, days);
  return { from: dayText(firstDay), to: dayText(lastDay) };
}

/** Writes companies, sites, groups, terminals and sellers; answers the ids of companies and sites, in catalogue order. */
async function insertReference(client: pg.ClientBase): Promise<{ companyIds: number[]; siteIds: number[] }> {
  const companyIds: number[] = [];
  for (const c of COMPANIES) {
    const { rows } = await client.query<{ id: number }>(
      'INSERT INTO companies (raison_sociale, enseigne, siret, code_licence) VALUES ($1, $2, $3, $4) RETURNING id',
      [c.raisonSociale, c.enseigne, c.siret, c.codeLicence],
    );
    companyIds.push((rows[0] as { id: number }).id);
  }
  const { rows: siteRows } = await client.query<{ id: number }>(
    `INSERT INTO sites (libelle, company_id, code_implant, time_zone, day_start, currency)
     SELECT a, b, c, d, e, f
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS s(a, b, c, d, e, f, n)
      ORDER BY n RETURNING id`,
    [
      SITES.map((s) => s.libelle),
      SITES.map((s) => companyIds[s.company]),
      SITES.map((s) => s.codeImplant),
      SITES.map(() => TIME_ZONE),
      SITES.map((s) => s.dayStart),
      SITES.map(() => 'EUR'),
    ],
  );
  const siteIds = siteRows.map((r) => r.id);
  for (const g of GROUPS) {
    const { rows } = await client.query<{ id: number }>(
      'INSERT INTO groups (raison_sociale) VALUES ($1) RETURNING id',
      [g.name],
    );
    await client.query('INSERT INTO group_sites (group_id, site_id) SELECT $1, unnest($2::int[])', [
      rows[0]?.id,
      g.sites.map((i) => siteIds[i]),
    ]);
  }
  const terminals: [number, number, string][] = [];
  const sellers: [number, string, string][] = [];
  SITES.forEach((s, i) => {
    const id = siteIds[i] as number;
    for (let t = 1; t <= s.terminals; t++) terminals.push([id, t, `Caisse ${t}`]);
    s.sellers.forEach((name, k) => {
      sellers.push([id, `V${String(k + 1).padStart(2, '0')}`, name]);
    });
  });
  await client.query(
    'INSERT INTO terminals (site_id, terminal_id, libelle) SELECT * FROM unnest($1::int[], $2::int[], $3::text[])',
    [terminals.map((t) => t[0]), terminals.map((t) => t[1]), terminals.map((t) => t[2])],
  );
  await client.query(
    'INSERT INTO sellers (site_id, code, nom) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])',
    [sellers.map((t) => t[0]), sellers.map((t) => t[1]), sellers.map((t) => t[2])],
  );
  return { companyIds, siteIds };
}

/**
 * On an empty table, drops its primary key, unique constraints and indexes and returns the
 * statements that recreate them exactly as the migrations made them (read back from the
 * catalogue): building an index once after a bulk load costs less than maintaining it row by
 * row during the COPY. A table that holds rows keeps its indexes (returns []).
 */
async function dropIndexesWhileEmpty(client: pg.ClientBase, table: string): Promise<string[]> {
  const {
    rows: [probe],
  } = await client.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`);
  if (!probe?.empty) return [];
  const { rows: constraints } = await client.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype IN ('p', 'u') ORDER BY conname`,
    [table],
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.oid)
      ORDER BY i.relname`,
    [table],
  );
  // Emptied in this transaction, the table accepts COPY … FREEZE: rows are written frozen, so
  // the first report does not rewrite every page to set hint bits, and with wal_level=minimal
  // the load skips the WAL altogether.
  await client.query(`TRUNCATE ${table}`);
  const recreate: string[] = [];
  for (const c of constraints) {
    await client.query(`ALTER TABLE ${table} DROP CONSTRAINT "${c.name}"`);
    recreate.push(`ALTER TABLE ${table} ADD CONSTRAINT "${c.name}" ${c.def}`);
  }
  for (const i of indexes) {
    await client.query(`DROP INDEX "${i.name}"`);
    recreate.push(i.def);
  }
  return recreate;
}

async function reserveIds(
  client: pg.ClientBase,
  sequence: 'ticket_id_seq' | 'loss_id_seq',
  n: number,
): Promise<number[]> {
  if (n === 0) return [];
  const { rows } = await client.query<{ ids: string[] }>(
    `SELECT array_agg(nextval('${sequence}')::text ORDER BY g) AS ids FROM generate_series(1, $1) AS g`,
    [n],
  );
  return (rows[0]?.ids ?? []).map(Number);
}

/** A site's generated days, and how many tickets and losses they hold in all. */
interface SiteDays {
  days: SiteDay[];
  tickets: number;
  losses: number;
}

/** Generates the days of site number `s` from `firstDay` to `lastDay` (day numbers), closed days left out. */
async function generateSiteDays(
  options: DemoOptions,
  s: number,
  firstDay: number,
  lastDay: number,
  clock: Clock,
): Promise<SiteDays> {
  const { cutMs, offsets, plan } = clock;
  const out: SiteDays = { days: [], tickets: 0, losses: 0 };
  for (let d = firstDay; d <= lastDay; d++) {
    // Let the event loop send the previous site's rows, queued on the socket, meanwhile.
    if ((d - firstDay) % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
    const generated = generateDay(options.seed, s, d, cutMs, offsets, plan, options.ticketsScale);
    if (!generated) continue;
    out.days.push(generated);
    out.tickets += generated.tickets.length;
    out.losses += generated.losses.length;
  }
  return out;
}

/** The COPY rows of a site's tickets' lines and payments, kept until the tickets' COPY is sent. */
interface TicketChildren {
  lines: RowBuffer;
  payments: RowBuffer;
}

/**
 * Writes the site's tickets into `ticketCopy` (flushing as it asks), with ids taken in order from
 * `ticketIds`, and their lines and payments into `children`. Amounts in cents; excl. VAT per
 * line, rounded half away from zero.
 */
async function writeTickets(
  ticketCopy: CopyWriter,
  site: DemoSite,
  siteId: number,
  days: readonly SiteDay[],
  ticketIds: readonly number[],
  children: TicketChildren,
): Promise<void> {
  let k = 0;
  for (const day of days) {
    // A cancellation comes after its sale on the same day: the sale's id is known by then.
    const idOf = new Map<Ticket, number>();
    for (const { ticket: t, instant } of day.tickets) {
      const id = ticketIds[k] as number;
      k++;
      idOf.set(t, id);
      const cancels = t.cancels === undefined ? undefined : idOf.get(t.cancels);
      let total = 0;
      let excl = 0;
      let lineNo = 0;
      for (const l of t.lines) {
        const amount = lineAmount(l);
        const lineExcl = roundDivInt(amount * 1000, 1000 + l.family.vatMille);
        total += amount;
        excl += lineExcl;
        lineNo++;
        children.lines.push(
          `${siteId}\t${id}\t${lineNo}\t${ARTICLE_CODES.get(l.article) ?? 'REMISE'}\t${copyText(l.article.name)}\t${l.discount ? '\\N' : copyText(l.family.name)}\t${l.quantity}\t${l.unitPrice}\t${amount}\t${l.family.vat}\t${lineExcl}\t${amount - lineExcl}\t${l.corrected ? 't' : 'f'}`,
        );
      }
      t.payments.forEach(([method, amount], i) => {
        children.payments.push(`${siteId}\t${id}\t${i + 1}\t${method}\t${amount}`);
      });
      const due = ticketCopy.push(
        `${siteId}\t${id}\t${day.date}\t${new Date(instant).toISOString()}\t${t.terminal}\t${t.seller}\t${t.kind}\t${t.employeeMeal ? 't' : 'f'}\t${t.training ? 't' : 'f'}\t${t.covers ?? '\\N'}\t${total}\t${excl}\t${total - excl}\tdemo\t${site.codeImplant}-${day.date.replaceAll('-', '')}-${String(k).padStart(6, '0')}\t${cancels ?? '\\N'}`,
      );
      if (due) await ticketCopy.flush();
    }
  }
}

/** The COPY rows of a site's losses, with ids taken in order from `lossIds`; amounts in cents. */
function lossRows(siteId: number, days: readonly SiteDay[], lossIds: readonly number[]): RowBuffer {
  const rows = new RowBuffer();
  let li = 0;
  for (const day of days) {
    for (const loss of day.losses) {
      rows.push(
        `${siteId}\t${lossIds[li]}\t${day.date}\t${loss.type}\t${copyText(loss.article.name)}\t${copyText(loss.family.name)}\t${loss.quantity}\t${loss.quantity * loss.article.price}`,
      );
      li++;
    }
  }
  return rows;
}

/** What the chain's transaction does once every site is generated. */
interface ChainEnd {
  /** Index and constraint statements to run again (tables emptied for the load). */
  recreate: string[];
  /** Sites and fiscal date ranges whose `daily_sales` to refresh. */
  refreshes: [number, string, string][];
  loads: DataLoad[];
  /** The days to write counts for (counting.ts). */
  counting: CountingDay[];
}

/** The instants the generator works with: now, the cut (start of now's hour), the offset cache, and the plan. */
interface Clock {
  nowMs: number;
  cutMs: number;
  offsets: Map<number, number>;
  plan: ChainPlan;
}

/** How many fiscal days before today get cash counts, safe counts and receipts. */
const COUNTING_DAYS = 91;

/** What generating and loading one site added to the chain. */
interface SiteLoad {
  /** The site's COPY chain, ending when PostgreSQL has ingested its rows. */
  loading: Promise<unknown>;
  tickets: number;
  lines: number;
}

/**
 * Generates site number `s` and starts loading it: its ticket rows are sent now, its lines,
 * payments and losses queued after them on the connection once `previous` (the last site's load)
 * is done, so PostgreSQL ingests them while the next site is generated. Records the site's
 * refresh and load in `end`.
 */
async function loadSite(
  client: pg.ClientBase,
  options: DemoOptions,
  s: number,
  siteId: number,
  previous: Promise<unknown>,
  clock: Clock,
  emptied: ReadonlySet<string>,
  end: ChainEnd,
): Promise<SiteLoad> {
  const site = SITES[s] as DemoSite;
  const { firstDay, lastDay } = span(clock.nowMs, site.dayStart, options.days);
  const { days, tickets, losses } = await generateSiteDays(options, s, firstDay, lastDay, clock);
  for (const day of days) {
    const n = Date.parse(day.date) / DAY_MS;
    // The counts of the closed days before today (today's are not done yet).
    if (n >= lastDay - COUNTING_DAYS && n < lastDay)
      end.counting.push(countingDay(s, siteId, day.date, lastDay - n, day.tickets));
  }
  await previous;
  const ticketIds = await reserveIds(client, 'ticket_id_seq', tickets);
  const lossIds = await reserveIds(client, 'loss_id_seq', losses);
  const ticketCopy = new CopyWriter(
    client,
    'tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal, training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref, cancels_ticket_id)',
    { freeze: emptied.has('tickets') },
  );
  const children: TicketChildren = { lines: new RowBuffer(), payments: new RowBuffer() };
  await writeTickets(ticketCopy, site, siteId, days, ticketIds, children);
  // PostgreSQL ingests this site's rows, one COPY after the other on the connection, while
  // the loop goes on generating the next site; the chain is awaited before the next query.
  const copies: [string, RowBuffer, boolean][] = [
    [
      'ticket_lines (site_id, ticket_id, line_no, article_code, article, family, quantity, unit_price_cents, amount_cents, vat_rate, amount_excl_cents, tax_cents, corrected)',
      children.lines,
      emptied.has('ticket_lines'),
    ],
    [
      'payments (site_id, ticket_id, payment_no, method, amount_cents)',
      children.payments,
      emptied.has('payments'),
    ],
    [
      'losses (site_id, loss_id, fiscal_date, type, article, family, quantity, amount_cents)',
      lossRows(siteId, days, lossIds),
      false,
    ],
  ];
  const loading = copies.reduce<Promise<unknown>>(
    (before, [target, rows, freeze]) =>
      before.then(() => {
        const copy = new CopyWriter(client, target, { freeze });
        copy.enqueue(rows.chunks());
        return copy.end();
      }),
    ticketCopy.end(),
  );
  loading.catch(() => {}); // awaited, and so rethrown, before the next query
  const first = days[0];
  const last = days[days.length - 1];
  if (first && last) end.refreshes.push([siteId, first.date, last.date]);
  end.loads.push({
    siteId,
    source: 'demo',
    firstFiscalDate: first ? first.date : null,
    lastFiscalDate: last ? last.date : null,
    tickets,
  });
  return { loading, tickets, lines: children.lines.rows };
}

/**
 * Ends the chain's load: rebuilds the indexes dropped for it, refreshes `daily_sales` and
 * records each site's load.
 */
async function finishChain(
  client: pg.PoolClient,
  end: ChainEnd,
  log: (message: string) => void,
): Promise<void> {
  if (end.recreate.length > 0) log(`Demo chain: building ${end.recreate.length} indexes…`);
  for (const statement of end.recreate) await client.query(statement);
  for (const [siteId, from, to] of end.refreshes) await refreshDailySales(client, siteId, from, to);
  for (const load of end.loads) await recordDataLoad(client, load);
}

/**
 * Analyses the tables the reports read, right after the chain's transaction commits.
 * Statistics now rather than at autovacuum's leisure: reports run right after the first start,
 * and without them the planner misjudges the small reference tables' sizes and sorts on disk
 * (seen on the year-long VAT and finance reports). Outside the transaction because Citus refuses
 * a distributed ANALYZE in a transaction that already executed statements locally on the
 * coordinator's placements (decision 0046); the statistics are those of the same rows.
 */
async function analyseChain(client: pg.PoolClient): Promise<void> {
  // One table a statement: Citus analyses a distributed table's shards in parallel and then
  // refuses, in the same statement, a reference table that distributed tables refer to.
  for (const table of ANALYSED_TABLES) await client.query(`ANALYZE ${table}`);
}

/** The tables {@link analyseChain} analyses: those the reports read. */
const ANALYSED_TABLES = [
  'tickets',
  'ticket_lines',
  'payments',
  'daily_sales',
  ...BREAKDOWN_TABLES,
  'losses',
  'sites',
  'terminals',
  'sellers',
  'companies',
];

/**
 * Creates the demo chain in one transaction (see the module comment) and refreshes `daily_sales`.
 * Expects a database without the demo's companies and sites (`npm start` calls it when the
 * tickets table is empty).
 * @returns how many sites, tickets and ticket lines were written, and the demo users created with their passwords.
 * @throws the database's error (unique violation when the chain already exists); nothing is written then
 *   — except when the `ANALYZE` that follows the commit fails: the chain is written, without statistics.
 */
export async function generateDemoChain(pool: pg.Pool, options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const nowMs = (options.now ?? new Date()).getTime();
  const now = new Date(nowMs);
  const events = demoEvents(now);
  const clock: Clock = {
    nowMs,
    cutMs: Math.floor(nowMs / HOUR_MS) * HOUR_MS,
    offsets: new Map<number, number>(),
    plan: { today: parisDay(now), events },
  };
  const client = await pool.connect();
  let failed = false;
  let ticketCount = 0;
  let lineCount = 0;
  let users: DemoUser[] = [];
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL synchronous_commit = off');
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    const { companyIds, siteIds } = await insertReference(client);
    users = await createDemoUsers(client, siteIds, companyIds);
    const subscriptions = await createDemoSubscriptions(client, now);
    log(`Demo chain: ${subscriptions} report e-mail subscriptions (/config/recurrences)`);
    const fecPlans = await createDemoFecPlans(client, companyIds);
    log(`Demo chain: ${fecPlans} FEC account plans (/fec)`);
    const fecRecurrences = await createDemoFecRecurrences(client, now);
    log(`Demo chain: ${fecRecurrences} FEC recurrence (/fec/recurrencesfec)`);
    const integrations = await createDemoIntegration(client, siteIds);
    log(`Demo chain: ${integrations} partner integration into DATA_DIR/exports/ecash/ (/config/ecash)`);
    const people = await demoPeople(client, siteIds);
    await insertDemoEvents(client, events, siteIds, options.seed, now, (e) => people.eventAuthor(e.sites));
    const end: ChainEnd = { recreate: [], refreshes: [], loads: [], counting: [] };
    const emptied = new Set<string>();
    for (const table of ['tickets', 'ticket_lines', 'payments']) {
      const statements = await dropIndexesWhileEmpty(client, table);
      if (statements.length > 0) emptied.add(table);
      end.recreate.push(...statements);
    }
    let loading: Promise<unknown> = Promise.resolve();
    for (let s = 0; s < SITES.length; s++) {
      const siteId = siteIds[s] as number;
      const site = await loadSite(client, options, s, siteId, loading, clock, emptied, end);
      loading = site.loading;
      ticketCount += site.tickets;
      lineCount += site.lines;
      log(
        `Demo chain: ${(SITES[s] as DemoSite).libelle}: ${site.tickets} tickets, ${site.lines} lines (${s + 1}/${SITES.length}, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    await loading;
    const counted = await insertCountingHistory(client, options.seed, end.counting, people, clock.cutMs);
    log(
      `Demo chain: ${events.length} local events, ${counted.cashCounts} cash counts, ${counted.safeCounts} safe counts, ${counted.receipts} manager receipts`,
    );
    await finishChain(client, end, log);
    await client.query('COMMIT');
    await analyseChain(client);
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    client.release(failed ? true : undefined);
  }
  log(
    `Demo chain created: ${SITES.length} sites, ${ticketCount} tickets, ${lineCount} lines in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  return { sites: SITES.length, tickets: ticketCount, lines: lineCount, users };
}
