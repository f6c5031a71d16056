/**
 * The parts of the day of SPEC.md §9 (morning, lunch, afternoon, dinner, evening, night, peak
 * night), defined once for the server's sales-by-day-part report and the client's graphs.
 *
 * Bounds are whole hours of the site's own clock (the local time the ticket was opened), start
 * included, end excluded; together the parts cover the 24 hours exactly once, so a breakdown by
 * day part always sums to the period's total. The bounds follow the rhythm of the chain's
 * restaurants and bakeries: breakfast and coffee until 11:00, lunch service 11:00–15:00, dinner
 * service 18:00–22:00; after 22:00 the evening, then the bar's busy hour after midnight
 * ("peak night", 00:00–02:00) before the quiet night until 06:00.
 * Display order is SPEC.md §9's order, which is not the clock's: peak night comes last.
 * Labels are the `report.dayPart.<key>` messages.
 */

/** One part of the day: `[fromHour, toHour)` in site local time, hours 0–24. */
export interface DayPart {
  /** Wire key, e.g. `LUNCH`; label `report.dayPart.<key>`. */
  key: string;
  /** First hour of the part (included), 0–23. */
  fromHour: number;
  /** Hour the part ends (excluded), 1–24. */
  toHour: number;
}

/** SPEC.md §9's day parts, in its order. */
export const DAY_PARTS = [
  { key: 'MORNING', fromHour: 6, toHour: 11 },
  { key: 'LUNCH', fromHour: 11, toHour: 15 },
  { key: 'AFTERNOON', fromHour: 15, toHour: 18 },
  { key: 'DINNER', fromHour: 18, toHour: 22 },
  { key: 'EVENING', fromHour: 22, toHour: 24 },
  { key: 'NIGHT', fromHour: 2, toHour: 6 },
  { key: 'PEAK_NIGHT', fromHour: 0, toHour: 2 },
] as const satisfies readonly DayPart[];

export type DayPartKey = (typeof DAY_PARTS)[number]['key'];

/** The day part holding local hour `hour` (0–23). */
export function dayPartOfHour(hour: number): DayPartKey {
  const part = DAY_PARTS.find((p) => hour >= p.fromHour && hour < p.toHour);
  if (!part) throw new RangeError(`hour ${hour} is not in 0..23`);
  return part.key;
}
