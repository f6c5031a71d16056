/**
 * The FEC sales entries of a company and the file they make (issue #29, docs/decisions/0037):
 * one entry per site and fiscal date in journal VE — debit per payment method, credit sales
 * excl. VAT per rate, credit VAT collected per rate, and a rounding line on 658 / 758 when
 * payments and sales differ — from the figures of the finance reports (figures.ts, `daySite`
 * grain: the sums of the Z report), so each entry equals its day's Z to the cent.
 */
import iconv from 'iconv-lite';
import type { PaymentFigure, VatFigure } from '../reports/sales-analyses/figures.ts';
import { type AccountPlan, paymentKey, rateKey } from './account-plan.ts';
import { FEC_FIELDS } from './fec-checker.ts';

/** One line of an entry: amounts in cents, one of them zero. */
export interface FecLine {
  account: string;
  accountLabel: string;
  label: string;
  debit: number;
  credit: number;
}

/** One entry (écriture): a site's sales of one fiscal date. */
export interface FecEntry {
  /** `VE000001`… continuous over the file. */
  number: string;
  /** Fiscal date `YYYY-MM-DD`. */
  date: string;
  siteId: number;
  pieceRef: string;
  label: string;
  lines: FecLine[];
}

/** A site of the company, as the entries name it. */
export interface FecSite {
  id: number;
  libelle: string;
}

/** An account the plan lacks for a figure: the entries cannot be written. */
export class MissingAccountError extends Error {
  /** The plan key lacking (`SALES_0.07`, `PAYMENT_GIFT`). */
  readonly key: string;
  readonly siteId: number;
  /** Fiscal date `YYYY-MM-DD`. */
  readonly date: string;
  constructor(key: string, siteId: number, date: string) {
    super(`no account for ${key} (site ${siteId}, ${date})`);
    this.key = key;
    this.siteId = siteId;
    this.date = date;
  }
}

const JOURNAL = 'VE';
const JOURNAL_LABEL = 'Ventes';

/** `YYYY-MM-DD` → `AAAAMMJJ`. */
export function fecDate(isoDate: string): string {
  return isoDate.replaceAll('-', '');
}

/** Cents → FEC amount: decimal comma, two decimals, no thousands separator, unsigned. */
export function fecAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** A line for `amount` cents: on `side` when positive, on the other side when negative; none at 0. */
function lineFor(
  plan: AccountPlan,
  key: string,
  label: string,
  amount: number,
  side: 'debit' | 'credit',
  where: { siteId: number; date: string },
): FecLine | null {
  if (amount === 0) return null;
  const account = plan[key];
  if (!account) throw new MissingAccountError(key, where.siteId, where.date);
  const onSide = amount > 0 ? side : side === 'debit' ? 'credit' : 'debit';
  const abs = Math.abs(amount);
  return {
    account: account.account,
    accountLabel: account.label,
    label,
    debit: onSide === 'debit' ? abs : 0,
    credit: onSide === 'credit' ? abs : 0,
  };
}

const dayKey = (siteId: number | null, date: string | null) => `${date}|${siteId}`;

/** The amount (cents) of a site and fiscal date's tickets that have no payment recorded. */
export interface UnpaidFigure {
  siteId: number;
  /** Fiscal date `YYYY-MM-DD`. */
  fiscalDate: string;
  amount: number;
}

/**
 * The entries of the given figures (both at the `daySite` grain), by fiscal date then site id,
 * numbered from `VE000001`; `unpaid` (tickets without any payment) is debited on `PAYMENT_NONE`,
 * so the rounding line holds only the cents left. Throws {@link MissingAccountError} when the
 * plan has no account for a rate or method met.
 */
export function buildSalesEntries(
  vat: readonly VatFigure[],
  payments: readonly PaymentFigure[],
  sites: readonly FecSite[],
  plan: AccountPlan,
  unpaid: readonly UnpaidFigure[] = [],
): FecEntry[] {
  const days = new Map<string, { siteId: number; date: string; vat: VatFigure[]; pays: PaymentFigure[] }>();
  const dayOf = (f: { siteId: number | null; fiscalDate: string | null }) => {
    const key = dayKey(f.siteId, f.fiscalDate);
    let day = days.get(key);
    if (!day) {
      day = { siteId: f.siteId ?? 0, date: f.fiscalDate ?? '', vat: [], pays: [] };
      days.set(key, day);
    }
    return day;
  };
  for (const f of vat) dayOf(f).vat.push(f);
  for (const f of payments) dayOf(f).pays.push(f);
  const unpaidOf = new Map<string, number>();
  for (const u of unpaid) {
    if (u.amount === 0) continue;
    dayOf(u);
    unpaidOf.set(dayKey(u.siteId, u.fiscalDate), u.amount);
  }
  const ordered = [...days.values()].sort((a, b) =>
    a.date === b.date ? a.siteId - b.siteId : a.date < b.date ? -1 : 1,
  );
  const entries: FecEntry[] = [];
  for (const day of ordered) {
    const site = sites.find((s) => s.id === day.siteId)?.libelle ?? String(day.siteId);
    const label = `Ventes ${site} ${day.date.split('-').reverse().join('/')}`;
    const lines: FecLine[] = [];
    const push = (line: FecLine | null) => {
      if (line) lines.push(line);
    };
    for (const p of [...day.pays].sort((a, b) => (a.method < b.method ? -1 : 1))) {
      push(lineFor(plan, paymentKey(p.method), `${label} ${p.method}`, p.amount, 'debit', day));
    }
    const none = unpaidOf.get(dayKey(day.siteId, day.date)) ?? 0;
    push(lineFor(plan, paymentKey('NONE'), `${label} sans règlement`, none, 'debit', day));
    for (const v of day.vat) push(lineFor(plan, rateKey('SALES', v.rate), label, v.excl, 'credit', day));
    for (const v of day.vat) push(lineFor(plan, rateKey('VAT', v.rate), label, v.tax, 'credit', day));
    const gap = lines.reduce((sum, l) => sum + l.debit - l.credit, 0);
    if (gap > 0) push(lineFor(plan, 'ROUNDING_CREDIT', `${label} écart`, gap, 'credit', day));
    if (gap < 0) push(lineFor(plan, 'ROUNDING_DEBIT', `${label} écart`, -gap, 'debit', day));
    if (lines.length === 0) continue;
    entries.push({
      number: `${JOURNAL}${String(entries.length + 1).padStart(6, '0')}`,
      date: day.date,
      siteId: day.siteId,
      pieceRef: `Z-${day.siteId}-${fecDate(day.date)}`,
      label,
      lines,
    });
  }
  return entries;
}

/** A label made safe for the file: no tab, CR or LF (the separators). */
function clean(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/**
 * The FEC text of `entries`: the header line of the 18 fields, then one record per line, tab
 * separated, CR LF ends. `validDate` (`YYYY-MM-DD`) is written as every entry's ValidDate.
 */
export function fecText(entries: readonly FecEntry[], validDate: string): string {
  const records = [FEC_FIELDS.join('\t')];
  for (const entry of entries) {
    const date = fecDate(entry.date);
    for (const line of entry.lines) {
      records.push(
        [
          JOURNAL,
          JOURNAL_LABEL,
          entry.number,
          date,
          line.account,
          clean(line.accountLabel),
          '',
          '',
          entry.pieceRef,
          date,
          clean(line.label),
          fecAmount(line.debit),
          fecAmount(line.credit),
          '',
          '',
          fecDate(validDate),
          '',
          '',
        ].join('\t'),
      );
    }
  }
  return `${records.join('\r\n')}\r\n`;
}

/** The text encoded in ISO 8859-15, as article A47 A-1 III 1° allows (decision 0037). */
export function fecBytes(text: string): Buffer {
  return iconv.encode(text, 'ISO-8859-15');
}

/** `<SIREN>FEC<AAAAMMJJ>.txt` with the period's last date (`YYYY-MM-DD`). */
export function fecFileName(siren: string, closingDate: string): string {
  return `${siren}FEC${fecDate(closingDate)}.txt`;
}
