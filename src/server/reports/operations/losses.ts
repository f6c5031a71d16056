/**
 * The losses report (`RapportPertes`, SPEC.md §1 "loss reports", SPEC.md §9 loss types), variant
 * Daily: the declared losses of the period, one row per site, loss type, family and article,
 * with the quantity and the amount (cents, as declared in `losses.amount_cents`), plus totals.
 *
 * Types (translated labels `report.lossType.<TYPE>`), in SPEC.md §9's order: CUSTOM (other
 * declared loss), LOSS (consumed, thrown away), REMADE (made again), DEGRADED (damaged).
 * A loss has no family for some sources: it shows an empty family.
 *
 * Losses are declared per site and fiscal date, not per ticket: they have no terminal, seller or
 * time of day, and are never training-mode. A request with terminals, sellers or an hour range
 * is refused (400 BadRequest) rather than answered with unfiltered figures; `trainingMode`
 * changes nothing. `operation` and the other class parameters are ignored.
 *
 * maxDays = 400: the query reads the period's losses through the `(site_id, fiscal_date)` index
 * (a chain declares a few thousand a year).
 */
import { z } from 'zod';
import type { Dataset } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import { DomainError } from '../../errors.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { num } from '../ticket-selection.ts';

/** Loss types of SPEC.md §9, in its order. */
export const LOSS_TYPES = ['CUSTOM', 'LOSS', 'REMADE', 'DEGRADED'] as const;

const LossesParamsSchema = z.object({ operation: z.string() });
type LossesParams = z.infer<typeof LossesParamsSchema>;

interface LossRow {
  site_id: number;
  libelle: string;
  type: string;
  family: string | null;
  article: string;
  quantity: string;
  amount: number | string;
}

/** The SQL of the loss rows for `request` (exported for the benchmark). */
export function lossesQuery(request: ReportRequest): { text: string; values: unknown[] } {
  return {
    text: `SELECT x.site_id, s.libelle, x.type, x.family, x.article,
                  sum(x.quantity)::text AS quantity, sum(x.amount_cents)::bigint AS amount
             FROM losses x JOIN sites s ON s.id = x.site_id
            WHERE x.site_id = ANY($1::int[])
              AND x.fiscal_date BETWEEN $2::date AND $3::date
              AND ($4::date[] IS NULL OR x.fiscal_date = ANY($4::date[]))
            GROUP BY x.site_id, s.libelle, x.type, x.family, x.article
            ORDER BY x.site_id, array_position($5::text[], x.type), x.family NULLS LAST, x.article`,
    values: [
      request.sites.map((site) => site.id),
      request.dateDebut,
      request.dateFin,
      request.fiscalDates,
      [...LOSS_TYPES],
    ],
  };
}

async function queryLosses(ctx: ReportContext<LossesParams>): Promise<Dataset> {
  const { request, database } = ctx;
  if (request.hours !== null || request.terminals.length > 0 || request.sellers.length > 0) {
    throw new DomainError(
      'invalid',
      'BadRequest',
      'losses have no terminal, seller or time of day: remove tpv, vendeurs and trancheHoraire',
    );
  }
  const { rows } = await database.pool.query<LossRow>(lossesQuery(request));
  const totals = { quantity: 0, amount: 0 };
  const out = rows.map((r) => {
    const row = {
      siteId: Number(r.site_id),
      site: r.libelle,
      lossType: (LOSS_TYPES as readonly string[]).includes(r.type)
        ? message(request.language, `report.lossType.${r.type}`)
        : r.type,
      family: r.family,
      article: r.article,
      quantity: Number(r.quantity),
      amount: num(r.amount),
    };
    totals.quantity += row.quantity;
    totals.amount += row.amount;
    return row;
  });
  return {
    ...datasetHeader(lossesReport, request),
    columns: translatedColumns(request, [
      ['siteId', 'qty'],
      ['site', 'text'],
      ['lossType', 'text'],
      ['family', 'text'],
      ['article', 'text'],
      ['quantity', 'qty'],
      ['amount', 'money'],
    ]),
    rows: out,
    totals: {
      siteId: null,
      site: null,
      lossType: null,
      family: null,
      article: null,
      quantity: Math.round(totals.quantity * 1000) / 1000,
      amount: totals.amount,
    },
  };
}

/** The losses report class (SPEC.md §1), registered in registry.ts. */
export const lossesReport: ReportClass<LossesParams> = {
  className: 'RapportPertes',
  titleId: 'report.RapportPertes.title',
  fileNameId: 'report.RapportPertes.filename',
  params: LossesParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryLosses,
};
