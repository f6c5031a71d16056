/**
 * Wire shapes of the KPI/BI area (issue #19 "KPI / BI area"; SPEC.md §2 /bi, /tracker, /totalKPI):
 * GET bo/bi/explore (one measure by up to two dimensions over a period and its comparison
 * period), GET bo/bi/totalKPI (the chain's key figures by company, group and site) and GET
 * bo/bi/tracker (today hour by hour per site). Every amount is integer cents including VAT;
 * every answer is read from the per-day aggregates (server/db/schema-aggregates.ts), never from
 * the ticket lines, so a year of a chain answers in tens of milliseconds.
 *
 * Which measure each dimension can be read with is written once here ({@link measureAllowed}):
 * the server refuses the other pairs (400 `BadRequest` with `details.unsupported`: the
 * measure and dimensions) and the screen greys them out. Discounts are held by the site's day,
 * hour, terminal, seller and family (migration 0011; db/schema-aggregates.ts says which lines are
 * discounts), not by VAT rate or payment method.
 */
import { z } from 'zod';
import { BI_COMPARISONS, BI_DIMENSIONS, BI_MEASURES } from './bi-choices.ts';
import { parseWireDate } from './dates.ts';
import { ID_LIST_TEXT } from './integers.ts';

export * from './bi-choices.ts';

const WireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');

/** Comma-separated ids (`1,2,3`); empty or absent = every site of the caller's scope. */
const SiteList = z
  .string()
  .regex(ID_LIST_TEXT, 'comma-separated site ids')
  .optional()
  .transform((v) => (v ? v.split(',').map(Number) : []))
  .pipe(z.array(z.number().int().min(1).max(2147483647)))
  .describe('restaurantIds, comma-separated; empty or absent = every site of the scope');

/** Longest period of the explorer and the key figures, in days (two years and a bit). */
export const BI_MAX_DAYS = 731;

/** Query of GET bo/bi/explore. */
export const BiExploreQuerySchema = z.object({
  id: z.coerce.number().int().min(1).max(2147483647).describe('id of the signed-in user'),
  sites: SiteList,
  dateDebut: WireDate.describe('first fiscal date, YYYY-MM-DD'),
  dateFin: WireDate.describe('last fiscal date, YYYY-MM-DD (included)'),
  measure: z.enum(BI_MEASURES),
  dimension1: z.enum(BI_DIMENSIONS).optional(),
  dimension2: z.enum(BI_DIMENSIONS).optional(),
  comparison: z.enum(BI_COMPARISONS).default('YEAR'),
  format: z.enum(['JSON', 'CSV', 'XLSX']).default('JSON'),
  language: z.enum(['fr', 'en', 'de']).default('fr').describe('language of the labels and of an export'),
});
export type BiExploreQuery = z.infer<typeof BiExploreQuerySchema>;

/** A period, both ends included. */
export const BiPeriodSchema = z.object({ dateDebut: z.string(), dateFin: z.string() });

/** One row of the explorer: a combination of the dimensions' values. */
export const BiRowSchema = z.object({
  keys: z
    .array(z.string().nullable())
    .describe('raw key per dimension (null: none, e.g. a line with no family)'),
  labels: z.array(z.string()).describe('label per dimension, in the request language'),
  value: z.number().nullable().describe('measure over the period; null when the row has no data there'),
  comparisonValue: z.number().nullable().describe('measure over the comparison period; null: no data'),
});
export type BiRow = z.infer<typeof BiRowSchema>;

/** Answer of GET bo/bi/explore (format JSON). */
export const BiExploreAnswerSchema = z.object({
  data: z.object({
    measure: z.enum(BI_MEASURES),
    dimensions: z.array(z.enum(BI_DIMENSIONS)),
    currency: z.string(),
    period: BiPeriodSchema,
    comparison: BiPeriodSchema.extend({ kind: z.enum(BI_COMPARISONS) }),
    rows: z.array(BiRowSchema),
    total: z.object({ value: z.number().nullable(), comparisonValue: z.number().nullable() }),
  }),
});
export type BiExploreAnswer = z.infer<typeof BiExploreAnswerSchema>;

/**
 * A view of the explorer as the screen kept it in local storage before a favourite could hold
 * one (contract/favourites.ts `bi`); read only to offer moving them (features/favourites/legacy-bi-views.ts).
 */
export const BiViewSchema = z.object({
  name: z.string().min(1).max(80),
  measure: z.enum(BI_MEASURES),
  dimension1: z.enum(BI_DIMENSIONS).nullable(),
  dimension2: z.enum(BI_DIMENSIONS).nullable(),
  comparison: z.enum(BI_COMPARISONS),
});
export type BiView = z.infer<typeof BiViewSchema>;

/** Query of GET bo/bi/totalKPI. */
export const BiKpiQuerySchema = z.object({
  id: BiExploreQuerySchema.shape.id,
  sites: SiteList,
  dateDebut: WireDate.describe('first fiscal date, YYYY-MM-DD'),
  dateFin: WireDate.describe('last fiscal date, YYYY-MM-DD (included)'),
});

/**
 * Key figures of one line (chain, company, group or site) over one period. Rates are fractions
 * (0.02 = 2 %); null when they have no base (no ticket).
 */
export const BiFiguresSchema = z.object({
  netCents: z.number().int(),
  tickets: z.number().int(),
  averageTicketCents: z.number().int().nullable(),
  covers: z.number().int(),
  itemsPerTicket: z.number().nullable(),
  cancellationRate: z.number().nullable().describe('cancellation tickets ÷ sale tickets'),
  correctionRate: z.number().nullable().describe('voided lines ÷ (kept + voided lines)'),
  cashVarianceCents: z
    .number()
    .int()
    .nullable()
    .describe('Σ counted − expected of the latest cash count of each terminal and day; null: none'),
});
export type BiFigures = z.infer<typeof BiFiguresSchema>;

/**
 * How complete the year-before data is: FULL (every site had sales on at least 90 % of the days
 * the current period has), PARTIAL, or NONE. Issue #20 item 13: no percentage on a partial base.
 */
export const BI_COVERAGES = ['FULL', 'PARTIAL', 'NONE'] as const;

/** One line of the key figures. */
export const BiKpiLineSchema = z.object({
  level: z.enum(['CHAIN', 'COMPANY', 'GROUP', 'SITE']),
  key: z.string().describe('`chain`, or the company, group or site id'),
  label: z.string(),
  current: BiFiguresSchema,
  yearBefore: BiFiguresSchema,
  yearBeforeCoverage: z.enum(BI_COVERAGES),
  forecastCents: z
    .number()
    .int()
    .nullable()
    .describe('forecast net sales of the period; null: none (or a period over 62 days)'),
  forecastLowCents: z
    .number()
    .int()
    .optional()
    .describe(
      'low end of the forecast’s 80 % range for the period, cents (issue #31); absent without forecast',
    ),
  forecastHighCents: z.number().int().optional().describe('high end of that range, cents'),
  sparkline: z.array(z.number().int()).describe('net sales per fiscal date of the period, cents'),
});
export type BiKpiLine = z.infer<typeof BiKpiLineSchema>;

/** Answer of GET bo/bi/totalKPI. */
export const BiKpiAnswerSchema = z.object({
  data: z.object({
    currency: z.string(),
    period: BiPeriodSchema,
    yearBefore: BiPeriodSchema,
    lines: z.array(BiKpiLineSchema),
  }),
});
export type BiKpiAnswer = z.infer<typeof BiKpiAnswerSchema>;

/** Query of GET bo/bi/tracker. */
export const BiTrackerQuerySchema = z.object({
  id: BiExploreQuerySchema.shape.id,
  sites: SiteList,
});

/** One site of the tracker: today hour by hour (local hours 0–23 of the site's clock). */
export const BiTrackerSiteSchema = z.object({
  siteId: z.number().int(),
  libelle: z.string(),
  fiscalDate: z.string().describe("the site's fiscal date today"),
  hours: z.array(
    z.object({
      hour: z.number().int().min(0).max(23),
      netCents: z.number().int(),
      tickets: z.number().int(),
      lastYearCents: z.number().int().describe('same weekday 364 days earlier, same hour'),
    }),
  ),
  netCents: z.number().int().describe('today so far, the current hour included'),
  netSoFarCents: z
    .number()
    .int()
    .nullable()
    .default(null)
    .describe(
      'today, the hours already over (until `until`): what lastYearSameTimeCents compares with; the server always sends it (null only in a copy kept by an earlier version)',
    ),
  lastYearSameTimeCents: z
    .number()
    .int()
    .describe("364 days earlier, the same hours (the hours of today already over, on the site's clock)"),
  until: z
    .string()
    .nullable()
    .default(null)
    .describe("HH:MM of the site's clock where the compared hours end (its day start when none is over yet)"),
  lastYearDayCents: z.number().int().describe('364 days earlier, whole day'),
  forecastCents: z.number().int().nullable().describe("today's forecast, whole day; null: none"),
  rank: z.number().int().describe('1 = highest sales so far today'),
});
export type BiTrackerSite = z.infer<typeof BiTrackerSiteSchema>;

/** Answer of GET bo/bi/tracker. */
export const BiTrackerAnswerSchema = z.object({
  data: z.object({
    currency: z.string(),
    refreshedAt: z.string().describe('ISO instant the figures were read'),
    sites: z.array(BiTrackerSiteSchema),
  }),
});
export type BiTrackerAnswer = z.infer<typeof BiTrackerAnswerSchema>;
