/**
 * The cash counting report (`RapportComptageCaisses`, SPEC.md §1 "cash counting"): one row per
 * terminal and fiscal date that was counted, from the LATEST version of its count (earlier
 * versions are history, shown by bo/comptage/list), with expected and counted cash and the
 * variance of each method (cents). A method that was not counted has empty cells and counts
 * for nothing in the totals.
 *
 * Request filters honoured: sites, period or explicit dates, terminals (`tpv[]`). Hours,
 * sellers and training mode do not apply to a count (a count is per terminal and day) and are
 * ignored; `operation` must be VENTE or TOUTES like the sales report.
 */
import { z } from 'zod';
import { CASH_COUNT_REPORT } from '../../../contract/counting.ts';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

interface Row {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  terminal_id: number;
  version: number;
  counted_by_login: string;
  cash_cents: number | null;
  expected_cash_cents: number;
  cheques_cents: number | null;
  expected_cheques_cents: number;
  meal_vouchers_cents: number | null;
  expected_meal_vouchers_cents: number;
  card_slips_cents: number | null;
  expected_card_slips_cents: number;
}

const MONEY_KEYS = [
  'expectedCash',
  'countedCash',
  'cashVariance',
  'chequesVariance',
  'mealVouchersVariance',
  'cardSlipsVariance',
] as const;

const minus = (counted: number | null, expected: number) => (counted === null ? null : counted - expected);

async function query(ctx: ReportContext<Params>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<Row>(
    `SELECT DISTINCT ON (c.fiscal_date, c.site_id, c.terminal_id)
            c.fiscal_date, c.site_id, s.libelle, c.terminal_id, c.version, c.counted_by_login,
            c.cash_cents, c.expected_cash_cents, c.cheques_cents, c.expected_cheques_cents,
            c.meal_vouchers_cents, c.expected_meal_vouchers_cents, c.card_slips_cents, c.expected_card_slips_cents
       FROM cash_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = ANY($1::int[]) AND c.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR c.fiscal_date = ANY($4::date[]))
        AND (cardinality($5::int[]) = 0 OR c.terminal_id = ANY($5::int[]))
      ORDER BY c.fiscal_date, c.site_id, c.terminal_id, c.version DESC`,
    [
      request.sites.map((s) => s.id),
      request.dateDebut,
      request.dateFin,
      request.fiscalDates,
      request.terminals,
    ],
  );
  const totals: Record<(typeof MONEY_KEYS)[number], number> = {
    expectedCash: 0,
    countedCash: 0,
    cashVariance: 0,
    chequesVariance: 0,
    mealVouchersVariance: 0,
    cardSlipsVariance: 0,
  };
  const out = rows.map((r) => {
    const row = {
      fiscalDate: r.fiscal_date,
      site: r.libelle,
      terminal: r.terminal_id,
      countVersion: r.version,
      countedBy: r.counted_by_login,
      expectedCash: r.expected_cash_cents,
      countedCash: r.cash_cents,
      cashVariance: minus(r.cash_cents, r.expected_cash_cents),
      chequesVariance: minus(r.cheques_cents, r.expected_cheques_cents),
      mealVouchersVariance: minus(r.meal_vouchers_cents, r.expected_meal_vouchers_cents),
      cardSlipsVariance: minus(r.card_slips_cents, r.expected_card_slips_cents),
    };
    for (const k of MONEY_KEYS) totals[k] += row[k] ?? 0;
    return row;
  });
  return {
    ...datasetHeader(cashCountReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['site', 'text'],
      ['terminal', 'qty'],
      ['countVersion', 'qty'],
      ['countedBy', 'text'],
      ...MONEY_KEYS.map((k) => [k, 'money'] as const),
    ]),
    rows: out,
    totals: { fiscalDate: null, site: null, terminal: null, countVersion: null, countedBy: null, ...totals },
  };
}

/** The cash counting report class, registered in registry.ts. */
export const cashCountReport: ReportClass<Params> = {
  className: CASH_COUNT_REPORT,
  titleId: `report.${CASH_COUNT_REPORT}.title`,
  fileNameId: `report.${CASH_COUNT_REPORT}.filename`,
  params: ParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query,
};
