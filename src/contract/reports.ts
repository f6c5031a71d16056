/**
 * Report contract (DESIGN.md §6, SPEC.md §3 "Report request", §7 bo/getReport). A report class
 * answers a dataset; renderers (PDF, CSV, XLSX, JSON) are generic over it.
 */
import { z } from 'zod';
import { INT4_MAX } from './integers.ts';
import { ArchivedPeriodSchema } from './purge.ts';

/** Output formats. JSON returns the dataset itself (for the screen). */
export const REPORT_FORMATS = ['PDF', 'CSV', 'XLSX', 'JSON'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Variants of a report class (SPEC.md §9). */
export const REPORT_VARIANTS = ['Daily', 'Graph', 'Cumulative'] as const;
export type ReportVariant = (typeof REPORT_VARIANTS)[number];

/** Operations (SPEC.md §3: default VENTE). */
export const OPERATIONS = ['VENTE', 'ANNULATION', 'CORRECTION', 'TOUTES'] as const;

/** Languages of the interface and of generated documents (SPEC.md §9). */
export const LANGUAGES = ['fr', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LanguageSchema = z.enum(LANGUAGES);

/**
 * Column types. Units: `money` is integer cents in the dataset (formatted with the currency),
 * `qty` a plain number, `percent` a fraction (0.2 = 20 %), `date` a wire date `YYYY-MM-DD`.
 */
export const COLUMN_TYPES = ['money', 'qty', 'percent', 'date', 'text'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const DatasetColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(COLUMN_TYPES),
});
export type DatasetColumn = z.infer<typeof DatasetColumnSchema>;

const CellSchema = z.union([z.string(), z.number(), z.null()]);

/**
 * The dataset a report class answers (DESIGN.md §6), in the request's language.
 * `rows` and `totals` are keyed by column key; money cells are integer cents.
 */
export const DatasetSchema = z.object({
  className: z.string(),
  variant: z.enum(REPORT_VARIANTS),
  title: z.string(),
  currency: z.string(),
  dateDebut: z.string(),
  dateFin: z.string(),
  sites: z.array(z.object({ restaurantId: z.number().int(), libelle: z.string() })),
  generatedAt: z.string(),
  columns: z.array(DatasetColumnSchema),
  rows: z.array(z.record(z.string(), CellSchema)),
  totals: z.record(z.string(), CellSchema),
  /**
   * Present when part of the period was purged (issue #30): the detail of those days was
   * archived (where) and only their grand totals were kept (purge.ts ArchivedPeriodSchema).
   */
  archived: z.array(ArchivedPeriodSchema).optional(),
});
export type Dataset = z.infer<typeof DatasetSchema>;

/** A row of a dataset as the JSON answer writes it: its cells in the order of `columns`. */
const RowCellsSchema = z.array(CellSchema);

/**
 * The JSON answer of bo/getReport (and its single-site and POST variants) with `format=JSON`,
 * read into a {@link Dataset}: the dataset with each row written as an array of its cells in
 * the order of `columns` (`[["2026-11-03", 1, "Paris", 412, …], …]`), which halves the answer
 * (no key repeated in every row) and the server's time to write it (docs/decisions/0012). A row
 * written as an object (keyed by column key) is read as it is: offline copies the service worker
 * stored before the change (src/client/lib/outbox/offline-copy-store.ts) still open. A row array shorter than `columns`
 * leaves the missing cells null.
 * @throws ZodError (from `parse`) when the answer is not such a dataset.
 */
export const DatasetAnswerSchema = DatasetSchema.extend({
  rows: z.array(z.union([RowCellsSchema, z.record(z.string(), CellSchema)])),
}).transform((answer): Dataset => {
  const keys = answer.columns.map((c) => c.key);
  const rows = answer.rows.map((row) => {
    if (!Array.isArray(row)) return row;
    const out: Record<string, string | number | null> = {};
    for (let i = 0; i < keys.length; i++) out[keys[i] as string] = row[i] ?? null;
    return out;
  });
  return { ...answer, rows };
});

/** One report class as listed by GET bo/rapport/metrics (`editions`). */
export const ReportClassInfoSchema = z.object({
  className: z.string(),
  localisedTitle: z.string(),
  variants: z.array(z.enum(REPORT_VARIANTS)),
  formats: z.array(z.enum(REPORT_FORMATS)),
  maxDays: z.number().int(),
  /** Reports of this class the user generated (report editions with status OK); absent = unknown. */
  generated: z.number().int().optional(),
  /** When the user last generated one (ISO instant), null when never. */
  lastGeneratedAt: z.string().nullable().optional(),
});
export type ReportClassInfo = z.infer<typeof ReportClassInfoSchema>;
export const MetricsAnswerSchema = z.object({ editions: z.array(ReportClassInfoSchema) });

/** Class name of the sales report (SPEC.md §1 "sales"). */
export const SALES_REPORT = 'RapportVentes';

/**
 * POST bo/getReport JSON body (SPEC.md §7): id, rapportClassName, typeRapport, operation,
 * trancheHoraire, format, language, dateDebut, dateFin, sites. Dates are wire dates. Also
 * accepted, with the meaning they have on GET: tpv, vendeurs (a list of seller codes, commas
 * kept as they are, or the GET's encoded text), datefiscales (instead of dateDebut/dateFin),
 * trainingMode, filtre, condition, tri, regroupement, isFilters.
 */
export const ReportPostBodySchema = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX),
  rapportClassName: z.string(),
  typeRapport: z.enum(REPORT_VARIANTS).default('Daily'),
  operation: z.enum(OPERATIONS).default('VENTE'),
  trancheHoraire: z.boolean().default(false),
  heureDebut: z.string().default('12:00'),
  heureFin: z.string().default('23:00'),
  format: z.enum(REPORT_FORMATS).default('PDF'),
  language: LanguageSchema.default('fr'),
  dateDebut: z.string().optional(),
  dateFin: z.string().optional(),
  sites: z.array(z.coerce.number().int().positive().max(INT4_MAX)).default([]),
  tpv: z.array(z.coerce.number().int().min(0).max(INT4_MAX)).default([]),
  vendeurs: z.union([z.array(z.string()), z.string()]).default([]),
  datefiscales: z.array(z.string()).default([]),
  trainingMode: z.boolean().default(false),
  filtre: z.string().optional(),
  condition: z.array(z.string()).default([]),
  tri: z.string().optional(),
  regroupement: z.string().optional(),
  isFilters: z.boolean().default(false),
});
export type ReportPostBody = z.infer<typeof ReportPostBodySchema>;

/**
 * Marker standing for a comma inside one seller in bo/getReport's `vendeurs` parameter
 * (SPEC.md §5 "a comma in a seller name is replaced by a placeholder marker"). `vendeurs` is the
 * chosen sellers' codes joined by commas; a comma inside a code travels as this marker, so the
 * server splits on commas first and then turns the marker back into a comma. Chosen to be
 * unlikely in a name and URL-safe once encoded.
 */
export const SELLER_COMMA_MARKER = '{{comma}}';

/** `['A,1', 'B']` → `'A{{comma}}1,B'` (bo/getReport `vendeurs`, SPEC.md §5). */
export function encodeSellers(sellers: readonly string[]): string {
  return sellers.map((s) => s.replaceAll(',', SELLER_COMMA_MARKER)).join(',');
}

/** Inverse of {@link encodeSellers}; an empty text gives no seller (= every seller). */
export function decodeSellers(text: string): string[] {
  if (text === '') return [];
  return text.split(',').map((s) => s.replaceAll(SELLER_COMMA_MARKER, ','));
}
