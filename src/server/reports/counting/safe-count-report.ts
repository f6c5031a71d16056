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
import { safeCounts } from '../../counting/safe-counts.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

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
  const counts = await safeCounts(database.pool, {
    siteIds: request.sites.map((s) => s.id),
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    fiscalDates: request.fiscalDates,
    latestOnly: true,
  });
  const totals: Record<(typeof MONEY_KEYS)[number], number> = {
    openingFloat: 0,
    deposits: 0,
    withdrawals: 0,
    expectedContent: 0,
    countedContent: 0,
    variance: 0,
  };
  const out = counts.map((c) => {
    const money = {
      openingFloat: c.openingCents,
      deposits: c.depositsCents,
      withdrawals: c.withdrawalsCents,
      expectedContent: c.expectedCents,
      countedContent: c.countedCents,
      variance: c.varianceCents,
    };
    for (const k of MONEY_KEYS) totals[k] += money[k];
    return {
      fiscalDate: c.dateFiscale,
      site: c.libelle,
      countVersion: c.version,
      countedBy: c.countedBy.login,
      ...money,
      countersignedBy: c.countersignature?.managerName ?? '',
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
