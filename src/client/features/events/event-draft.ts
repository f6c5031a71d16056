/**
 * The event form's model (SPEC.md §5: event type, sales channel, designation, impact type and
 * impact rate required — PLU optional per issue #19 —, start not after end; at least one site):
 * what was typed (a draft, kept as typed when a save is refused), the checks made before sending,
 * and where a refusal of the server shows (its `details.field`, contract/events.ts). Each error
 * is a catalogue id; the form translates it at its field.
 */
import {
  type EventType,
  type ImpactType,
  type LocalEvent,
  type LocalEventInput,
  LocalEventInputSchema,
  type SalesChannel,
} from '../../../contract/events.ts';
import { ApiFailure } from '../../lib/http.ts';

/** The form's fields, named as the wire's. */
export const EVENT_FIELDS = [
  'typeEvenement',
  'designation',
  'canalVente',
  'plu',
  'typeImpact',
  'tauxImpact',
  'dateDebut',
  'dateFin',
  'perim_affects',
] as const;
export type EventField = (typeof EVENT_FIELDS)[number];

/** What the form holds: choices not yet made are null; the rate as typed; sites as picker ids. */
export interface EventDraft {
  uuid_evt: string | null;
  typeEvenement: EventType | null;
  designation: string;
  canalVente: SalesChannel | null;
  plu: string;
  typeImpact: ImpactType | null;
  /** As typed: `12,5` or `12.5` (percent). */
  tauxImpact: string;
  /** Wire dates, or null while empty or not a real date. */
  dateDebut: string | null;
  dateFin: string | null;
  /** Site ids as text (the picker's keys). */
  perim_affects: string[];
}

/** A catalogue id per refused field. */
export type DraftErrors = Partial<Record<EventField, string>>;

/** The draft of `event` to change, or of a new event on `day` for `sites`. */
export function draftOf(event: LocalEvent | null, day: string, sites: readonly number[]): EventDraft {
  if (event) {
    return {
      uuid_evt: event.uuid_evt,
      typeEvenement: event.typeEvenement,
      designation: event.designation,
      canalVente: event.canalVente,
      plu: event.plu ?? '',
      typeImpact: event.typeImpact,
      tauxImpact: String(event.tauxImpact),
      dateDebut: event.dateDebut,
      dateFin: event.dateFin,
      perim_affects: event.perim_affects.map(String),
    };
  }
  return {
    uuid_evt: null,
    typeEvenement: null,
    designation: '',
    canalVente: 'ALL',
    plu: '',
    typeImpact: null,
    tauxImpact: '',
    dateDebut: day,
    dateFin: day,
    perim_affects: sites.map(String),
  };
}

/** The rate typed (a comma or a point as decimal mark), or null when it is not a number. */
export function parseRate(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

/** The errors of the fields the user must fill in (SPEC.md §5). */
function missingFields(draft: EventDraft): DraftErrors {
  const errors: DraftErrors = {};
  const required = 'events.error.required';
  if (draft.typeEvenement === null) errors.typeEvenement = required;
  if (draft.designation.trim() === '') errors.designation = required;
  if (draft.canalVente === null) errors.canalVente = required;
  if (draft.typeImpact === null) errors.typeImpact = required;
  if (draft.tauxImpact.trim() === '') errors.tauxImpact = required;
  if (draft.dateDebut === null) errors.dateDebut = 'events.error.date';
  if (draft.dateFin === null) errors.dateFin = 'events.error.date';
  if (draft.perim_affects.length === 0) errors.perim_affects = 'events.error.sites';
  return errors;
}

/**
 * Checks the draft as the server will (the contract's schema), so most refusals show before
 * anything is sent; answers the input to send, or the errors by field.
 */
export function checkDraft(
  draft: EventDraft,
): { ok: true; input: LocalEventInput } | { ok: false; errors: DraftErrors } {
  const errors = missingFields(draft);
  const rate = parseRate(draft.tauxImpact);
  if (!errors.tauxImpact && (rate === null || rate > 1000)) errors.tauxImpact = 'events.error.rate';
  if (draft.dateDebut && draft.dateFin && draft.dateDebut > draft.dateFin)
    errors.dateFin = 'error.dateFinTooEarly';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = LocalEventInputSchema.safeParse({
    ...(draft.uuid_evt ? { uuid_evt: draft.uuid_evt } : {}),
    typeEvenement: draft.typeEvenement,
    designation: draft.designation,
    canalVente: draft.canalVente,
    plu: draft.plu,
    typeImpact: draft.typeImpact,
    tauxImpact: rate,
    dateDebut: draft.dateDebut,
    dateFin: draft.dateFin,
    perim_affects: draft.perim_affects.map(Number),
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  const field = EVENT_FIELDS.find((f) => f === parsed.error.issues[0]?.path[0]) ?? 'designation';
  return { ok: false, errors: { [field]: 'events.error.invalid' } };
}

/**
 * Where the server's refusal `error` shows: at the field it names (`details.field`), translated
 * from its code (`dateFinTooEarly`, a site outside the scope, any other refused value); null
 * when it names no field of the form (the form tells it above its buttons).
 */
export function fieldErrorOf(error: unknown): DraftErrors | null {
  if (!(error instanceof ApiFailure)) return null;
  const field = EVENT_FIELDS.find((f) => f === error.details?.field);
  if (!field) return null;
  if (error.code === 'dateFinTooEarly') return { [field]: 'error.dateFinTooEarly' };
  if (error.code === 'Forbidden') return { [field]: 'events.error.sitesForbidden' };
  return { [field]: 'events.error.invalid' };
}
