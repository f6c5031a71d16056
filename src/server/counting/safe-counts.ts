/**
 * Safe counts (SPEC.md §7 GET coffre in its three forms, POST coffre/save; /analyses/coffre).
 * Like cash counts, a save is the next version of (site, fiscal date), numbered under a
 * transaction-scoped advisory lock; a new version starts without a countersignature. Expected
 * content = opening float + deposits − withdrawals; variance = counted − expected (cents).
 */
import type { z } from 'zod';
import {
  denominationsTotalCents,
  type SafeCount,
  type SafeCountBodySchema,
  type SafeDayAnswer,
} from '../../contract/counting.ts';
import { daysInclusive } from '../../contract/dates.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import type { Counter } from './cash-counts.ts';
import { iso } from './instants.ts';
import { siteFacts } from './sites.ts';

/** Longest period of the safe count lists (GET coffre getComptages, the signatures list), in days (a year and a bit). */
export const SAFE_LIST_MAX_DAYS = 400;

/** A row of `safe_counts` joined with its site's name. */
export interface SafeCountRow {
  site_id: number;
  libelle: string;
  id: number;
  fiscal_date: string;
  version: number;
  opening_cents: number;
  deposits_cents: number;
  withdrawals_cents: number;
  contents: { denominationCents: number; quantity: number }[];
  counted_cents: number;
  comment: string;
  counted_by: number;
  counted_by_login: string;
  counted_at: Date;
  received_at: Date;
  countersigned_by: number | null;
  countersigned_name: string | null;
  countersign_comment: string | null;
  countersigned_at: Date | null;
}

/** Columns of a safe count joined with its site's name (`c` = safe_counts, `s` = sites). */
export const SAFE_COLUMNS = 'c.*, s.libelle';

/** A stored row as the API answers it. */
export function toSafeCount(r: SafeCountRow): SafeCount {
  const expectedCents = r.opening_cents + r.deposits_cents - r.withdrawals_cents;
  return {
    id: r.id,
    site: r.site_id,
    libelle: r.libelle,
    dateFiscale: r.fiscal_date,
    version: r.version,
    openingCents: r.opening_cents,
    depositsCents: r.deposits_cents,
    withdrawalsCents: r.withdrawals_cents,
    expectedCents,
    contents: r.contents,
    countedCents: r.counted_cents,
    varianceCents: r.counted_cents - expectedCents,
    comment: r.comment,
    countedBy: { userId: r.counted_by, login: r.counted_by_login },
    countedAt: iso(r.counted_at),
    receivedAt: iso(r.received_at),
    countersignature:
      r.countersigned_by === null || r.countersigned_at === null
        ? null
        : {
            managerUserId: r.countersigned_by,
            managerName: r.countersigned_name ?? '',
            commentaire: r.countersign_comment ?? '',
            signedAt: iso(r.countersigned_at),
          },
  };
}

/**
 * Checks a period of a safe count list: `dateFin` not before `dateDebut`, at most
 * {@link SAFE_LIST_MAX_DAYS} days.
 * @throws DomainError invalid `BadRequest` (reversed), invalid `MaxReportDays` with `details.maxDays`.
 */
export function requireSafeListPeriod(dateDebut: string, dateFin: string): void {
  const days = daysInclusive(dateDebut, dateFin);
  if (!(days >= 1)) throw new DomainError('invalid', 'BadRequest', 'dateFin is before dateDebut');
  if (days > SAFE_LIST_MAX_DAYS)
    throw new DomainError('invalid', 'MaxReportDays', 'period too long', { maxDays: SAFE_LIST_MAX_DAYS });
}

/** Which safe counts to read: sites and fiscal dates (both ends included), optionally narrowed. */
export interface SafeCountFilter {
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  /** Only these fiscal dates (inside the range); null or absent for every date of the range. */
  fiscalDates?: readonly string[] | null;
  /** Only the latest version of each (fiscal date, site). */
  latestOnly?: boolean;
}

/**
 * Safe counts matching `filter`, by fiscal date, site, then version descending. Read by GET
 * coffre, the signatures list and the safe counting report.
 */
export async function safeCounts(db: Queryable, filter: SafeCountFilter): Promise<SafeCount[]> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT ${filter.latestOnly ? 'DISTINCT ON (c.fiscal_date, c.site_id)' : ''} ${SAFE_COLUMNS}
       FROM safe_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = ANY($1::int[]) AND c.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR c.fiscal_date = ANY($4::date[]))
      ORDER BY c.fiscal_date, c.site_id, c.version DESC`,
    [filter.siteIds, filter.dateDebut, filter.dateFin, filter.fiscalDates ?? null],
  );
  return rows.map(toSafeCount);
}

/**
 * The latest safe count (latest version of the latest fiscal date) of each site of `siteIds` on
 * or before `upTo`; a site never counted is absent. Read by the home dashboard (bo/home/coffre).
 */
export async function latestSafeCountPerSite(
  db: Queryable,
  siteIds: readonly number[],
  upTo: string,
): Promise<SafeCount[]> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT DISTINCT ON (c.site_id) ${SAFE_COLUMNS}
       FROM safe_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = ANY($1::int[]) AND c.fiscal_date <= $2::date
      ORDER BY c.site_id, c.fiscal_date DESC, c.version DESC`,
    [siteIds, upTo],
  );
  return rows.map(toSafeCount);
}

/**
 * Safe count `id` when its site is in `siteIds`.
 * @throws DomainError notFound `NotFound` otherwise (same answer for one that does not exist).
 */
export async function safeCountById(
  db: Queryable,
  id: number,
  siteIds: readonly number[],
): Promise<SafeCount> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT ${SAFE_COLUMNS} FROM safe_counts c JOIN sites s ON s.id = c.site_id WHERE c.id = $1 AND c.site_id = ANY($2)`,
    [id, siteIds],
  );
  if (!rows[0]) throw new DomainError('notFound', 'NotFound', 'no such safe count in your scope');
  return toSafeCount(rows[0]);
}

/**
 * The safe counting of fiscal date `fiscalDate` on every site of `siteIds` (GET coffre?dateFiscale):
 * each site's counts of the day and a suggested opening float, the content counted by the
 * latest count before that date (0 when there is none), in cents.
 */
export async function safeDay(
  db: Queryable,
  siteIds: readonly number[],
  fiscalDate: string,
): Promise<SafeDayAnswer> {
  const facts = await siteFacts(db, siteIds);
  const counts = await safeCounts(db, { siteIds, dateDebut: fiscalDate, dateFin: fiscalDate });
  const { rows: openings } = await db.query<{ site_id: number; counted_cents: number }>(
    `SELECT DISTINCT ON (site_id) site_id, counted_cents FROM safe_counts
      WHERE site_id = ANY($1) AND fiscal_date < $2 ORDER BY site_id, fiscal_date DESC, version DESC`,
    [siteIds, fiscalDate],
  );
  const opening = new Map(openings.map((o) => [o.site_id, o.counted_cents]));
  return {
    dateFiscale: fiscalDate,
    sites: [...facts.values()].map((f) => ({
      restaurantId: f.id,
      libelle: f.libelle,
      currency: f.currency,
      suggestedOpeningCents: opening.get(f.id) ?? 0,
      counts: counts.filter((c) => c.site === f.id),
    })),
  };
}

/** A safe count as saved (coffre/save's body, parsed). */
export type NewSafeCount = z.output<typeof SafeCountBodySchema>;

/**
 * Saves `count` as the next version of (site, fiscal date), not countersigned; `db` must be a
 * transaction (the version lock is held until it ends). Denominations are stored largest first,
 * the counted content is their total (cents); `countedAt` defaults to now.
 */
export async function saveSafeCount(
  db: Queryable,
  count: NewSafeCount,
  counter: Counter,
): Promise<SafeCount> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
    `safe_count:${count.site}:${count.dateFiscale}`,
  ]);
  const contents = [...count.contents].sort((a, b) => b.denominationCents - a.denominationCents);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents,
       contents, counted_cents, comment, counted_by, counted_by_login, counted_at)
     SELECT $1, $2, coalesce(max(version), 0) + 1, $3, $4, $5, $6, $7, $8, $9, $10, coalesce($11::timestamptz, now())
       FROM safe_counts WHERE site_id = $1 AND fiscal_date = $2
     RETURNING id`,
    [
      count.site,
      count.dateFiscale,
      count.openingCents,
      count.depositsCents,
      count.withdrawalsCents,
      JSON.stringify(contents),
      denominationsTotalCents(contents),
      count.comment,
      counter.userId,
      counter.login,
      count.countedAt ?? null,
    ],
  );
  return safeCountById(db, rows[0]!.id, [count.site]);
}
