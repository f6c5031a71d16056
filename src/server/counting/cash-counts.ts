/**
 * Cash counts (SPEC.md §7 bo/comptage/*; /analyses/comptageCaisses): what a terminal should hold
 * from the day's payments, and the counts themselves. A count is never overwritten: each save is
 * the next version of (site, fiscal date, terminal), numbered under a transaction-scoped advisory
 * lock so two concurrent saves get versions n and n+1, never the same. The expected amounts are
 * copied into the count when it is saved, so its variance stays what the manager saw. Amounts
 * are in cents.
 */
import type { z } from 'zod';
import {
  type CashCount,
  type CashCountBodySchema,
  denominationsTotalCents,
  type MethodAmounts,
} from '../../contract/counting.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { iso } from './instants.ts';
import { requiredCounts, rulesOf } from './rules.ts';

/** Payment methods of `payments.method` counted at a terminal, and the answer field of each. */
const METHOD_FIELDS = {
  CASH: 'cashCents',
  CHEQUE: 'chequesCents',
  MEAL_VOUCHER: 'mealVouchersCents',
  CARD: 'cardSlipsCents',
} as const satisfies Record<string, keyof MethodAmounts>;

/**
 * What terminal `terminal` of `site` should hold for `fiscalDate`: the sum of the payments of
 * its tickets by method, in cents (training-mode tickets left out; OTHER payments ignored).
 */
export async function expectedAmounts(
  db: Queryable,
  site: number,
  fiscalDate: string,
  terminal: number,
): Promise<MethodAmounts> {
  const { rows } = await db.query<{ method: string; cents: number }>(
    `SELECT p.method, sum(p.amount_cents)::bigint AS cents
       FROM tickets t JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
      WHERE t.site_id = $1 AND t.fiscal_date = $2 AND t.terminal_id = $3 AND NOT t.training_mode
      GROUP BY p.method`,
    [site, fiscalDate, terminal],
  );
  const out: MethodAmounts = { cashCents: 0, chequesCents: 0, mealVouchersCents: 0, cardSlipsCents: 0 };
  for (const r of rows) {
    const field = METHOD_FIELDS[r.method as keyof typeof METHOD_FIELDS];
    if (field) out[field] = Number(r.cents);
  }
  return out;
}

/** A row of `cash_counts`. */
interface CashCountRow {
  site_id: number;
  id: number;
  fiscal_date: string;
  terminal_id: number;
  version: number;
  cash: { denominationCents: number; quantity: number }[] | null;
  cash_cents: number | null;
  cheques_cents: number | null;
  meal_vouchers_cents: number | null;
  card_slips_cents: number | null;
  expected_cash_cents: number;
  expected_cheques_cents: number;
  expected_meal_vouchers_cents: number;
  expected_card_slips_cents: number;
  comment: string;
  counted_by: number;
  counted_by_login: string;
  counted_at: Date;
  received_at: Date;
}

const diff = (counted: number | null, expected: number) => (counted === null ? null : counted - expected);

/** A stored row as the API answers it (variance = counted − expected, null where not counted). */
function toCashCount(r: CashCountRow): CashCount {
  const expected: MethodAmounts = {
    cashCents: r.expected_cash_cents,
    chequesCents: r.expected_cheques_cents,
    mealVouchersCents: r.expected_meal_vouchers_cents,
    cardSlipsCents: r.expected_card_slips_cents,
  };
  return {
    id: r.id,
    site: r.site_id,
    dateFiscale: r.fiscal_date,
    caisse: r.terminal_id,
    version: r.version,
    cash: r.cash,
    cashCents: r.cash_cents,
    chequesCents: r.cheques_cents,
    mealVouchersCents: r.meal_vouchers_cents,
    cardSlipsCents: r.card_slips_cents,
    comment: r.comment,
    expected,
    variance: {
      cashCents: diff(r.cash_cents, expected.cashCents),
      chequesCents: diff(r.cheques_cents, expected.chequesCents),
      mealVouchersCents: diff(r.meal_vouchers_cents, expected.mealVouchersCents),
      cardSlipsCents: diff(r.card_slips_cents, expected.cardSlipsCents),
    },
    countedBy: { userId: r.counted_by, login: r.counted_by_login },
    countedAt: iso(r.counted_at),
    receivedAt: iso(r.received_at),
  };
}

/** Which cash counts to read: sites and fiscal dates (both ends included), optionally narrowed. */
export interface CashCountFilter {
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  /** Only these fiscal dates (inside the range); null or absent for every date of the range. */
  fiscalDates?: readonly string[] | null;
  /** Only these terminals; empty or absent for every terminal. */
  terminals?: readonly number[];
  /** Only the latest version of each (fiscal date, site, terminal). */
  latestOnly?: boolean;
}

/**
 * Cash counts matching `filter`, ordered by fiscal date, site, terminal, then version
 * descending. Read by bo/comptage/list (every version) and the cash counting report (latest).
 */
export async function cashCounts(db: Queryable, filter: CashCountFilter): Promise<CashCount[]> {
  const { rows } = await db.query<CashCountRow>(
    `SELECT ${filter.latestOnly ? 'DISTINCT ON (fiscal_date, site_id, terminal_id)' : ''} * FROM cash_counts
      WHERE site_id = ANY($1::int[]) AND fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR fiscal_date = ANY($4::date[]))
        AND (cardinality($5::int[]) = 0 OR terminal_id = ANY($5::int[]))
      ORDER BY fiscal_date, site_id, terminal_id, version DESC`,
    [filter.siteIds, filter.dateDebut, filter.dateFin, filter.fiscalDates ?? null, filter.terminals ?? []],
  );
  return rows.map(toCashCount);
}

/**
 * Checks that `terminal` is one of the site's terminals (the list bo/getCaisses answers).
 * @throws DomainError invalid `UnknownTerminal` with `details.caisse` otherwise (src/contract/counting.ts).
 */
export async function requireTerminal(db: Queryable, site: number, terminal: number): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM terminals WHERE site_id = $1 AND terminal_id = $2', [
    site,
    terminal,
  ]);
  if (rows.length === 0) {
    throw new DomainError(
      'invalid',
      'UnknownTerminal',
      `terminal ${terminal} is not a terminal of site ${site}`,
      {
        caisse: terminal,
      },
    );
  }
}

/** A cash count as saved (bo/comptage/save's body, parsed). */
export type NewCashCount = z.output<typeof CashCountBodySchema>;

/** Who saves a count: the signed-in user. */
export interface Counter {
  userId: number;
  login: string;
}

/**
 * Checks the parts the site's rules require were counted.
 * @throws DomainError invalid `MissingCount` with `details.missing` (e.g. `['cheques']`).
 */
async function requireRequiredParts(db: Queryable, count: NewCashCount): Promise<void> {
  const required = requiredCounts(await rulesOf(db, [count.site]));
  const missing = [
    required.cash && count.cash === null ? 'cash' : null,
    required.cheques && count.chequesCents === null ? 'cheques' : null,
    required.mealVouchers && count.mealVouchersCents === null ? 'mealVouchers' : null,
    required.cardSlips && count.cardSlipsCents === null ? 'cardSlips' : null,
  ].filter((m) => m !== null);
  if (missing.length > 0) {
    throw new DomainError('invalid', 'MissingCount', `the site's rules require: ${missing.join(', ')}`, {
      missing,
    });
  }
}

/**
 * Saves `count` as the next version of (site, fiscal date, terminal), with the expected amounts
 * of that moment; `db` must be a transaction (the version lock is held until it ends).
 * Denominations are stored largest first; `countedAt` defaults to now.
 * @throws DomainError invalid `UnknownTerminal` (see {@link requireTerminal}), invalid
 *   `MissingCount` (see {@link requireRequiredParts}).
 */
export async function saveCashCount(
  db: Queryable,
  count: NewCashCount,
  counter: Counter,
): Promise<CashCount> {
  await requireTerminal(db, count.site, count.caisse);
  await requireRequiredParts(db, count);
  const expected = await expectedAmounts(db, count.site, count.dateFiscale, count.caisse);
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
    `cash_count:${count.site}:${count.dateFiscale}:${count.caisse}`,
  ]);
  const cash =
    count.cash === null ? null : [...count.cash].sort((a, b) => b.denominationCents - a.denominationCents);
  const { rows } = await db.query<CashCountRow>(
    `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash, cash_cents, cheques_cents,
       meal_vouchers_cents, card_slips_cents, expected_cash_cents, expected_cheques_cents,
       expected_meal_vouchers_cents, expected_card_slips_cents, comment, counted_by, counted_by_login, counted_at)
     SELECT $1, $2, $3, coalesce(max(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
            coalesce($16::timestamptz, now())
       FROM cash_counts WHERE site_id = $1 AND fiscal_date = $2 AND terminal_id = $3
     RETURNING *`,
    [
      count.site,
      count.dateFiscale,
      count.caisse,
      cash === null ? null : JSON.stringify(cash),
      cash === null ? null : denominationsTotalCents(cash),
      count.chequesCents,
      count.mealVouchersCents,
      count.cardSlipsCents,
      expected.cashCents,
      expected.chequesCents,
      expected.mealVouchersCents,
      expected.cardSlipsCents,
      count.comment,
      counter.userId,
      counter.login,
      count.countedAt ?? null,
    ],
  );
  return toCashCount(rows[0]!);
}
