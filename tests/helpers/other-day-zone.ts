/**
 * A browser time zone whose calendar date differs from Paris's at `now`, for tests that check a
 * default date is the sites' today (Europe/Paris in the fixtures) and not the browser's:
 * Pacific/Kiritimati (UTC+14) is a day ahead of Paris from 10:00 to 23:00 UTC, Pacific/Pago_Pago
 * (UTC−11) a day behind from 23:00 to 11:00 UTC, so one of them always differs.
 */
export function zoneWhoseTodayIsNotParis(now: Date = new Date()): string {
  const day = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now);
  const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => day(z) !== day('Europe/Paris'));
  if (!zone) throw new Error(`no zone with another date than Paris at ${now.toISOString()}`);
  return zone;
}
