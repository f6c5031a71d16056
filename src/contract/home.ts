/**
 * Wire shapes of the home dashboard's widgets (SPEC.md §1 "home dashboards with sales figures,
 * financial receipts and safe counting with manager countersignature, sales forecasts and local
 * events", §7 GET bo/home/{widget}?id&sites&datePerso…; issue #19 "Home").
 *
 * Every answer is `{ data }` (SPEC.md §7: "the answer data is read"); amounts are integer cents
 * including VAT; dates are wire fiscal dates `YYYY-MM-DD`.
 *
 * Who sees which widget (issue #17 item 8: a widget needs the right of the data it shows; the
 * route's API_RIGHTS entry stays `session`, the route checks {@link HOME_WIDGET_RIGHTS} and
 * answers 403 `Forbidden` otherwise): see {@link HOME_WIDGET_RIGHTS}.
 */
import { z } from 'zod';
import { DAY_PARTS, type DayPartKey } from './day-parts.ts';
import { LocalEventSchema } from './events.ts';
import { ForecastDaySchema, ReliabilitySchema } from './forecast.ts';
import type { Right } from './rights.ts';

/** Widgets of GET bo/home/{widget}, in the order the home screen shows them. */
export const HOME_WIDGETS = ['ventes', 'coffre', 'previsions', 'evenements'] as const;
export type HomeWidget = (typeof HOME_WIDGETS)[number];

/**
 * The rights of each widget: the user must hold at least one. `coffre` shows only the parts the
 * user's rights allow (safe: COFFRE, cash counts: COMPTAGE, manager receipts: RECUS).
 */
export const HOME_WIDGET_RIGHTS = {
  ventes: ['RAPPORTS', 'BI'],
  coffre: ['COFFRE', 'RECUS', 'COMPTAGE'],
  previsions: ['RAPPORTS', 'BI'],
  evenements: ['RAPPORTS', 'BI', 'EVENEMENTS'],
} as const satisfies Record<HomeWidget, readonly Right[]>;

/** True when `widget` is one of {@link HOME_WIDGETS}. */
export function isHomeWidget(widget: string): widget is HomeWidget {
  return (HOME_WIDGETS as readonly string[]).includes(widget);
}

/** True when a user holding `rights` may see `widget` ({@link HOME_WIDGET_RIGHTS}). */
export function maySeeWidget(widget: HomeWidget, rights: readonly string[]): boolean {
  return HOME_WIDGET_RIGHTS[widget].some((r) => rights.includes(r));
}

/** Days the `evenements` widget looks ahead, datePerso included. */
export const HOME_EVENT_DAYS = 14;
/** Counts waiting for a countersignature the `coffre` widget lists (the newest). */
export const HOME_AWAITING_SHOWN = 5;
/** Days the `previsions` widget answers: datePerso and the 7 following. */
export const HOME_FORECAST_DAYS = 8;

const DAY_PART_KEYS = DAY_PARTS.map((p) => p.key) as [DayPartKey, ...DayPartKey[]];

/** One fiscal date's sales of the chosen sites. */
const HomeDaySchema = z.object({
  fiscalDate: z.string(),
  tickets: z.number().int(),
  netSales: z.number().int().describe('cents incl. VAT'),
  averageTicket: z.number().int().describe('round(netSales / tickets), 0 without a ticket'),
  covers: z.number().int(),
});
export type HomeDay = z.infer<typeof HomeDaySchema>;

/**
 * GET bo/home/ventes: `days` holds datePerso-1 then datePerso (so far); `lastYear` the same
 * weekday a year earlier (datePerso − 364 days), whole day; `dayParts` datePerso, last year and
 * the forecast per day part (SPEC.md §9, contract/day-parts.ts, in its order); `forecastCents` the
 * day's forecast, null where none could be made; `soFar` like for like (decision 0028).
 */
export const HomeSalesAnswerSchema = z.object({
  data: z.object({
    currency: z.string(),
    days: z.array(HomeDaySchema),
    lastYear: HomeDaySchema,
    soFar: z
      .object({
        until: z
          .string()
          .nullable()
          .describe("HH:MM of the sites' clock the hours counted end at; null when the sites differ"),
        today: HomeDaySchema.describe('datePerso, the hours fully elapsed only'),
        lastYear: HomeDaySchema.describe('the same weekday a year earlier, the same hours'),
      })
      .nullable()
      .default(null) // absent from an offline copy kept by an earlier version: compare the whole days
      .describe(
        "While datePerso is under way at a chosen site: today and last year's same day up to the same hour of each site's clock, the current hour on neither side; tickets and covers by the hour they opened in. Null for a past datePerso (compare the whole days).",
      ),
    forecastCents: z.number().int().nullable(),
    dayParts: z.array(
      z.object({
        key: z.enum(DAY_PART_KEYS),
        netSales: z.number().int(),
        lastYearNetSales: z.number().int(),
        forecastCents: z.number().int().nullable(),
      }),
    ),
  }),
});
export type HomeSalesAnswer = z.infer<typeof HomeSalesAnswerSchema>;

/** A safe count as the `coffre` widget shows it. */
const HomeSafeCountSchema = z.object({
  id: z.number().int(),
  restaurantId: z.number().int(),
  libelle: z.string(),
  dateFiscale: z.string(),
  countedCents: z.number().int(),
  varianceCents: z.number().int().describe('counted − expected'),
  countedAt: z.string().describe('ISO 8601 instant'),
  countersigned: z.boolean(),
});
export type HomeSafeCount = z.infer<typeof HomeSafeCountSchema>;

/**
 * GET bo/home/coffre for fiscal date datePerso ("yesterday" = datePerso − 1). Each part is null
 * when the user lacks its right:
 * - `safe` (COFFRE): the latest safe count of each site up to datePerso (null: never counted),
 *   how many latest counts of the last 31 days still wait for a countersignature and the
 *   {@link HOME_AWAITING_SHOWN} newest of them (sign on /analyses/coffre), and the sites with no
 *   safe count yesterday (reminder: envoieMailManquant);
 * - `cashCounts` (COMPTAGE): per site, the terminals that sold yesterday and have no cash count
 *   (count on /analyses/comptageCaisses; reminder: envoieMailManquant with `caisse`);
 * - `receipts` (RECUS): the manager receipts of datePerso, their number and total.
 */
export const HomeSafeAnswerSchema = z.object({
  data: z.object({
    fiscalDate: z.string(),
    yesterday: z.string(),
    currency: z.string(),
    safe: z
      .object({
        lastCounts: z.array(
          z.object({
            restaurantId: z.number().int(),
            libelle: z.string(),
            count: HomeSafeCountSchema.nullable(),
          }),
        ),
        awaitingSignature: z
          .array(HomeSafeCountSchema)
          .describe(
            `the latest ${HOME_AWAITING_SHOWN} waiting, newest first; all of them are on /analyses/coffre`,
          ),
        awaitingSignatureCount: z.number().int().describe('how many are waiting in all'),
        missingYesterday: z.array(z.object({ restaurantId: z.number().int(), libelle: z.string() })),
      })
      .nullable(),
    cashCounts: z
      .object({
        missingYesterday: z.array(
          z.object({
            restaurantId: z.number().int(),
            libelle: z.string(),
            caisses: z.array(z.number().int()).describe('terminals that sold and were not counted'),
          }),
        ),
      })
      .nullable(),
    receipts: z
      .object({
        count: z.number().int(),
        totalCents: z.number().int().describe('Σ complements.montantCents'),
      })
      .nullable(),
  }),
});
export type HomeSafeAnswer = z.infer<typeof HomeSafeAnswerSchema>;

/**
 * GET bo/home/previsions: per chosen site, the forecast of datePerso and the 7 days after it
 * (src/server/forecast; its method named by `method`, decision 0017) with its 80 % range, and
 * the site's measured reliability over the last 8 weeks, per horizon band (contract/forecast.ts).
 */
export const HomeForecastAnswerSchema = z.object({
  data: z.object({
    method: z.string(),
    currency: z.string(),
    sites: z.array(
      z.object({
        restaurantId: z.number().int(),
        libelle: z.string(),
        days: z.array(
          ForecastDaySchema.pick({
            fiscalDate: true,
            forecastCents: true,
            actualCents: true,
            lowCents: true,
            highCents: true,
          }),
        ),
        reliability: ReliabilitySchema,
      }),
    ),
  }),
});
export type HomeForecastAnswer = z.infer<typeof HomeForecastAnswerSchema>;

/**
 * GET bo/home/evenements: the local events of the chosen sites that touch datePerso and the
 * {@link HOME_EVENT_DAYS} − 1 days after it, by start then designation; `perim_affects` keeps only
 * the sites of the caller's scope.
 */
export const HomeEventsAnswerSchema = z.object({
  data: z.object({
    dateDebut: z.string(),
    dateFin: z.string(),
    // `plu` redeclared without the input's transform: an answer is encoded, and a transform cannot be.
    evenements: z.array(LocalEventSchema.extend({ plu: z.string().nullable() })),
  }),
});
export type HomeEventsAnswer = z.infer<typeof HomeEventsAnswerSchema>;

/** Any widget's answer (the route's 200 schema). */
export const HomeWidgetAnswerSchema = z.union([
  HomeSalesAnswerSchema,
  HomeSafeAnswerSchema,
  HomeForecastAnswerSchema,
  HomeEventsAnswerSchema,
]);
