/**
 * The safe counting report (`RapportComptageCoffre`, SPEC.md §1 "safe counting"): one row per
 * site and fiscal date whose safe was counted, from the LATEST version of the count: opening
 * float, deposits, withdrawals, expected and counted content, variance (cents), who counted
 * and who countersigned (empty while waiting).
 *
 * Request filters honoured: sites, period or explicit dates. Terminals, hours, sellers and
 * training mode do not apply to a safe and are ignored; `operation` must be VENTE or TOUTES.
 */
import { z } from 'zod';
import { SAFE_COUNT_REPORT } from '../../../contract/counting.ts';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

interface Row {
  fiscal_date: string;
  libelle: string;
  version: number;
  counted_by_login: string;
  opening_cents: number;
  deposits_cents: number;
  withdrawals_cents: number;
  counted_cents: number;
  countersigned_name: string | null;
}

const MONEY_KEYS = [
  'openingFloat',
  'deposits',
  'withdrawals',
  'expectedContent',
  'countedContent',
  'variance',
] as const;

async function query(ctx: ReportContext<Params>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<Row>(
    `SELECT DISTINCT ON (c.fiscal_date, c.site_id)
            c.fiscal_date, s.libelle, c.version, c.counted_by_login, c.opening_cents, c.deposits_cents,
            c.withdrawals_cents, c.counted_cents, c.countersigned_name
       FROM safe_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = ANY($1::int[]) AND c.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR c.fiscal_date = ANY($4::date[]))
      ORDER BY c.fiscal_date, c.site_id, c.version DESC`,
    [request.sites.map((s) => s.id), request.dateDebut, request.dateFin, request.fiscalDates],
  );
  const totals: Record<(typeof MONEY_KEYS)[number], number> = {
    openingFloat: 0,
    deposits: 0,
    withdrawals: 0,
    expectedContent: 0,
    countedContent: 0,
    variance: 0,
  };
  const out = rows.map((r) => {
    const expected = r.opening_cents + r.deposits_cents - r.withdrawals_cents;
    const money = {
      openingFloat: r.opening_cents,
      deposits: r.deposits_cents,
      withdrawals: r.withdrawals_cents,
      expectedContent: expected,
      countedContent: r.counted_cents,
      variance: r.counted_cents - expected,
    };
    for (const k of MONEY_KEYS) totals[k] += money[k];
    return {
      fiscalDate: r.fiscal_date,
      site: r.libelle,
      countVersion: r.version,
      countedBy: r.counted_by_login,
      ...money,
      countersignedBy: r.countersigned_name ?? '',
    };
  });
  return {
    ...datasetHeader(safeCountReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['site', 'text'],
      ['countVersion', 'qty'],
      ['countedBy', 'text'],
      ...MONEY_KEYS.map((k) => [k, 'money'] as const),
      ['countersignedBy', 'text'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      site: null,
      countVersion: null,
      countedBy: null,
      ...totals,
      countersignedBy: null,
    },
  };
}

/** The safe counting report class, registered in registry.ts. */
export const safeCountReport: ReportClass<Params> = {
  className: SAFE_COUNT_REPORT,
  titleId: `report.${SAFE_COUNT_REPORT}.title`,
  fileNameId: `report.${SAFE_COUNT_REPORT}.filename`,
  params: ParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query,
};
