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
  RULE_DEFAULTS,
  type RuleLibelle,
} from '../../contract/counting.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { iso } from './instants.ts';

/**
 * What a terminal should hold, by method, in cents: the sum of the payments of its tickets of
 * site $1, fiscal date $2, terminal $3 (training-mode tickets left out; OTHER payments ignored).
 * One row, zeros when nothing was paid. Also the `expected` part of {@link SAVE_CASH_COUNT_SQL}.
 */
const EXPECTED_AMOUNTS_SQL = `
  SELECT coalesce(sum(p.amount_cents) FILTER (WHERE p.method = 'CASH'), 0)::bigint AS expected_cash,
         coalesce(sum(p.amount_cents) FILTER (WHERE p.method = 'CHEQUE'), 0)::bigint AS expected_cheques,
         coalesce(sum(p.amount_cents) FILTER (WHERE p.method = 'MEAL_VOUCHER'), 0)::bigint AS expected_meal_vouchers,
         coalesce(sum(p.amount_cents) FILTER (WHERE p.method = 'CARD'), 0)::bigint AS expected_card_slips
    FROM tickets t JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
   WHERE t.site_id = $1 AND t.fiscal_date = $2 AND t.terminal_id = $3 AND NOT t.training_mode`;

/** A row of {@link EXPECTED_AMOUNTS_SQL}. */
interface ExpectedRow {
  expected_cash: number;
  expected_cheques: number;
  expected_meal_vouchers: number;
  expected_card_slips: number;
}

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
  const { rows } = await db.query<ExpectedRow>(EXPECTED_AMOUNTS_SQL, [site, fiscalDate, terminal]);
  const r = rows[0]!;
  return {
    cashCents: r.expected_cash,
    chequesCents: r.expected_cheques,
    mealVouchersCents: r.expected_meal_vouchers,
    cardSlipsCents: r.expected_card_slips,
  };
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

/** The error of a terminal that is not one of the site's (src/contract/counting.ts `UnknownTerminal`). */
function unknownTerminal(site: number, terminal: number): DomainError {
  return new DomainError(
    'invalid',
    'UnknownTerminal',
    `terminal ${terminal} is not a terminal of site ${site}`,
    {
      caisse: terminal,
    },
  );
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
  if (rows.length === 0) throw unknownTerminal(site, terminal);
}

/** A cash count as saved (bo/comptage/save's body, parsed). */
export type NewCashCount = z.output<typeof CashCountBodySchema>;

/** Who saves a count: the signed-in user. */
export interface Counter {
  userId: number;
  login: string;
}

/** The parts of a count in the order `MissingCount` names them, and the rule requiring each (SPEC.md §3). */
const REQUIRED_BY = [
  { part: 'cash', libelle: 'comptageEspeces', counted: (c: NewCashCount) => c.cash !== null },
  { part: 'cheques', libelle: 'comptageCheques', counted: (c: NewCashCount) => c.chequesCents !== null },
  {
    part: 'mealVouchers',
    libelle: 'comptageTicketsRestaurant',
    counted: (c: NewCashCount) => c.mealVouchersCents !== null,
  },
  { part: 'cardSlips', libelle: 'comptageCartes', counted: (c: NewCashCount) => c.cardSlipsCents !== null },
] as const satisfies readonly { part: string; libelle: RuleLibelle; counted: (c: NewCashCount) => boolean }[];

/**
 * The checks and the insert of {@link saveCashCount} in ONE statement (decision record 0024: a
 * batch of counts pays per statement), the drawer's advisory lock being taken just before by
 * {@link LOCK_DRAWER_SQL}. In order: `checked` says whether the terminal is the site's ($3) and
 * which of the parts left out ($13–$15: part, rule, rule's default) the site's rules require
 * (counting_rules over RULE_DEFAULTS, as rules.ts rulesOf); only when both pass does the INSERT
 * run, as the next version with the expected amounts ({@link EXPECTED_AMOUNTS_SQL}). Should a
 * count of the same drawer be unseen by the statement's snapshot all the same (an isolation
 * above READ COMMITTED), its version collides on the unique index and the insert does nothing:
 * the caller then inserts again, lock held.
 *
 * The lock was a CTE of this statement (`SELECT pg_advisory_xact_lock(…) FROM checked`) until
 * 2026-12-07: Citus refuses a `void` column in a CTE it sends to a worker ("column
 * "pg_advisory_xact_lock" has pseudo-type void"), decision record 0042.
 */
const SAVE_CASH_COUNT_SQL = `
WITH checked AS (
  SELECT EXISTS (SELECT 1 FROM terminals WHERE site_id = $1 AND terminal_id = $3) AS terminal_known,
         (SELECT coalesce(array_agg(u.part ORDER BY u.n), '{}')
            FROM unnest($13::text[], $14::text[], $15::boolean[]) WITH ORDINALITY AS u(part, libelle, by_default, n)
            LEFT JOIN counting_rules r ON r.site_id = $1 AND r.libelle = u.libelle
           WHERE coalesce(r.active, u.by_default)) AS missing
), expected AS (
${EXPECTED_AMOUNTS_SQL}
), inserted AS (
  INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash, cash_cents, cheques_cents,
     meal_vouchers_cents, card_slips_cents, expected_cash_cents, expected_cheques_cents,
     expected_meal_vouchers_cents, expected_card_slips_cents, comment, counted_by, counted_by_login, counted_at)
  SELECT $1, $2, $3, (SELECT coalesce(max(version), 0) + 1 FROM cash_counts
                       WHERE site_id = $1 AND fiscal_date = $2 AND terminal_id = $3),
         $4, $5, $6, $7, $8, e.expected_cash, e.expected_cheques, e.expected_meal_vouchers, e.expected_card_slips,
         $9, $10, $11, coalesce($12::timestamptz, now())
    FROM expected e, checked c WHERE c.terminal_known AND cardinality(c.missing) = 0
  ON CONFLICT (site_id, fiscal_date, terminal_id, version) DO NOTHING
  RETURNING *
)
SELECT c.terminal_known, c.missing, e.*, i.*
  FROM checked c CROSS JOIN expected e LEFT JOIN inserted i ON true`;

/**
 * The drawer's lock ($1: `cash_count:<site>:<fiscal date>:<terminal>`), held until the
 * transaction ends, in its own statement (run on the coordinator on a Citus cluster).
 */
const LOCK_DRAWER_SQL = 'SELECT FROM pg_advisory_xact_lock(hashtextextended($1, 7))';

/** The insert of a count as the next version, the drawer's lock being held (parameters as above). */
const INSERT_CASH_COUNT_SQL = `
INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash, cash_cents, cheques_cents,
   meal_vouchers_cents, card_slips_cents, expected_cash_cents, expected_cheques_cents,
   expected_meal_vouchers_cents, expected_card_slips_cents, comment, counted_by, counted_by_login, counted_at)
SELECT $1, $2, $3, coalesce(max(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
       coalesce($16::timestamptz, now())
  FROM cash_counts WHERE site_id = $1 AND fiscal_date = $2 AND terminal_id = $3
RETURNING *`;

/**
 * What {@link SAVE_CASH_COUNT_SQL} answers: the checks, the expected amounts, and the row
 * inserted (its columns all null when nothing was inserted).
 */
type SaveOutcome = { terminal_known: boolean; missing: string[] } & ExpectedRow & CashCountRow;

/**
 * Saves `count` as the next version of (site, fiscal date, terminal), with the expected amounts
 * of that moment; `db` must be a transaction (the version lock is held until it ends).
 * Denominations are stored largest first; `countedAt` defaults to now. Two statements: the
 * drawer's lock ({@link LOCK_DRAWER_SQL}), then the checks and insert
 * ({@link SAVE_CASH_COUNT_SQL}); a third only when the insert collided with a concurrent count
 * of the same drawer.
 * @throws DomainError invalid `UnknownTerminal` with `details.caisse` when `count.caisse` is not a
 *   terminal of the site (see {@link requireTerminal}); then invalid `MissingCount` with
 *   `details.missing` (e.g. `['cheques']`) when a part the site's rules require was not counted
 *   (src/contract/counting.ts). Nothing is written then (the drawer's lock was taken).
 */
export async function saveCashCount(
  db: Queryable,
  count: NewCashCount,
  counter: Counter,
): Promise<CashCount> {
  const cash =
    count.cash === null ? null : [...count.cash].sort((a, b) => b.denominationCents - a.denominationCents);
  const leftOut = REQUIRED_BY.filter((r) => !r.counted(count));
  const values = [
    count.site,
    count.dateFiscale,
    count.caisse,
    cash === null ? null : JSON.stringify(cash),
    cash === null ? null : denominationsTotalCents(cash),
    count.chequesCents,
    count.mealVouchersCents,
    count.cardSlipsCents,
  ];
  const who = [count.comment, counter.userId, counter.login, count.countedAt ?? null];
  await db.query({
    name: 'comptoir_lock_cash_drawer',
    text: LOCK_DRAWER_SQL,
    values: [`cash_count:${count.site}:${count.dateFiscale}:${count.caisse}`],
  });
  // Named: each connection parses the statement once, not at every count (decision record 0024).
  const { rows } = await db.query<SaveOutcome>({
    name: 'comptoir_save_cash_count',
    text: SAVE_CASH_COUNT_SQL,
    values: [
      ...values,
      ...who,
      leftOut.map((r) => r.part),
      leftOut.map((r) => r.libelle),
      leftOut.map((r) => RULE_DEFAULTS[r.libelle]),
    ],
  });
  const outcome = rows[0]!;
  if (!outcome.terminal_known) throw unknownTerminal(count.site, count.caisse);
  if (outcome.missing.length > 0) {
    throw new DomainError(
      'invalid',
      'MissingCount',
      `the site's rules require: ${outcome.missing.join(', ')}`,
      { missing: outcome.missing },
    );
  }
  if (outcome.id !== null) return toCashCount(outcome);
  // A count of the same drawer committed while this one waited for the lock: number it again.
  const again = await db.query<CashCountRow>(INSERT_CASH_COUNT_SQL, [
    ...values,
    outcome.expected_cash,
    outcome.expected_cheques,
    outcome.expected_meal_vouchers,
    outcome.expected_card_slips,
    ...who,
  ]);
  return toCashCount(again.rows[0]!);
}
