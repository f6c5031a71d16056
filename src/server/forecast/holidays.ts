/**
 * Public holidays of a site's country and region, for the forecast (issue #31): a holiday is
 * neither taught as an ordinary day nor forecast as one (engine.ts holidayFactor). The
 * calendars are date-holidays' (maintained, per country and region); only its `public` days
 * count (not observances such as Mother's Day).
 *
 * A site's country is `extras.country` (ISO 3166-1 alpha-2) and its region `extras.region`
 * (date-holidays' state code, e.g. `BY` for Bavaria) when the site carries them; else the
 * country of its time zone when that zone names one country; else France (SPEC.md: a French
 * chain first).
 */
import { createRequire } from 'node:module';
import type HolidaysClass from 'date-holidays';
import { dayOf } from './calendar.ts';

let holidaysClass: typeof HolidaysClass | undefined;

/**
 * date-holidays' class, required on the first forecast that needs it: its calendars of every
 * country (and their lunar and solar arithmetic) weigh tens of MB that a server answering other
 * calls need not hold (issue #32 E.2, the CSV's peak memory).
 */
function Holidays(): typeof HolidaysClass {
  holidaysClass ??= createRequire(import.meta.url)('date-holidays') as typeof HolidaysClass;
  return holidaysClass;
}

/** Country when neither the site nor its time zone says (issue #31: default FR). */
export const DEFAULT_COUNTRY = 'FR';

/** Countries of the time zones our sites use; a zone not listed falls back to {@link DEFAULT_COUNTRY}. */
const ZONE_COUNTRIES: Readonly<Record<string, string>> = {
  'Europe/Paris': 'FR',
  'Europe/London': 'GB',
  'Europe/Berlin': 'DE',
  'Europe/Brussels': 'BE',
  'Europe/Luxembourg': 'LU',
  'Europe/Zurich': 'CH',
  'Europe/Madrid': 'ES',
  'Europe/Rome': 'IT',
  'Europe/Amsterdam': 'NL',
  'Europe/Lisbon': 'PT',
  'Europe/Vienna': 'AT',
  'America/New_York': 'US',
  'America/Chicago': 'US',
  'America/Los_Angeles': 'US',
  'America/Montreal': 'CA',
  'America/Toronto': 'CA',
  'Asia/Seoul': 'KR',
  'Asia/Tokyo': 'JP',
  'Indian/Reunion': 'RE',
  'America/Martinique': 'MQ',
  'America/Guadeloupe': 'GP',
};

/** Where a site's holidays are taken from. */
export interface HolidayPlace {
  /** ISO 3166-1 alpha-2 country code, upper case. */
  country: string;
  /** date-holidays' region (state) code, when known. */
  region?: string;
}

/** The holiday place of a site from its `extras` (jsonb) and IANA time zone; see the module comment. */
export function holidayPlace(
  extras: Readonly<Record<string, unknown>> | null,
  timeZone: string,
): HolidayPlace {
  const country = typeof extras?.country === 'string' && extras.country.trim() !== '' ? extras.country : null;
  const region =
    typeof extras?.region === 'string' && extras.region.trim() !== '' ? extras.region : undefined;
  if (country) return { country: country.trim().toUpperCase(), ...(region ? { region: region.trim() } : {}) };
  return { country: ZONE_COUNTRIES[timeZone] ?? DEFAULT_COUNTRY };
}

/**
 * The public holidays of `place` in the years `fromYear`…`toYear` (inclusive): day number
 * (calendar.ts) → name in the country's language. An unknown country gives none; a region the
 * library does not know for that country gives the country's.
 */
export function publicHolidays(place: HolidayPlace, fromYear: number, toYear: number): Map<number, string> {
  const out = new Map<number, string>();
  // A region date-holidays does not know (extras.region is free text: "Nord") means the country's.
  const states = place.region ? new (Holidays())().getStates(place.country) : undefined;
  const region =
    place.region && states && place.region.toUpperCase() in states ? place.region.toUpperCase() : null;
  const Calendar = Holidays();
  const calendar = region ? new Calendar(place.country, region) : new Calendar(place.country);
  for (let year = fromYear; year <= toYear; year++) {
    const days = calendar.getHolidays(year);
    if (!Array.isArray(days)) continue;
    for (const h of days) if (h.type === 'public') out.set(dayOf(h.date.slice(0, 10)), h.name);
  }
  return out;
}
