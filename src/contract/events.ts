/**
 * Wire shapes of the local events and their calendar (issue #19; SPEC.md §3 "Event payload:
 * uuid_evt, perim_affects", §5 event form, §7 `withCredentials/collab/*`, §9 impact types).
 * SPEC.md names `uuid_evt` and `perim_affects`; the other field names are ours, in the style of
 * the other calls (`dateDebut`/`dateFin` wire dates `YYYY-MM-DD`, inclusive).
 *
 * - GET withCredentials/collab/configurationEvenements?id&sites&dateDebut&dateFin →
 *   {@link EventConfigurationAnswerSchema}: the choices of the form and the events touching the
 *   period on the chosen sites (of the caller's scope).
 * - PUT withCredentials/collab/addEvenementLocal, body {@link LocalEventInputSchema} (or
 *   `{ evenement, perim_affects }`, {@link AddLocalEventBodySchema}) → the saved event; success
 *   message `eventAdded` (SPEC.md §8).
 * - POST withCredentials/collab/changeEvenementLocal, body an event with its `uuid_evt` → the
 *   saved event; `eventEdited`.
 * - DELETE withCredentials/collab/deleteEvenementLocal?evenement=uuid → `{ uuid_evt }`.
 *
 * Refusals: 400 `BadRequest` with `details.field` for a form error (the client shows it at the
 * field), `dateFinTooEarly` when start is after end (SPEC.md §8), 403 `Forbidden` when a site of
 * `perim_affects` is outside the caller's scope, 404 `NotFound` for an unknown uuid.
 */
import { z } from 'zod';

/** Impact types (SPEC.md §9). */
export const IMPACT_TYPES = ['Positive', 'Negative'] as const;
export type ImpactType = (typeof IMPACT_TYPES)[number];

/** Event types offered by the form (labels `events.type.<key>`); ours, SPEC.md does not list them. */
export const EVENT_TYPES = [
  'CONCERT',
  'SPORT',
  'FAIR',
  'HOLIDAY',
  'WEATHER',
  'ROADWORKS',
  'STRIKE',
  'PROMOTION',
  'OTHER',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sales channels an event may concern (labels `events.channel.<key>`); `ALL` = every channel. */
export const SALES_CHANNELS = ['ALL', 'DINE_IN', 'TAKEAWAY', 'DELIVERY', 'DRIVE'] as const;
export type SalesChannel = (typeof SALES_CHANNELS)[number];

const WireDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/**
 * What the event form sends (SPEC.md §5: type, channel, PLU, designation, impact type and rate
 * required — PLU optional per issue #19; start ≤ end). `tauxImpact` is a percentage, 0–1000.
 */
export const LocalEventInputSchema = z.object({
  uuid_evt: z.string().uuid().optional().describe('absent on add; required on change'),
  typeEvenement: z.enum(EVENT_TYPES),
  designation: z.string().trim().min(1).max(200),
  canalVente: z.enum(SALES_CHANNELS),
  plu: z
    .string()
    .trim()
    .max(50)
    .nullish()
    .transform((v) => (v ? v : null)),
  typeImpact: z.enum(IMPACT_TYPES),
  tauxImpact: z.number().min(0).max(1000).describe('percent, e.g. 15 = 15 %'),
  dateDebut: WireDate.describe('first fiscal date, inclusive'),
  dateFin: WireDate.describe('last fiscal date, inclusive'),
  perim_affects: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(10_000),
});
export type LocalEventInput = z.infer<typeof LocalEventInputSchema>;

/** PUT addEvenementLocal's other accepted body (SPEC.md §7): the event and its sites apart. */
export const AddLocalEventBodySchema = z.union([
  LocalEventInputSchema,
  z.object({
    evenement: LocalEventInputSchema.omit({ perim_affects: true }),
    perim_affects: LocalEventInputSchema.shape.perim_affects,
  }),
]);
export type AddLocalEventBody = z.infer<typeof AddLocalEventBodySchema>;

/**
 * A saved event as answered: the input plus its uuid and who/when. `plu` is plain here: the
 * server serializes answers with zod's encode, which cannot run the input's one-way transform.
 */
export const LocalEventSchema = LocalEventInputSchema.extend({
  uuid_evt: z.string().uuid(),
  plu: z.string().max(50).nullable(),
  creePar: z.string().nullable().describe('login of its author; null when that user is gone'),
  modifieLe: z.string().describe('ISO 8601 instant of the last change'),
});
export type LocalEvent = z.infer<typeof LocalEventSchema>;

/** Answer of GET configurationEvenements. */
export const EventConfigurationAnswerSchema = z.object({
  data: z.object({
    typesEvenement: z.array(z.enum(EVENT_TYPES)),
    canauxVente: z.array(z.enum(SALES_CHANNELS)),
    typesImpact: z.array(z.enum(IMPACT_TYPES)),
    /** Events overlapping [dateDebut, dateFin] on the chosen sites, by start then designation. */
    evenements: z.array(LocalEventSchema),
  }),
});
export type EventConfigurationAnswer = z.infer<typeof EventConfigurationAnswerSchema>;
