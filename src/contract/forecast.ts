/**
 * Wire shape of the sales forecast and its measured reliability (issue #19; SPEC.md §1 "sales
 * forecasts … with forecast and reliability", §7 GET withCredentials/collab/previsions).
 *
 * GET withCredentials/collab/previsions?id&sites&dateDebut&dateFin answers, per chosen site of
 * the caller's scope and per fiscal date of the period (at most 62 days), the forecast net sales
 * (cents incl. VAT) per day part (contract/day-parts.ts, SPEC.md §9) and in total, the actual
 * sales where the day has any, the events of that day, and the site's reliability: the WAPE and
 * bias of the same method on a rolling backtest of the last 8 weeks (each week forecast from the
 * data before it), overall and per day part. The method is named in
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
});
export type Reliability = z.infer<typeof ReliabilitySchema>;

/** One fiscal date of one site. */
export const ForecastDaySchema = z.object({
  fiscalDate: z.string().describe('YYYY-MM-DD'),
  forecastCents: z.number().int().describe('forecast net sales incl. VAT, cents; 0 on a closed day'),
  dayParts: z.array(z.object({ key: z.enum(DAY_PART_KEYS), forecastCents: z.number().int() })),
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
