/**
 * Cash counts (/analyses/comptageCaisses): what a terminal should hold from the day's payments,
 * and the counts themselves. A count is never overwritten: each save is the next version of
 * (site, fiscal date, terminal), numbered under a transaction-scoped advisory lock so two
 * concurrent saves get versions n and n+1, never the same. The expected amounts are copied
 * into the count when it is saved, so its variance stays what the manager saw.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CashCountBodySchema,
  type CashCount,
  CashCountListAnswerSchema,
  CashCountListQuerySchema,
  CashCountSchema,
  denominationsTotalCents,
  ExpectedAnswerSchema,
  ExpectedQuerySchema,
  type MethodAmounts,
} from '../../../contract/counting.ts';
import { ApiHttpError } from '../../plugins/errors.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from '../common.ts';
import { requiredCounts, rulesOf } from './rule-routes.ts';
import { type CountingOptions, iso, type Queryable, requireSite, siteFacts } from './counting-options.ts';

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

/** A stored row as the API answers it. */
export function toCashCount(r: CashCountRow): CashCount {
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

/**
 * Cash counts of `siteIds` between two fiscal dates (included), every version, ordered by
 * date, site, terminal, then version descending. Used by the list route and the report class.
 */
export async function cashCountsBetween(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
  terminal?: number,
): Promise<CashCount[]> {
  const { rows } = await db.query<CashCountRow>(
    `SELECT * FROM cash_counts
      WHERE site_id = ANY($1) AND fiscal_date BETWEEN $2 AND $3 AND ($4::int IS NULL OR terminal_id = $4)
      ORDER BY fiscal_date, site_id, terminal_id, version DESC`,
    [siteIds, dateDebut, dateFin, terminal ?? null],
  );
  return rows.map(toCashCount);
}

/**
 * Checks that `terminal` is one of the site's terminals (the list bo/getCaisses answers).
 * @throws ApiHttpError 400 `UnknownTerminal` with `details.caisse` otherwise (src/contract/counting.ts).
 */
export async function requireTerminal(db: Queryable, site: number, terminal: number): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM terminals WHERE site_id = $1 AND terminal_id = $2', [
    site,
    terminal,
  ]);
  if (rows.length === 0) {
    throw new ApiHttpError(400, 'UnknownTerminal', `terminal ${terminal} is not a terminal of site ${site}`, {
      caisse: terminal,
    });
  }
}

export async function cashCountRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/comptage/expected',
    {
      config: { rights: 'GET bo/comptage/expected' },
      schema: {
        summary:
          "What a terminal should hold from the day's payments (cents), and which counts the rules require",
        tags: ['counting'],
        querystring: ExpectedQuerySchema,
        response: { 200: ExpectedAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { site, dateFiscale, caisse } = request.query;
      requireSite(session, site);
      const facts = (await siteFacts(pool, [site])).get(site)!;
      const rules = await rulesOf(pool, [site]);
      return {
        site,
        dateFiscale,
        caisse,
        currency: facts.currency,
        expected: await expectedAmounts(pool, site, dateFiscale, caisse),
        rules,
        required: requiredCounts(rules),
      };
    },
  );

  api.get(
    '/bo/comptage/list',
    {
      config: { rights: 'GET bo/comptage/list' },
      schema: {
        summary: "Every version of a day's cash counts of a site (or one terminal), latest version first",
        tags: ['counting'],
        querystring: CashCountListQuerySchema,
        response: { 200: CashCountListAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { site, dateFiscale, caisse } = request.query;
      requireSite(session, site);
      const facts = (await siteFacts(pool, [site])).get(site)!;
      const counts = await cashCountsBetween(pool, [site], dateFiscale, dateFiscale, caisse);
      return { currency: facts.currency, counts };
    },
  );

  api.post(
    '/bo/comptage/save',
    {
      config: { rights: 'POST bo/comptage/save', write: true },
      schema: {
        summary: 'Saves a cash count as a new version (never overwrites); honours Idempotency-Key',
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam }),
        body: CashCountBodySchema,
        response: { 200: CashCountSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const body = request.body;
      requireSite(session, body.site);
      const tx = writeTx(request);
      await requireTerminal(tx, body.site, body.caisse);
      const required = requiredCounts(await rulesOf(tx, [body.site]));
      const missing = [
        required.cash && body.cash === null ? 'cash' : null,
        required.cheques && body.chequesCents === null ? 'cheques' : null,
        required.mealVouchers && body.mealVouchersCents === null ? 'mealVouchers' : null,
        required.cardSlips && body.cardSlipsCents === null ? 'cardSlips' : null,
      ].filter((m) => m !== null);
      if (missing.length > 0) {
        throw new ApiHttpError(400, 'MissingCount', `the site's rules require: ${missing.join(', ')}`, {
          missing,
        });
      }
      const expected = await expectedAmounts(tx, body.site, body.dateFiscale, body.caisse);
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
        `cash_count:${body.site}:${body.dateFiscale}:${body.caisse}`,
      ]);
      const cash =
        body.cash === null ? null : [...body.cash].sort((a, b) => b.denominationCents - a.denominationCents);
      const { rows } = await tx.query<CashCountRow>(
        `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash, cash_cents, cheques_cents,
           meal_vouchers_cents, card_slips_cents, expected_cash_cents, expected_cheques_cents,
           expected_meal_vouchers_cents, expected_card_slips_cents, comment, counted_by, counted_by_login, counted_at)
         SELECT $1, $2, $3, coalesce(max(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
                coalesce($16::timestamptz, now())
           FROM cash_counts WHERE site_id = $1 AND fiscal_date = $2 AND terminal_id = $3
         RETURNING *`,
        [
          body.site,
          body.dateFiscale,
          body.caisse,
          cash === null ? null : JSON.stringify(cash),
          cash === null ? null : denominationsTotalCents(cash),
          body.chequesCents,
          body.mealVouchersCents,
          body.cardSlipsCents,
          expected.cashCents,
          expected.chequesCents,
          expected.mealVouchersCents,
          expected.cardSlipsCents,
          body.comment,
          session.userId,
          session.login,
          body.countedAt ?? null,
        ],
      );
      return toCashCount(rows[0]!);
    },
  );
}
