/**
 * Messages from the administration to users (issue #18 `/config/messages`; SPEC.md §2, §7):
 * listed, created, changed and removed by holders of CONFIGURATION. Shapes in
 * src/contract/administration.ts (AdminMessageSchema, MessageInputSchema).
 *
 * Guarantees: a stored message has at least one non-empty text, `fromDate` ≤ `toDate` (real
 * calendar dates), and targets only sites and profiles that exist when it is saved; every
 * change is written to the audit log (`message.create`, `message.save`, `message.remove`) through
 * the same `db`, so the caller's transaction commits both or neither.
 */
import type { z } from 'zod';
import { type AdminMessage, LANGUAGES, type MessageInputSchema } from '../../contract/administration.ts';
import { parseWireDate } from '../../contract/dates.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { requireMessageTargetsHeld, siteReach } from '../administration/admin-scope.ts';
import { DomainError } from '../errors.ts';
import { MESSAGE_COLUMNS, type MessageRow, type MessageTexts, toAdminMessage } from './message-rows.ts';

/** A message as the contract's schema parsed it (texts trimmed, defaults applied). */
export type MessageToSave = z.output<typeof MessageInputSchema>;

/** What is checked and stored of a message: its texts without the empty ones. */
interface CheckedMessage extends MessageToSave {
  texts: MessageTexts;
}

function invalidField(field: string, message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError('invalid', 'InvalidField', message, { field, ...details });
}

/** The ids of `ids` that `table` has no row for, ascending. */
async function missingIds(
  db: Queryable,
  table: 'sites' | 'profiles',
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[])`, [
    [...ids],
  ]);
  const found = new Set(rows.map((r) => r.id));
  return [...new Set(ids)].filter((id) => !found.has(id)).sort((a, b) => a - b);
}

/**
 * Checks `input` (SPEC.md §5 "no field may be empty": at least one text) and keeps its
 * non-empty texts, its targets without repeats.
 * @throws DomainError invalid `InvalidField` with `details.field`: `texts` (no text), `fromDate`
 *   or `toDate` (not a real date), `toDate` (before fromDate), `restaurantIds` or `profileIds`
 *   (with `details.ids`, the ones that do not exist).
 */
async function checkMessage(db: Queryable, input: MessageToSave): Promise<CheckedMessage> {
  const texts: MessageTexts = {};
  for (const language of LANGUAGES) {
    const text = input.texts[language]?.trim();
    if (text) texts[language] = text;
  }
  if (Object.keys(texts).length === 0) throw invalidField('texts', 'a message needs a text in one language');
  if (!parseWireDate(input.fromDate)) throw invalidField('fromDate', 'fromDate is not a date');
  if (!parseWireDate(input.toDate)) throw invalidField('toDate', 'toDate is not a date');
  if (input.fromDate > input.toDate) throw invalidField('toDate', 'toDate is before fromDate');
  const restaurantIds = [...new Set(input.restaurantIds)];
  const profileIds = [...new Set(input.profileIds)];
  const sites = await missingIds(db, 'sites', restaurantIds);
  if (sites.length > 0) throw invalidField('restaurantIds', 'unknown target sites', { ids: sites });
  const profiles = await missingIds(db, 'profiles', profileIds);
  if (profiles.length > 0) throw invalidField('profileIds', 'unknown target profiles', { ids: profiles });
  return { ...input, texts, restaurantIds, profileIds };
}

/** The fields of a message the audit log keeps before and after a change (nothing secret in them). */
function auditFields(row: MessageRow): Record<string, unknown> {
  return {
    texts: row.texts,
    severity: row.severity,
    fromDate: row.from_date,
    toDate: row.to_date,
    restaurantIds: row.site_ids,
    profileIds: row.profile_ids,
  };
}

function notFound(id: number): DomainError {
  return new DomainError('notFound', 'NotFound', `no message ${id}`);
}

/** The message `id` locked for a change. @throws DomainError notFound `NotFound`. */
async function lockedMessage(db: Queryable, id: number): Promise<MessageRow> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM admin_messages WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw notFound(id);
  return rows[0];
}

/**
 * Every message, newest first (creation, then id), each with its `text` in `language`
 * (message-rows.ts textFor). GET bo/infra/getMessages.
 */
export async function listMessages(db: Queryable, language: string | null): Promise<AdminMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM admin_messages ORDER BY created_at DESC, id DESC`,
  );
  return rows.map((row) => toAdminMessage(row, language));
}

/**
 * Creates a message by `actor` and records `message.create` with its fields.
 * @returns the message as stored. @throws DomainError invalid `InvalidField` (see checkMessage).
 */
export async function createMessage(
  db: Queryable,
  actor: AuditActor,
  input: MessageToSave,
  language: string | null,
): Promise<AdminMessage> {
  const m = await checkMessage(db, input);
  await requireMessageTargetsHeld(db, await siteReach(db, actor.userId), m);
  const { rows } = await db.query<MessageRow>(
    `INSERT INTO admin_messages (texts, severity, from_date, to_date, site_ids, profile_ids, created_by)
     VALUES ($1, $2, $3, $4, $5::int[], $6::int[], $7) RETURNING ${MESSAGE_COLUMNS}`,
    [m.texts, m.severity, m.fromDate, m.toDate, m.restaurantIds, m.profileIds, actor.userId],
  );
  const row = rows[0]!;
  await recordAudit(db, actor, { action: 'message.create', targetId: row.id, after: auditFields(row) });
  return toAdminMessage(row, language);
}

/**
 * Replaces message `id` with `input` and records `message.save` with its fields before and after.
 * Dismissals are kept: a user who closed a message does not see it again because it was edited.
 * @throws DomainError notFound `NotFound`; invalid `InvalidField` (see checkMessage).
 */
export async function saveMessage(
  db: Queryable,
  actor: AuditActor,
  id: number,
  input: MessageToSave,
  language: string | null,
): Promise<AdminMessage> {
  const before = await lockedMessage(db, id);
  const m = await checkMessage(db, input);
  const reach = await siteReach(db, actor.userId);
  await requireMessageTargetsHeld(db, reach, {
    restaurantIds: before.site_ids,
    profileIds: before.profile_ids,
  });
  await requireMessageTargetsHeld(db, reach, m);
  const { rows } = await db.query<MessageRow>(
    `UPDATE admin_messages SET texts = $2, severity = $3, from_date = $4, to_date = $5,
            site_ids = $6::int[], profile_ids = $7::int[]
      WHERE id = $1 RETURNING ${MESSAGE_COLUMNS}`,
    [id, m.texts, m.severity, m.fromDate, m.toDate, m.restaurantIds, m.profileIds],
  );
  const row = rows[0]!;
  await recordAudit(db, actor, {
    action: 'message.save',
    targetId: id,
    before: auditFields(before),
    after: auditFields(row),
  });
  return toAdminMessage(row, language);
}

/**
 * Deletes message `id` (its dismissals go with it) and records `message.remove` with its fields.
 * @throws DomainError notFound `NotFound`.
 */
export async function removeMessage(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  const before = await lockedMessage(db, id);
  await requireMessageTargetsHeld(db, await siteReach(db, actor.userId), {
    restaurantIds: before.site_ids,
    profileIds: before.profile_ids,
  });
  await db.query('DELETE FROM admin_messages WHERE id = $1', [id]);
  await recordAudit(db, actor, { action: 'message.remove', targetId: id, before: auditFields(before) });
}
