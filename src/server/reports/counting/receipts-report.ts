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
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext } from '../types.ts';

const ParamsSchema = z.object({ operation: z.enum(['VENTE', 'TOUTES']) });
type Params = z.infer<typeof ParamsSchema>;

interface Row {
  fiscal_date: string;
  libelle: string;
  id: number;
  seller_code: string;
  seller_name: string;
  manager_name: string;
  version: number;
  amount_cents: number;
  motif: string;
  commentaire: string;
}

async function query(ctx: ReportContext<Params>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<Row>(
    `SELECT r.fiscal_date, s.libelle, r.id::int AS id, r.seller_code, r.seller_name, r.manager_name, r.version,
            (r.complements->>'montantCents')::bigint::float8 AS amount_cents,
            coalesce(r.complements->>'motif', '') AS motif,
            coalesce(r.complements->>'commentaire', '') AS commentaire
       FROM manager_receipts r JOIN sites s ON s.id = r.site_id
      WHERE r.site_id = ANY($1::int[]) AND r.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR r.fiscal_date = ANY($4::date[]))
        AND (cardinality($5::text[]) = 0 OR r.seller_code = ANY($5::text[]))
      ORDER BY r.fiscal_date, s.libelle, r.id`,
    [
      request.sites.map((s) => s.id),
      request.dateDebut,
      request.dateFin,
      request.fiscalDates,
      request.sellers,
    ],
  );
  let total = 0;
  const out = rows.map((r) => {
    total += r.amount_cents;
    return {
      fiscalDate: r.fiscal_date,
      site: r.libelle,
      receiptNumber: String(r.id),
      seller: `${r.seller_code} – ${r.seller_name}`,
      manager: r.manager_name,
      reason: r.motif,
      amount: r.amount_cents,
      comment: r.commentaire,
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
