/**
 * A message as the /config/messages form holds it while it is typed, the checks made before any
 * call (the server's rules of src/contract/administration.ts MessageInputSchema and
 * messages/admin-messages.ts, so a refusal shows at its field at once), and where a refusal of
 * the server shows.
 */
import { TZDate } from '@date-fns/tz';
import {
  type AdminMessage,
  DEFAULT_MESSAGE_TIME_ZONE,
  LANGUAGES,
  type MessageInput,
  type SEVERITIES,
} from '../../../contract/administration.ts';
import { toWireDate } from '../../../contract/dates.ts';
import { ApiFailure } from '../../lib/http.ts';

export type MessageLanguage = (typeof LANGUAGES)[number];
export type Severity = (typeof SEVERITIES)[number];

/** The form's state: a text per language ('' when none), wire dates or null, targets as picker ids. */
export interface MessageDraft {
  texts: Record<MessageLanguage, string>;
  severity: Severity;
  fromDate: string | null;
  toDate: string | null;
  /** Site ids (restaurantId) as text, the multi-picker's ids. */
  restaurantIds: string[];
  /** Profile ids as text. */
  profileIds: string[];
}

/** A field of the form that a refusal can name (the server's `details.field`). */
export type MessageField = 'texts' | 'fromDate' | 'toDate' | 'restaurantIds' | 'profileIds';
const FIELDS: readonly MessageField[] = ['texts', 'fromDate', 'toDate', 'restaurantIds', 'profileIds'];

/** Refusals by field: catalogue message ids (`messages.error.*`). */
export type DraftErrors = Partial<Record<MessageField, string>>;

/** First and last of a span of wire dates (YYYY-MM-DD), inclusive. */
export interface DateSpan {
  from: string;
  to: string;
}

/**
 * "Today" for the readers of a message: the calendar dates at `now` in the IANA `zones` of the
 * sites it may reach, first and last (wire dates). The server shows a message to a user when one
 * of their sites' today lies within its fromDate..toDate (messages/user-messages.ts), so a message
 * for today must start on the earliest of those dates and end on the latest, whatever zone the
 * administrator's browser is in. No zone: {@link DEFAULT_MESSAGE_TIME_ZONE}'s today.
 */
export function todaysSpan(zones: readonly string[], now: Date = new Date()): DateSpan {
  const dates = (zones.length > 0 ? [...new Set(zones)] : [DEFAULT_MESSAGE_TIME_ZONE])
    .map((zone) => toWireDate(new TZDate(now.getTime(), zone)))
    .sort();
  return { from: dates[0] ?? toWireDate(now), to: dates.at(-1) ?? toWireDate(now) };
}

/**
 * An empty draft (an info message for `today`, a span of wire dates from todaysSpan), or
 * `message` to edit.
 */
export function draftOf(message: AdminMessage | null, today: DateSpan): MessageDraft {
  if (!message) {
    return {
      texts: { fr: '', en: '', de: '' },
      severity: 'info',
      fromDate: today.from,
      toDate: today.to,
      restaurantIds: [],
      profileIds: [],
    };
  }
  return {
    texts: { fr: message.texts.fr ?? '', en: message.texts.en ?? '', de: message.texts.de ?? '' },
    severity: message.severity,
    fromDate: message.fromDate,
    toDate: message.toDate,
    restaurantIds: message.restaurantIds.map(String),
    profileIds: message.profileIds.map(String),
  };
}

/**
 * The draft as the body of newMessage / saveMessage, or what is wrong with it: no text in any
 * language (SPEC.md §5 "no field may be empty"), a date missing, the end before the start.
 */
export function checkDraft(
  draft: MessageDraft,
): { ok: true; input: MessageInput } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const texts: MessageInput['texts'] = {};
  for (const language of LANGUAGES) {
    const text = draft.texts[language].trim();
    if (text !== '') texts[language] = text;
  }
  if (Object.keys(texts).length === 0) errors.texts = 'messages.error.texts';
  if (draft.fromDate === null) errors.fromDate = 'messages.error.dateRequired';
  if (draft.toDate === null) errors.toDate = 'messages.error.dateRequired';
  else if (draft.fromDate !== null && draft.toDate < draft.fromDate) errors.toDate = 'messages.error.toDate';
  if (Object.keys(errors).length > 0 || draft.fromDate === null || draft.toDate === null) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    input: {
      texts,
      severity: draft.severity,
      fromDate: draft.fromDate,
      toDate: draft.toDate,
      restaurantIds: draft.restaurantIds.map(Number),
      profileIds: draft.profileIds.map(Number),
    },
  };
}

/**
 * Where the server's refusal `error` shows: at its field when it is an `InvalidField` naming one
 * of the form's (`{ field: messageId }`), else null (the form tells it above its buttons).
 */
export function fieldErrorOf(error: unknown): DraftErrors | null {
  if (!(error instanceof ApiFailure) || error.code !== 'InvalidField') return null;
  const field = FIELDS.find((f) => f === error.details?.field);
  if (!field) return null;
  return { [field]: `messages.error.${field}` };
}

/** Longest text of one language (MessageInputSchema's limit). */
export const MESSAGE_TEXT_MAX = 2000;
