/**
 * Expected datasets of the sales analyses, computed in plain TypeScript from the chain's rows in
 * memory (chain.ts), with the rules written out again here rather than taken from the report
 * code: the tests compare the reports' SQL against these.
 */
import type { RawReportInput } from '../../../src/server/reports/request.ts';
import { localMinute } from '../../helpers/chain.ts';
import { SITES, type Ticket } from './chain.ts';

type Row = Record<string, string | number | null>;
export interface Expected {
  rows: Row[];
  totals: Row;
}

/** The tickets a request keeps, by the rules of SPEC.md §7 bo/getReport (as the sales report reads them). */
export function selectTickets(tickets: readonly Ticket[], req: RawReportInput): Ticket[] {
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return tickets.filter((t) => {
    if (!req.sites.includes(t.siteId)) return false;
    if (req.datefiscales.length > 0) {
      if (!req.datefiscales.includes(t.fiscalDate)) return false;
    } else if (t.fiscalDate < req.dateDebut! || t.fiscalDate > req.dateFin!) return false;
    if (t.trainingMode && !req.trainingMode) return false;
    if (req.tpv.length > 0 && (t.terminalId === null || !req.tpv.includes(t.terminalId))) return false;
    if (req.vendeurs.length > 0 && (t.sellerCode === null || !req.vendeurs.includes(t.sellerCode)))
      return false;
    if (req.trancheHoraire) {
      const from = toMinutes(req.heureDebut);
      const to = toMinutes(req.heureFin);
      const m = localMinute(t);
      if (from < to && !(m >= from && m < to)) return false;
      if (from > to && !(m >= from || m < to)) return false;
    }
    return true;
  });
}

const avg = (net: number, count: number) => (count === 0 ? 0 : Math.round(net / count));
const shareOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const sum = <T>(items: readonly T[], f: (x: T) => number) => items.reduce((a, x) => a + f(x), 0);
const sales = (ts: readonly Ticket[]) => ts.filter((t) => t.kind === 'SALE').length;
const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

function groupBy<T, K>(items: readonly T[], key: (x: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function ticketFigures(ts: readonly Ticket[], totalNet: number) {
  const net = sum(ts, (t) => t.totalCents);
  return {
    tickets: sales(ts),
    netSales: net,
    netSalesExclTax: sum(ts, (t) => t.totalExclCents),
    averageTicket: avg(net, sales(ts)),
    share: shareOf(net, totalNet),
  };
}

export function byHour(ts: readonly Ticket[]): Expected {
  const total = sum(ts, (t) => t.totalCents);
  const rows = Array.from({ length: 24 }, (_, h) => ({
    hour: `${hh(h)}–${hh(h + 1)}`,
    ...ticketFigures(
      ts.filter((t) => t.localHour === h),
      total,
    ),
  }));
  return { rows, totals: { hour: null, ...ticketFigures(ts, total) } };
}

/** SPEC.md §9's parts as the French document names them, with their local hours. */
export const FR_DAY_PARTS = [
  ['Matin', 6, 11],
  ['Déjeuner', 11, 15],
  ['Après-midi', 15, 18],
  ['Dîner', 18, 22],
  ['Soirée', 22, 24],
  ['Nuit', 2, 6],
  ['Pointe de nuit', 0, 2],
] as const;

export function byDayPart(ts: readonly Ticket[]): Expected {
  const total = sum(ts, (t) => t.totalCents);
  const rows = FR_DAY_PARTS.map(([label, from, to]) => ({
    dayPart: label,
    hours: `${hh(from)}–${hh(to)}`,
    ...ticketFigures(
      ts.filter((t) => t.localHour >= from && t.localHour < to),
      total,
    ),
  }));
  return { rows, totals: { dayPart: null, hours: null, ...ticketFigures(ts, total) } };
}

export function byFamily(ts: readonly Ticket[]): Expected {
  const lines = ts.flatMap((t) => t.lines);
  const total = sum(lines, (l) => l.amountCents);
  const rows = [...groupBy(lines, (l) => l.family)]
    .map(([family, ls]) => ({
      family: family ?? 'Non renseigné',
      quantity: sum(
        ls.filter((l) => !l.corrected),
        (l) => l.quantity,
      ),
      netSales: sum(ls, (l) => l.amountCents),
      netSalesExclTax: sum(ls, (l) => l.amountExclCents),
      tax: sum(ls, (l) => l.taxCents),
      share: shareOf(
        sum(ls, (l) => l.amountCents),
        total,
      ),
      isNull: family === null ? 1 : 0,
    }))
    .sort((a, b) => b.netSales - a.netSales || a.isNull - b.isNull || (a.family < b.family ? -1 : 1))
    .map(({ isNull: _, ...r }) => r);
  return {
    rows,
    totals: {
      family: null,
      quantity: sum(
        lines.filter((l) => !l.corrected),
        (l) => l.quantity,
      ),
      netSales: total,
      netSalesExclTax: sum(lines, (l) => l.amountExclCents),
      tax: sum(lines, (l) => l.taxCents),
      share: shareOf(total, total),
    },
  };
}

function byStaff(
  ts: readonly Ticket[],
  refKey: 'terminalId' | 'sellerCode',
  labelKey: 'terminal' | 'seller',
  label: (ref: number | string) => string | null,
): Expected {
  const total = sum(ts, (t) => t.totalCents);
  const groups = [...groupBy(ts, (t) => `${t.siteId}|${t[refKey] ?? ''}`).values()];
  const rows = groups
    .map((g): Row => {
      const t0 = g[0]!;
      const ref = t0[refKey];
      return {
        siteId: t0.siteId,
        site: SITES.find((s) => s.id === t0.siteId)!.libelle,
        [refKey]: ref,
        [labelKey]: (ref === null ? null : label(ref)) ?? 'Non renseigné',
        ...ticketFigures(g, total),
      };
    })
    .sort((a, b) => {
      if (a.siteId !== b.siteId) return Number(a.siteId) - Number(b.siteId);
      const x = a[refKey];
      const y = b[refKey];
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x as number | string) < (y as number | string) ? -1 : 1;
    });
  const { netSales, netSalesExclTax, tickets } = ticketFigures(ts, total);
  return {
    rows,
    totals: {
      siteId: null,
      site: null,
      [refKey]: null,
      [labelKey]: null,
      tickets,
      netSales,
      netSalesExclTax,
      averageTicket: avg(netSales, tickets),
      share: shareOf(total, total),
    },
  };
}

export const byTerminal = (ts: readonly Ticket[]) =>
  byStaff(ts, 'terminalId', 'terminal', (ref) => (Number(ref) <= 3 ? `Caisse ${ref}` : null));

const SELLER_NAMES: Record<string, string> = {
  S1: 'Vendeur 1',
  S2: 'Vendeur 2',
  'Dupont, Marie': 'Vendeur 3',
};
export const bySeller = (ts: readonly Ticket[]) =>
  byStaff(ts, 'sellerCode', 'seller', (ref) => SELLER_NAMES[String(ref)] ?? null);

const FR_METHODS: Record<string, string> = {
  CASH: 'Espèces',
  CARD: 'Carte bancaire',
  MEAL_VOUCHER: 'Titre-restaurant',
  CHEQUE: 'Chèque',
  OTHER: 'Autre',
};

export function byPayment(ts: readonly Ticket[]): Expected {
  const payments = ts.flatMap((t) => t.payments);
  const total = sum(payments, (p) => p.amountCents);
  const order = Object.keys(FR_METHODS);
  const rows = [...groupBy(payments, (p) => p.method)]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([method, ps]) => ({
      paymentMethod: FR_METHODS[method]!,
      payments: ps.length,
      amount: sum(ps, (p) => p.amountCents),
      share: shareOf(
        sum(ps, (p) => p.amountCents),
        total,
      ),
    }));
  return {
    rows,
    totals: { paymentMethod: null, payments: payments.length, amount: total, share: shareOf(total, total) },
  };
}

export function byVat(ts: readonly Ticket[]): Expected {
  const lines = ts.flatMap((t) => t.lines);
  const total = sum(lines, (l) => l.amountCents);
  const rows = [...groupBy(lines, (l) => l.vatRate)]
    .sort(([a], [b]) => a - b)
    .map(([rate, ls]) => ({
      vatRate: rate,
      netSalesExclTax: sum(ls, (l) => l.amountExclCents),
      tax: sum(ls, (l) => l.taxCents),
      netSales: sum(ls, (l) => l.amountCents),
      share: shareOf(
        sum(ls, (l) => l.amountCents),
        total,
      ),
    }));
  return {
    rows,
    totals: {
      vatRate: null,
      netSalesExclTax: sum(lines, (l) => l.amountExclCents),
      tax: sum(lines, (l) => l.taxCents),
      netSales: total,
      share: shareOf(total, total),
    },
  };
}

function coverFigures(ts: readonly Ticket[]) {
  const covers = sum(ts, (t) => t.covers ?? 0);
  const covered = sum(
    ts.filter((t) => t.covers !== null),
    (t) => t.totalCents,
  );
  const net = sum(ts, (t) => t.totalCents);
  return {
    tickets: sales(ts),
    covers,
    netSales: net,
    averageTicket: avg(net, sales(ts)),
    coveredSales: covered,
    averagePerCover: covers <= 0 ? 0 : Math.round(covered / covers),
  };
}

const byDateAndSite = (a: Row, b: Row) =>
  a.fiscalDate === b.fiscalDate
    ? Number(a.siteId) - Number(b.siteId)
    : String(a.fiscalDate) < String(b.fiscalDate)
      ? -1
      : 1;

export function byCovers(ts: readonly Ticket[]): Expected {
  const rows = [...groupBy(ts, (t) => `${t.fiscalDate}|${t.siteId}`).values()]
    .map((g) => ({
      fiscalDate: g[0]!.fiscalDate,
      siteId: g[0]!.siteId,
      site: SITES.find((s) => s.id === g[0]!.siteId)!.libelle,
      ...coverFigures(g),
    }))
    .sort(byDateAndSite);
  return { rows, totals: { fiscalDate: null, siteId: null, site: null, ...coverFigures(ts) } };
}

/** Wire date `days` days before `date`, by UTC calendar arithmetic. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The comparison of `current` (the request's tickets) with `previous` (the same request's
 * tickets 52 weeks earlier), one row per date and site present on either side.
 */
export function byComparison(current: readonly Ticket[], previous: readonly Ticket[]): Expected {
  const keyed = new Map<string, { fiscalDate: string; siteId: number; cur: Ticket[]; prev: Ticket[] }>();
  const slot = (fiscalDate: string, siteId: number) => {
    const k = `${fiscalDate}|${siteId}`;
    let e = keyed.get(k);
    if (!e) {
      e = { fiscalDate, siteId, cur: [], prev: [] };
      keyed.set(k, e);
    }
    return e;
  };
  for (const t of current) slot(t.fiscalDate, t.siteId).cur.push(t);
  // 2025-11-02 is compared on 2026-11-01: the same weekday, 364 days later.
  const later = (d: string) => daysBefore(d, -364);
  for (const t of previous) slot(later(t.fiscalDate), t.siteId).prev.push(t);
  const figures = (cur: readonly Ticket[], prev: readonly Ticket[]) => {
    const net = sum(cur, (t) => t.totalCents);
    const previousNet = sum(prev, (t) => t.totalCents);
    return {
      tickets: sales(cur),
      previousTickets: sales(prev),
      netSales: net,
      previousNetSales: previousNet,
      variance: net - previousNet,
      variancePercent: previousNet === 0 ? null : (net - previousNet) / previousNet,
    };
  };
  const rows = [...keyed.values()]
    .map((e) => ({
      fiscalDate: e.fiscalDate,
      previousFiscalDate: daysBefore(e.fiscalDate, 364),
      siteId: e.siteId,
      site: SITES.find((s) => s.id === e.siteId)!.libelle,
      ...figures(e.cur, e.prev),
    }))
    .sort(byDateAndSite);
  return {
    rows,
    totals: {
      fiscalDate: null,
      previousFiscalDate: null,
      siteId: null,
      site: null,
      ...figures(current, previous),
    },
  };
}

/**
 * The Cumulative comparison: the Daily comparison's rows added up per date over every site,
 * then running totals from the first date.
 */
export function byCumulativeComparison(daily: Expected): Expected {
  const days = new Map<string, { previousFiscalDate: string; net: number; previousNet: number }>();
  for (const r of daily.rows) {
    const d = days.get(String(r.fiscalDate)) ?? {
      previousFiscalDate: String(r.previousFiscalDate),
      net: 0,
      previousNet: 0,
    };
    d.net += r.netSales as number;
    d.previousNet += r.previousNetSales as number;
    days.set(String(r.fiscalDate), d);
  }
  let net = 0;
  let previousNet = 0;
  const pct = () => (previousNet === 0 ? null : (net - previousNet) / previousNet);
  const rows = [...days]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([fiscalDate, d]) => {
      net += d.net;
      previousNet += d.previousNet;
      return {
        fiscalDate,
        previousFiscalDate: d.previousFiscalDate,
        netSales: d.net,
        previousNetSales: d.previousNet,
        cumulativeNetSales: net,
        cumulativePreviousNetSales: previousNet,
        variance: net - previousNet,
        variancePercent: pct(),
      };
    });
  return {
    rows,
    totals: {
      fiscalDate: null,
      previousFiscalDate: null,
      netSales: net,
      previousNetSales: previousNet,
      cumulativeNetSales: net,
      cumulativePreviousNetSales: previousNet,
      variance: net - previousNet,
      variancePercent: pct(),
    },
  };
}
