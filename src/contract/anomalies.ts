/**
 * Anomalies (issue #19, right RAPPORTS_ANOMALIES): sellers and terminals whose cancellations,
 * corrections, discounts or cash variances stand out against their peers AND their own history,
 * shown on /anomalies. The method (robust z-score, threshold, minimum volumes) is
 * docs/decisions/0019-anomalies-robust-z-score.md's; its constants live here so the screen can
 * say them.
 *
 * `GET bo/bi/anomalies?id&sites&dateDebut&dateFin` (house style of SPEC.md §7): `sites`
 * comma-separated restaurantIds (absent = every site of the caller's scope, SPEC.md §5);
 * `dateDebut`/`dateFin` the period (absent = the 4 weeks ending yesterday). The own history is
 * the {@link HISTORY_WEEKS} weeks before `dateDebut`.
 *
 * Measures (every one a rate, so a busy seller is not flagged for being busy; training-mode
 * tickets left out; a ticket with no seller or no terminal counts for no seller / terminal):
 * - `cancellations`: CANCELLATION tickets per 100 SALE tickets;
 * - `corrections`: corrected (voided) lines per 100 lines of SALE tickets;
 * - `discounts`: discount lines (a negative-amount line of a SALE ticket, as POS exports write
 *   discounts) per 100 SALE tickets;
 * - `discountShare`: what those lines took off, in percent of the SALE tickets' positive lines;
 * - `cashVariance` (terminals only): mean |counted cash − expected cash| per cash count, cents of
 *   the site's currency (the last version of each day's count).
 */
import { z } from 'zod';
import { ID_LIST_TEXT } from './integers.ts';

/** Robust z-score both comparisons must exceed (Iglewicz & Hoaglin's 3.5). */
export const ANOMALY_THRESHOLD = 3.5;
/** Weeks of the entity's own history the period is compared with. */
export const HISTORY_WEEKS = 8;
/** Length of the default period, in days (4 weeks, ending yesterday). */
export const DEFAULT_PERIOD_DAYS = 28;
/** Longest period one call may cover (beyond it: 400 MaxReportDays with `details.maxDays`). */
export const ANOMALY_MAX_DAYS = 93;

export const ANOMALY_MEASURES = [
  'cancellations',
  'corrections',
  'discounts',
  'discountShare',
  'cashVariance',
] as const;
export const AnomalyMeasureSchema = z.enum(ANOMALY_MEASURES);
export type AnomalyMeasure = z.infer<typeof AnomalyMeasureSchema>;

export const ANOMALY_ENTITY_KINDS = ['seller', 'terminal'] as const;
export const AnomalyEntityKindSchema = z.enum(ANOMALY_ENTITY_KINDS);
export type AnomalyEntityKind = z.infer<typeof AnomalyEntityKindSchema>;

/** Query of GET bo/bi/anomalies. */
export const AnomalyQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(2147483647).describe('id of the signed-in user'),
  sites: z
    .string()
    .regex(ID_LIST_TEXT, 'restaurantIds, comma-separated')
    .refine(
      (v) => v.split(',').every((id) => Number(id) <= 2147483647),
      'a restaurantId is at most 2147483647',
    )
    .optional()
    .describe('restaurantIds, comma-separated; absent = every site of the user (SPEC.md §5)'),
  dateDebut: z.string().optional().describe('first fiscal date YYYY-MM-DD; absent = 28 days before dateFin'),
  dateFin: z.string().optional().describe('last fiscal date YYYY-MM-DD (included); absent = yesterday'),
});
export type AnomalyQuery = z.infer<typeof AnomalyQuerySchema>;

/** One flagged (entity, measure). Rates as the measure says; z-scores unitless. */
export const AnomalySchema = z.object({
  siteId: z.number().int(),
  site: z.string().describe('libelle of the site'),
  currency: z.string().describe("the site's currency (cashVariance values are its cents)"),
  kind: AnomalyEntityKindSchema,
  key: z.string().describe('seller code, or terminal number as text'),
  name: z.string().describe("seller's name or terminal's label; the key when unknown"),
  measure: AnomalyMeasureSchema,
  value: z.number().describe("the entity's measure over the period"),
  peerMedian: z.number().describe('median of the same measure over its peers'),
  peerScope: z
    .enum(['site', 'chain'])
    .describe("peers: the site's other entities, or the chosen sites' when too few"),
  peers: z.number().int().describe('number of peers compared with'),
  historyMedian: z.number().describe("median of the entity's weekly measure over its own history"),
  historyWeeks: z.number().int().describe('weeks of own history that had enough volume'),
  zPeer: z.number().describe('0.6745·(value − peerMedian) / MAD of the peers'),
  zHistory: z.number().describe('0.6745·(value − historyMedian) / MAD of the weekly history'),
  severity: z.number().describe('min(zPeer, zHistory): how far beyond both the flag is'),
  tickets: z
    .number()
    .int()
    .describe("the entity's SALE tickets over the period (cash counts for cashVariance)"),
  events: z
    .number()
    .int()
    .describe('what the rate counts: cancellations, corrected lines, discount lines, cents off, or counts'),
});
export type Anomaly = z.infer<typeof AnomalySchema>;

/** Answer of GET bo/bi/anomalies: flagged entities by severity, largest first. */
export const AnomalyAnswerSchema = z.object({
  dateDebut: z.string(),
  dateFin: z.string(),
  historyDebut: z.string().describe('first day of the own history (dateDebut − 8 weeks)'),
  historyFin: z.string().describe('last day of the own history (dateDebut − 1 day)'),
  threshold: z.number(),
  anomalies: z.array(AnomalySchema),
});
export type AnomalyAnswer = z.infer<typeof AnomalyAnswerSchema>;
