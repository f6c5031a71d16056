/**
 * The parameters of bo/getReport (SPEC.md §7) as they travel — the GET query, its single-site
 * variant and the POST body — and their one mapping to the domain's {@link RawReportInput}
 * (reports/request.ts), plus the documented answer every report call shares.
 *
 * Wire quirks handled once, here: list parameters arrive as `sites[]=1&sites[]=2` (the client
 * of SPEC.md §7), as `sites=1&sites=2`, or as one comma-separated value; Fastify's query parser
 * gives a string for one occurrence and an array for several, under the key as written
 * (`sites[]` or `sites`). Both keys are read and merged into one array.
 */
import { z } from 'zod';
import {
  decodeSellers,
  LanguageSchema,
  REPORT_FORMATS,
  type ReportPostBody,
} from '../../contract/reports.ts';
import type { RawReportInput } from '../reports/request.ts';
import { errorResponses, QueryIntList, QueryList, UserIdParam } from './common.ts';
import { DatasetWireSchema } from './report-answer.ts';
import { INT4_MAX } from '../../contract/integers.ts';

/** `true`/`false`/`1`/`0` as a boolean (query strings carry text). */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** The query of GET bo/getReport. */
export const ReportQuerySchema = z
  .object({
    id: UserIdParam,
    rapportClassName: z.string().describe('report class, e.g. RapportVentes (see bo/rapport/metrics)'),
    typeRapport: z.string().default('Daily').describe('variant: Daily, Graph or Cumulative'),
    format: z.enum(REPORT_FORMATS).default('PDF'),
    language: LanguageSchema.default('fr').describe('language of titles, labels and number formats'),
    dateDebut: z.string().optional().describe('first fiscal date, YYYY-MM-DD'),
    dateFin: z.string().optional().describe('last fiscal date, YYYY-MM-DD (included)'),
    'datefiscales[]': QueryList.describe('explicit fiscal dates instead of dateDebut..dateFin'),
    datefiscales: QueryList.describe('same as datefiscales[]'),
    'sites[]': QueryIntList.describe('restaurantIds; none = every site of the user (SPEC.md §5)'),
    sites: QueryIntList.describe('same as sites[] (also comma-separated)'),
    'tpv[]': QueryIntList.describe('terminal numbers; none = every terminal'),
    tpv: QueryIntList.describe('same as tpv[]'),
    vendeurs: QueryList.describe('seller codes, comma-separated; a comma inside a code travels as {{comma}}'),
    operation: z
      .string()
      .default('VENTE')
      .describe('VENTE, TOUTES, ANNULATION, CORRECTION (see bo/getResultsChoices)'),
    trancheHoraire: flag.describe('only tickets opened between heureDebut and heureFin (site local time)'),
    heureDebut: z.string().default('12:00').describe('HH:mm, included'),
    heureFin: z.string().default('23:00').describe('HH:mm, excluded; before heureDebut wraps past midnight'),
    trainingMode: flag.describe('include training-mode tickets'),
    filtre: z
      .string()
      .optional()
      .describe('dimension (SITE, CAISSE, VENDEUR, FAMILLE, TVA, PAIEMENT, DATE) or column key to filter on'),
    'condition[]': QueryList.describe('values of filtre to keep (see bo/getGroupements)'),
    condition: QueryList.describe('same as condition[]'),
    tri: z.string().optional().describe('column key to sort rows by; `key:desc` or `-key` sorts downwards'),
    regroupement: z.string().optional().describe('dimension or text/date column to merge rows by'),
    isFilters: flag.describe('apply filtre/condition (true) or not'),
  })
  .catchall(z.unknown())
  .describe('bo/getReport parameters (SPEC.md §7); merim_* settings are accepted and ignored');

type ReportQuery = z.infer<typeof ReportQuerySchema>;

/** The query of GET bo/getReportSite: bo/getReport's, plus the one site as `restaurantId`. */
export const ReportSiteQuerySchema = ReportQuerySchema.extend({
  restaurantId: z.coerce
    .number()
    .int()
    .positive()
    .max(INT4_MAX)
    .optional()
    .describe('the one site of the report'),
}).describe(
  'bo/getReport parameters for ONE site: restaurantId (or a single sites[] value); more than one ' +
    'site answers 400 multiSitesTooMuch, none 400 NoSitesSelected',
);

/** Documented answer of bo/getReport: the dataset as JSON, or a document. */
export const reportAnswer = {
  // The JSON dataset; the format parameter adds PDF, CSV and XLSX (openapi/answers.ts).
  200: DatasetWireSchema.describe(
    'format=JSON: the dataset (contract/reports.ts DatasetAnswerSchema: columns, rows, totals; money in ' +
      'integer cents; each row an array of its cells in the order of columns), with no ' +
      'rows when the report is empty; PDF, CSV (UTF-8 with BOM) or XLSX: the document as an attachment, ' +
      'or 400 CheckReportParam when the report is empty (one over a purged period is answered: it says ' +
      'where the detail was archived and the totals kept)',
  ),
  ...errorResponses,
};

/**
 * The bo/getReport fields once the lists are merged, as the query and the body both carry them;
 * `vendeurs` is either the codes or the GET's encoded text (SPEC.md §5).
 */
type ReportFields = Omit<RawReportInput, 'vendeurs' | OptionalField> &
  Partial<Pick<RawReportInput, OptionalField>> & { vendeurs: string[] | string };

/** The fields a call may leave out altogether. */
type OptionalField = 'dateDebut' | 'dateFin' | 'filtre' | 'tri' | 'regroupement';

/**
 * The one mapping of bo/getReport's wire fields to the domain's input: exactly the fields of
 * {@link RawReportInput} (anything else the call carries — `id`, merim_* settings — stays out).
 */
function rawReportInput(f: ReportFields): RawReportInput {
  return {
    rapportClassName: f.rapportClassName,
    typeRapport: f.typeRapport,
    format: f.format,
    language: f.language,
    dateDebut: f.dateDebut,
    dateFin: f.dateFin,
    datefiscales: f.datefiscales,
    sites: f.sites,
    tpv: f.tpv,
    // A list keeps commas inside codes; a text is the GET's encoded `vendeurs`.
    vendeurs: Array.isArray(f.vendeurs) ? f.vendeurs : decodeSellers(f.vendeurs),
    trancheHoraire: f.trancheHoraire,
    heureDebut: f.heureDebut,
    heureFin: f.heureFin,
    trainingMode: f.trainingMode,
    operation: f.operation,
    filtre: f.filtre,
    condition: f.condition,
    tri: f.tri,
    regroupement: f.regroupement,
    isFilters: f.isFilters,
  };
}

/** The domain input of a GET bo/getReport query: `x[]` and `x` lists merged, each `vendeurs` decoded. */
export function inputFromQuery(q: ReportQuery): RawReportInput {
  return rawReportInput({
    ...q,
    datefiscales: [...q['datefiscales[]'], ...q.datefiscales],
    sites: [...q['sites[]'], ...q.sites],
    tpv: [...q['tpv[]'], ...q.tpv],
    vendeurs: q.vendeurs.flatMap(decodeSellers),
    condition: [...q['condition[]'], ...q.condition],
  });
}

/** The domain input of a POST bo/getReport body. */
export function inputFromBody(b: ReportPostBody): RawReportInput {
  return rawReportInput(b);
}
