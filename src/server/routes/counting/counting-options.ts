/**
 * Pieces the counting routes share: the site scope check of every counting call, the reading
 * of counted denominations, and instants as ISO text.
 */
import type { Session } from '../../auth/session.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/connect.ts';
import { ApiHttpError } from '../../plugins/errors.ts';

import type { Queryable } from '../../db/queryable.ts';

export type { Queryable };

/**
 * Checks that `siteId` is in the user's scope (SPEC.md §6).
 * @throws ApiHttpError 403 `Forbidden` otherwise (the same answer for a site that does not exist).
 */
export function requireSite(session: Session, siteId: number): void {
  if (!session.siteIds.includes(siteId)) {
    throw new ApiHttpError(403, 'Forbidden', `site ${siteId} is not in your scope`);
  }
}

/** A timestamptz read by pg (Date) as ISO 8601 text. */
export function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** Site facts the counting answers need. */
export interface SiteFacts {
  id: number;
  libelle: string;
  currency: string;
  timeZone: string;
  dayStart: string;
}

/** The facts of `siteIds`, by id. */
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

/** What every counting route module receives. */
export interface CountingOptions {
  database: Database;
  config: Config;
}
