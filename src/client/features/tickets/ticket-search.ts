/**
 * Pure rules of /tickets: reading an amount as the user typed it, checking the form, and
 * building the query of `GET bo/tickets/search` (contract/tickets.ts). Kept apart from the
 * components so the tests pin the wire shape and the parsing.
 */
import { daysInclusive } from '../../../contract/dates.ts';
import type { DateRange } from '../../../contract/periods.ts';
import { encodeSellers } from '../../../contract/reports.ts';
import {
  TICKET_CRITERIA,
  TICKET_PAGE_SIZE,
  TICKET_SEARCH_MAX_DAYS,
  type TicketCriterion,
} from '../../../contract/tickets.ts';
import type { SearchParams } from '../../lib/http.ts';

/**
 * The criteria (SPEC.md §9) the signed-in user may search by, in TICKET_CRITERIA order: those
 * the sign-in answered (`allowed`: the user's `criteresTickets`, from the profile's
 * `optionsTickets`, SPEC.md §3).
 * A session stored before the server sent them has none: every criterion then, as the server
 * allowed before options took effect.
 */
export function allowedTicketCriteria(allowed: readonly TicketCriterion[] | undefined): TicketCriterion[] {
  return allowed ? TICKET_CRITERIA.filter((c) => allowed.includes(c)) : [...TICKET_CRITERIA];
}

/** Why an amount cannot be read; message `tickets.amount.error.<code>`. */
export type AmountErrorCode = 'badAmount' | 'tooManyDecimals';

export type AmountReading = { ok: true; cents: number | null } | { ok: false; error: AmountErrorCode };

/** Largest amount accepted, in cents (the server takes at most 12 digits of cents). */
const MAX_CENTS = 999_999_999_999;

/**
 * Reads an amount typed in the user's currency into integer cents (minor units, 2 decimals as
 * everywhere in the app). Empty text means "no bound" (`cents: null`).
 *
 * Accepted: a comma or a point as the decimal mark (`12,5`, `12.50`); spaces, no-break spaces
 * and apostrophes as thousands marks (`1 234,56`, `1'234.56`); a point or comma as thousands
 * mark when the other one is the decimal mark (`1.234,56`, `1,234.56`) or when it repeats
 * (`1.234.567`); a leading minus (refunds, cancellations); a currency sign anywhere.
 * Refused: anything else, and more than two decimals (`tooManyDecimals`) — `1.234` alone is
 * read as 1.234 and so refused rather than guessed to be 1234.
 */
export function parseAmount(text: string): AmountReading {
  const cleaned = text.replace(/[\s\u00a0\u202f'’]|\p{Sc}/gu, '').replace(/^[−–]/, '-');
  if (cleaned === '') return { ok: true, cents: null };
  const m = /^(-?)([\d.,]+)$/.exec(cleaned);
  if (!m) return { ok: false, error: 'badAmount' };
  const negative = m[1] === '-';
  const body = m[2] as string;
  const lastPoint = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  let integer = body;
  let fraction = '';
  if (lastPoint >= 0 || lastComma >= 0) {
    const last = Math.max(lastPoint, lastComma);
    const mark = body[last] as '.' | ',';
    const other = mark === '.' ? ',' : '.';
    const markCount = body.split(mark).length - 1;
    const hasOther = body.includes(other);
    let grouping: string | null;
    if (hasOther) {
      // Both marks: the last one is the decimal mark, the other groups thousands.
      if (markCount > 1) return { ok: false, error: 'badAmount' };
      grouping = other;
      integer = body.slice(0, last);
      fraction = body.slice(last + 1);
    } else if (markCount > 1) {
      grouping = mark; // 1.234.567
    } else {
      grouping = null;
      integer = body.slice(0, last);
      fraction = body.slice(last + 1);
    }
    if (grouping !== null) {
      const groups = integer.split(grouping);
      const [first, ...rest] = groups;
      if (!first || !/^\d{1,3}$/.test(first) || rest.some((g) => !/^\d{3}$/.test(g))) {
        return { ok: false, error: 'badAmount' };
      }
      integer = groups.join('');
    }
  }
  // "12," reads as 12; "," alone, or marks with no digit around them, do not.
  if (!/^\d*$/.test(integer) || !/^\d*$/.test(fraction) || (integer === '' && fraction === '')) {
    return { ok: false, error: 'badAmount' };
  }
  if (fraction.length > 2) return { ok: false, error: 'tooManyDecimals' };
  const cents = Number(integer || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return { ok: false, error: 'badAmount' };
  return { ok: true, cents: negative ? -cents : cents };
}

/** The form's own errors, per field; empty when the search can be sent. */
export interface TicketFormErrors {
  amountMin?: AmountErrorCode;
  amountMax?: AmountErrorCode;
  /** Minimum above maximum. */
  amountRange?: 'minAboveMax';
}

/** Reads both amounts; errors say which field is wrong. */
export function readAmounts(
  amountMin: string,
  amountMax: string,
): {
  errors: TicketFormErrors;
  minCents: number | null;
  maxCents: number | null;
} {
  const min = parseAmount(amountMin);
  const max = parseAmount(amountMax);
  const errors: TicketFormErrors = {};
  if (!min.ok) errors.amountMin = min.error;
  if (!max.ok) errors.amountMax = max.error;
  const minCents = min.ok ? min.cents : null;
  const maxCents = max.ok ? max.cents : null;
  if (minCents !== null && maxCents !== null && minCents > maxCents) errors.amountRange = 'minAboveMax';
  return { errors, minCents, maxCents };
}

/**
 * A check made before calling the server, answered with the server's own code (SPEC.md §8) so the
 * user reads the same message either way: no site (NoSitesSelected), a period beyond the search's
 * maximum (MaxReportDays with `maxDays`).
 */
export function precheckTicketSearch(input: {
  siteIds: readonly number[];
  range: DateRange;
}): { code: string; values?: Record<string, number> } | null {
  if (input.siteIds.length === 0) return { code: 'NoSitesSelected' };
  if (daysInclusive(input.range.dateDebut, input.range.dateFin) > TICKET_SEARCH_MAX_DAYS) {
    return { code: 'MaxReportDays', values: { maxDays: TICKET_SEARCH_MAX_DAYS } };
  }
  return null;
}

/** What one search is made of, once the selection and the form are read. */
export interface TicketSearchInput {
  /** Signed-in user's id (wire `id`). */
  userId: number;
  range: DateRange;
  /** Effective sites (all of the user's when none is chosen, SPEC.md §5). */
  siteIds: readonly number[];
  /** Chosen terminals as `restaurantId:terminalId`; empty = every terminal. */
  terminalKeys: readonly string[];
  /** Chosen sellers as `restaurantId:code`; empty = every seller. */
  sellerKeys: readonly string[];
  /** HH:mm pair when an hour range is on, else null. */
  hours: { heureDebut: string; heureFin: string } | null;
  minCents: number | null;
  maxCents: number | null;
  criteria: readonly TicketCriterion[];
  /** 1-based. */
  page: number;
  pageSize?: number;
}

/** The part of a `site:item` key after the first colon (seller codes may hold colons). */
function itemOfKey(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

/**
 * Query of bo/tickets/search: arrays as repeated `sites[]` / `tpv[]` / `criteres[]` (lib/http),
 * sellers as comma-joined codes (SPEC.md §5 marker for a comma inside one), amounts in cents;
 * every optional filter left out when unset, which the server reads as "no filter".
 */
export function buildTicketSearchParams(input: TicketSearchInput): SearchParams {
  const terminals = [...new Set(input.terminalKeys.map((k) => Number(itemOfKey(k))))].filter(
    Number.isInteger,
  );
  const sellers = [...new Set(input.sellerKeys.map(itemOfKey))];
  const criteria = [...new Set(input.criteria)];
  return {
    id: input.userId,
    dateDebut: input.range.dateDebut,
    dateFin: input.range.dateFin,
    sites: [...input.siteIds],
    tpv: terminals.length > 0 ? terminals : undefined,
    vendeurs: sellers.length > 0 ? encodeSellers(sellers) : undefined,
    heureDebut: input.hours?.heureDebut,
    heureFin: input.hours?.heureFin,
    montantMin: input.minCents ?? undefined,
    montantMax: input.maxCents ?? undefined,
    criteres: criteria.length > 0 ? criteria : undefined,
    page: input.page,
    pageSize: input.pageSize ?? TICKET_PAGE_SIZE,
  };
}

/** Number of pages for `total` results (at least 1, so "page 1 of 1" shows for an empty answer). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** `YYYY-MM-DDTHH:mm:ss` (the site's wall clock) split into a wire date and `HH:mm`. */
export function splitLocal(openedLocal: string): { date: string; time: string } {
  return { date: openedLocal.slice(0, 10), time: openedLocal.slice(11, 16) };
}
