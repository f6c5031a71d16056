/**
 * The site facts counting needs and the scope check every counting call starts with (SPEC.md
 * §6): a site outside the user's scope is refused the same way whether it exists or not.
 */
import type { Session } from '../auth/session.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/**
 * Checks that `siteId` is in the user's scope (SPEC.md §6).
 * @throws DomainError forbidden `Forbidden` otherwise (the same answer for a site that does not exist).
 */
export function requireSite(session: Pick<Session, 'siteIds'>, siteId: number): void {
  if (!session.siteIds.includes(siteId)) {
    throw new DomainError('forbidden', 'Forbidden', `site ${siteId} is not in your scope`);
  }
}

/** Site facts the counting answers need: name, ISO 4217 currency, IANA zone, day start (`HH:mm`). */
export interface SiteFacts {
  id: number;
  libelle: string;
  currency: string;
  timeZone: string;
  dayStart: string;
}

/** The facts of `siteIds`, by id, in ascending id order (sites that do not exist are absent). */
export async function siteFacts(db: Queryable, siteIds: readonly number[]): Promise<Map<number, SiteFacts>> {
  const { rows } = await db.query<{
    id: number;
    libelle: string;
    currency: string;
    time_zone: string;
    day_start: string;
  }>('SELECT id, libelle, currency, time_zone, day_start FROM sites WHERE id = ANY($1) ORDER BY id', [
    siteIds,
  ]);
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, libelle: r.libelle, currency: r.currency, timeZone: r.time_zone, dayStart: r.day_start },
    ]),
  );
}

/** The facts of one site known to exist (a site of the user's scope, checked by {@link requireSite}). */
export async function siteFactsOf(db: Queryable, siteId: number): Promise<SiteFacts> {
  return (await siteFacts(db, [siteId])).get(siteId)!;
}

/**
 * Today's fiscal date (`YYYY-MM-DD`) of `siteId`, in its time zone and from its business-day
 * start (SPEC.md §9): the date a new receipt or count takes when none is given.
 */
export async function todaysFiscalDate(db: Queryable, siteId: number, now = new Date()): Promise<string> {
  const facts = await siteFactsOf(db, siteId);
  return currentFiscalDate(now, facts.timeZone, facts.dayStart);
}
