/**
 * The messages a signed-in user is shown (SPEC.md §7 GET messages/all; issue #18: "shown to
 * their targets on sign-in and on /home, dismissible") and their dismissals.
 *
 * A message is the user's today when:
 * - today is within its fromDate..toDate (inclusive), "today" being the calendar date in the time
 *   zone of one of the user's sites (Europe/Paris when they have none): a chain spanning zones
 *   sees a message from the first zone whose day it is;
 * - it targets one of the user's sites (`siteIds`, their effective scope, SPEC.md §6) or their
 *   profile, or targets nobody in particular (both lists empty: everyone);
 * - the user has not dismissed it.
 * Another user's message (not targeted at them) cannot be dismissed: it is `NotFound`, as one
 * that does not exist, so ids tell nothing.
 */
import { type AdminMessage, DEFAULT_MESSAGE_TIME_ZONE } from '../../contract/administration.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import { MESSAGE_COLUMNS, type MessageRow, toAdminMessage } from './message-rows.ts';

/** Who reads: the signed-in user's id and site scope (auth/session.ts Session). */
export interface MessageReader {
  userId: number;
  siteIds: readonly number[];
}

/** SQL condition: message `m` targets the reader ($2 their site ids, $3 their profile id). */
const TARGETS_READER = `((cardinality(m.site_ids) = 0 AND cardinality(m.profile_ids) = 0)
   OR m.site_ids && $2::int[] OR $3::int = ANY(m.profile_ids))`;

/** The reader's profile id. @throws DomainError unauthenticated `Unauthorized` when the user is gone. */
async function profileOf(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ profile_id: number }>('SELECT profile_id FROM users WHERE id = $1', [
    userId,
  ]);
  if (!rows[0]) throw new DomainError('unauthenticated', 'Unauthorized', `no user ${userId}`);
  return rows[0].profile_id;
}

/** Today's calendar dates (`YYYY-MM-DD`) at `now` in the zones of `siteIds` (Europe/Paris without sites). */
async function todaysDates(db: Queryable, siteIds: readonly number[], now: Date): Promise<string[]> {
  const { rows } = await db.query<{ time_zone: string }>(
    'SELECT DISTINCT time_zone FROM sites WHERE id = ANY($1::int[])',
    [[...siteIds]],
  );
  const zones = rows.length > 0 ? rows.map((r) => r.time_zone) : [DEFAULT_MESSAGE_TIME_ZONE];
  return [...new Set(zones.map((zone) => currentFiscalDate(now, zone, '00:00')))];
}

/**
 * The reader's messages today (module comment), most severe first (error, warning, info), then
 * newest first, each `text` in `language` (message-rows.ts textFor). GET messages/all.
 */
export async function messagesForUser(
  db: Queryable,
  reader: MessageReader,
  language: string | null,
  now: Date = new Date(),
): Promise<AdminMessage[]> {
  const profileId = await profileOf(db, reader.userId);
  const dates = await todaysDates(db, reader.siteIds, now);
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM admin_messages m
      WHERE ${TARGETS_READER}
        AND EXISTS (SELECT 1 FROM unnest($4::date[]) AS today(d) WHERE today.d BETWEEN m.from_date AND m.to_date)
        AND NOT EXISTS (SELECT 1 FROM message_dismissals x WHERE x.message_id = m.id AND x.user_id = $1)
      ORDER BY array_position(ARRAY['error', 'warning', 'info'], m.severity), m.created_at DESC, m.id DESC`,
    [reader.userId, [...reader.siteIds], profileId, dates],
  );
  return rows.map((row) => toAdminMessage(row, language));
}

/**
 * Records that the reader dismissed message `messageId`: it is not in their messages/all again.
 * Dismissing twice is the same as once.
 * @throws DomainError notFound `NotFound` when no message of that id targets the reader.
 */
export async function dismissMessage(db: Queryable, reader: MessageReader, messageId: number): Promise<void> {
  const profileId = await profileOf(db, reader.userId);
  const { rowCount } = await db.query(
    `SELECT 1 FROM admin_messages m WHERE m.id = $1 AND ${TARGETS_READER}`,
    [messageId, [...reader.siteIds], profileId],
  );
  if (!rowCount) throw new DomainError('notFound', 'NotFound', `no message ${messageId} for this user`);
  await db.query(
    `INSERT INTO message_dismissals (message_id, user_id) VALUES ($1, $2)
     ON CONFLICT (message_id, user_id) DO NOTHING`,
    [messageId, reader.userId],
  );
}
