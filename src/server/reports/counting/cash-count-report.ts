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
import { cashCounts } from '../../counting/cash-counts.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

const MONEY_KEYS = [
  'expectedCash',
  'countedCash',
  'cashVariance',
  'chequesVariance',
  'mealVouchersVariance',
  'cardSlipsVariance',
] as const;

async function query(ctx: ReportContext<Params>): Promise<Dataset> {
  const { request, database } = ctx;
  const counts = await cashCounts(database.pool, {
    siteIds: request.sites.map((s) => s.id),
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    fiscalDates: request.fiscalDates,
    terminals: request.terminals,
    latestOnly: true,
  });
  const siteNames = new Map(request.sites.map((s) => [s.id, s.libelle]));
  const totals: Record<(typeof MONEY_KEYS)[number], number> = {
    expectedCash: 0,
    countedCash: 0,
    cashVariance: 0,
    chequesVariance: 0,
    mealVouchersVariance: 0,
    cardSlipsVariance: 0,
  };
  const out = counts.map((c) => {
    const row = {
      fiscalDate: c.dateFiscale,
      site: siteNames.get(c.site) ?? '',
      terminal: c.caisse,
      countVersion: c.version,
      countedBy: c.countedBy.login,
      expectedCash: c.expected.cashCents,
      countedCash: c.cashCents,
      cashVariance: c.variance.cashCents,
      chequesVariance: c.variance.chequesCents,
      mealVouchersVariance: c.variance.mealVouchersCents,
      cardSlipsVariance: c.variance.cardSlipsCents,
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
