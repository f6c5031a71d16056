/**
 * The receipts report (`RapportRecus`, SPEC.md §1 "receipts"): the manager receipts
 * (bo/documentsManager, issue #3 point 3) of the chosen sites and period, one row per receipt in
 * its latest version — fiscal date, site, receipt number, seller, manager, reason, amount
 * (cents), comment — and the total amount.
 *
 * Request filters honoured: sites, period or explicit dates, sellers (`vendeurs`: seller codes
 * of the receipts). Terminals, hours and training mode do not apply to a receipt and are
 * ignored; `operation` must be VENTE or TOUTES (400 BadRequest otherwise).
 */
import { z } from 'zod';
import { RECEIPTS_REPORT } from '../../../contract/counting.ts';
import type { Dataset } from '../../../contract/reports.ts';
import { receipts } from '../../counting/receipts.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

async function query(ctx: ReportContext<Params>): Promise<Dataset> {
  const { request, database } = ctx;
  const found = await receipts(database.pool, {
    siteIds: request.sites.map((s) => s.id),
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    fiscalDates: request.fiscalDates,
    sellers: request.sellers,
    bySiteName: true,
  });
  const siteNames = new Map(request.sites.map((s) => [s.id, s.libelle]));
  let total = 0;
  const out = found.map((r) => {
    total += r.complements.montantCents;
    return {
      fiscalDate: r.dateFiscale,
      site: siteNames.get(r.restaurantId) ?? '',
      receiptNumber: String(r.id),
      seller: `${r.numVendeur} – ${r.libVendeur}`,
      manager: r.nomManager,
      reason: r.complements.motif ?? '',
      amount: r.complements.montantCents,
      comment: r.complements.commentaire ?? '',
      version: r.version,
    };
  });
  return {
    ...datasetHeader(receiptsReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['site', 'text'],
      ['receiptNumber', 'text'],
      ['seller', 'text'],
      ['manager', 'text'],
      ['reason', 'text'],
      ['amount', 'money'],
      ['comment', 'text'],
      ['version', 'qty'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      site: null,
      receiptNumber: null,
      seller: null,
      manager: null,
      reason: null,
      amount: total,
      comment: null,
      version: null,
    },
  };
}

/** The receipts report class, registered in registry.ts through COUNTING_REPORTS. */
export const receiptsReport: ReportClass<Params> = {
  className: RECEIPTS_REPORT,
  titleId: `report.${RECEIPTS_REPORT}.title`,
  fileNameId: `report.${RECEIPTS_REPORT}.filename`,
  params: ParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query,
};
