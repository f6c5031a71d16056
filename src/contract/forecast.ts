/**
 * Wire shape of the sales forecast and its measured reliability (issue #19; SPEC.md §1 "sales
 * forecasts … with forecast and reliability", §7 GET withCredentials/collab/previsions).
 *
 * GET withCredentials/collab/previsions?id&sites&dateDebut&dateFin answers, per chosen site of
 * the caller's scope and per fiscal date of the period (at most 62 days), the forecast net sales
 * (cents incl. VAT) per day part (contract/day-parts.ts, SPEC.md §9) and in total, the actual
 * sales where the day has any, the events of that day, and the site's reliability: the WAPE and
 * bias of the same method on a rolling backtest of the last 8 weeks (each week forecast from the
 * data before it), overall, per day part and per horizon band (1–7, 8–14 days ahead), with the
 * share of days inside their 80 % range; and (issue #31) each day's and day part's 80 % range,
 * low and high in cents. The new fields are optional so copies saved offline before them still
 * read. The method is named in
 * docs/decisions/0017-sales-forecast-method.md.
 */
import { z } from 'zod';
import { DAY_PARTS, type DayPartKey } from './day-parts.ts';

const DAY_PART_KEYS = DAY_PARTS.map((p) => p.key) as [DayPartKey, ...DayPartKey[]];

/** WAPE and bias of a backtest: both fractions (0.12 = 12 %); null when there was no history. */
export const ReliabilitySchema = z.object({
  wape: z.number().nullable().describe('Σ|actual − forecast| ÷ Σ actual over the backtest weeks'),
  bias: z.number().nullable().describe('Σ(forecast − actual) ÷ Σ actual; > 0 = over-forecast'),
  weeks: z.number().int().describe('backtest weeks that had sales (0–8)'),
  coverage: z
    .number()
    .nullable()
    .optional()
    .describe('share of the backtest days whose actual sales fell inside their 80 % range (issue #31)'),
  horizonDays: z
    .number()
    .int()
    .optional()
    .describe('the backtest forecast 1 to this many days ahead (issue #31; absent in answers before it)'),
  byHorizon: z
    .array(
      z.object({
        fromDay: z.number().int().describe('first day ahead of the band (1 = the day after the origin)'),
        toDay: z.number().int().describe('last day ahead of the band, inclusive'),
        wape: z.number().nullable(),
        bias: z.number().nullable(),
        coverage: z.number().nullable().describe('share of days inside their 80 % range'),
        weeks: z.number().int().describe('backtest weeks measured for this band'),
      }),
    )
    .optional()
    .describe('the same measures per horizon band, 1–7 and 8–14 days ahead (issue #31)'),
});
export type Reliability = z.infer<typeof ReliabilitySchema>;

/** Below this many measured backtest weeks a site has too little history for its figures to mean much. */
export const MIN_RELIABLE_WEEKS = 4;

/** A day part's share of the day below which its forecast is marked uncertain (engine.ts SMALL_PART_SHARE). */
export const SMALL_PART_SHARE = 0.15;

/** One fiscal date of one site. */
export const ForecastDaySchema = z.object({
  fiscalDate: z.string().describe('YYYY-MM-DD'),
  forecastCents: z.number().int().describe('forecast net sales incl. VAT, cents; 0 on a closed day'),
  lowCents: z
    .number()
    .int()
    .optional()
    .describe('low end of the 80 % range (10th percentile), cents (issue #31; absent in answers before it)'),
  highCents: z.number().int().optional().describe('high end of the 80 % range (90th percentile), cents'),
  dayParts: z.array(
    z.object({
      key: z.enum(DAY_PART_KEYS),
      forecastCents: z.number().int(),
      lowCents: z.number().int().optional().describe('low end of the part’s own 80 % range, cents'),
      highCents: z.number().int().optional().describe('high end of the part’s own 80 % range, cents'),
      uncertain: z
        .boolean()
        .optional()
        .describe(
          'true for a part that is a small share of the day (< 15 %): read its range, not its figure',
        ),
    }),
  ),
  holiday: z.string().optional().describe('name of the public holiday of the day, in the site’s country'),
  actualCents: z.number().int().nullable().describe('actual net sales so far; null for a day to come'),
  events: z.array(z.string().uuid()).describe('uuid_evt of the events applied to this day'),
});
export type ForecastDay = z.infer<typeof ForecastDaySchema>;

/** Answer of GET previsions. */
export const ForecastAnswerSchema = z.object({
  data: z.object({
    method: z.string().describe('short name of the method, as in decision 0017'),
    currency: z.string(),
    sites: z.array(
      z.object({
        siteId: z.number().int(),
        days: z.array(ForecastDaySchema),
        reliability: ReliabilitySchema.extend({
          byDayPart: z.array(z.object({ key: z.enum(DAY_PART_KEYS) }).merge(ReliabilitySchema)),
        }),
      }),
    ),
  }),
});
export type ForecastAnswer = z.infer<typeof ForecastAnswerSchema>;
