/**
 * Local events (issue #19; SPEC.md §1 "local events", §3 event payload, §7
 * `withCredentials/collab/*`): reads and writes of `local_events` and `local_event_sites`
 * (db/schema-events.ts), limited to the caller's site scope (SPEC.md §6).
 *
 * Scope rules:
 * - A read lists the events overlapping the period on the chosen sites of the scope, and shows
 *   of each event only the sites of the caller's scope (the ids of other sites are not told).
 * - A write names sites (`perim_affects`); one outside the scope refuses it (403 `Forbidden`,
 *   `details.sites` the refused ids). Changing or deleting an event that also touches sites
 *   outside the scope is refused the same way: it would change what other managers planned.
 *   An event with no site in the scope answers 404 `NotFound`, like an unknown uuid, so its
 *   existence is not told either.
 *
 * Every write takes the route's transaction and writes the audit log (`event.create`,
 * `event.save`, `event.remove`) in it; migration 0010's triggers then tell the change feed,
 * which refreshes the forecast's caches (src/server/forecast).
 */
import type { LocalEvent, LocalEventInput } from '../../contract/events.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Session } from '../auth/session.ts';
import { notifyChanged } from '../db/changes.ts';
import { sequentialOnCitus } from '../db/citus.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { badField } from './event-input.ts';

interface EventRow {
  uuid: string;
  event_type: LocalEvent['typeEvenement'];
  designation: string;
  sales_channel: LocalEvent['canalVente'];
  plu: string | null;
  start_date: string;
  end_date: string;
  impact_type: LocalEvent['typeImpact'];
  impact_rate: string;
  created_by: string | null;
  updated_at: Date;
  site_ids: number[];
}

/**
 * The events whose uuids `chosen` (SQL answering a column `uuid`) selects, each with its author's
 * login and all its sites (ascending), in no order. The sites are aggregated by event in a
 * subquery joined to the events, not read by a subquery per event: on a Citus cluster
 * `local_events` is a reference table and `local_event_sites` is distributed by `site_id`, and
 * Citus plans no correlated subquery from the one into the other (decision record 0042,
 * 2026-12-07).
 */
function eventsSql(chosen: string): string {
  return `WITH chosen AS MATERIALIZED (${chosen})
SELECT e.uuid, e.event_type, e.designation, e.sales_channel, e.plu, e.start_date, e.end_date,
       e.impact_type, e.impact_rate, u.login AS created_by, e.updated_at,
       coalesce(les.site_ids, '{}') AS site_ids
  FROM local_events e
  LEFT JOIN users u ON u.id = e.created_by
  LEFT JOIN (SELECT event_uuid, array_agg(site_id ORDER BY site_id) AS site_ids FROM local_event_sites
              WHERE event_uuid IN (SELECT uuid FROM chosen) GROUP BY event_uuid) les ON les.event_uuid = e.uuid
 WHERE e.uuid IN (SELECT uuid FROM chosen)`;
}

/** A row as answered, its sites cut to `visible` (the caller's scope). */
function toEvent(row: EventRow, visible: readonly number[]): LocalEvent {
  return {
    uuid_evt: row.uuid,
    typeEvenement: row.event_type,
    designation: row.designation,
    canalVente: row.sales_channel,
    plu: row.plu,
    typeImpact: row.impact_type,
    tauxImpact: Number(row.impact_rate),
    dateDebut: row.start_date,
    dateFin: row.end_date,
    perim_affects: row.site_ids.filter((id) => visible.includes(id)),
    creePar: row.created_by,
    modifieLe: row.updated_at.toISOString(),
  };
}

/**
 * Events overlapping [dateDebut, dateFin] (fiscal dates, inclusive) on any of `siteIds`, by start
 * date, then designation, then uuid; each shows only its sites among `scope`.
 */
export async function listEvents(
  db: Queryable,
  scope: readonly number[],
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): Promise<LocalEvent[]> {
  const { rows } = await db.query<EventRow>(
    `${eventsSql(`SELECT DISTINCT les.event_uuid AS uuid FROM local_event_sites les
                     JOIN local_events d ON d.uuid = les.event_uuid
                    WHERE les.site_id = ANY($1::int[]) AND d.start_date <= $3::date AND d.end_date >= $2::date`)}
     ORDER BY e.start_date, e.designation, e.uuid`,
    [siteIds, dateDebut, dateFin],
  );
  return rows.map((r) => toEvent(r, scope));
}

/**
 * The row of event `uuid`; null when unknown. The rest of the caller's transaction reaches the
 * Citus workers over one connection each ({@link sequentialOnCitus}): the writes that read an
 * event then write `local_events`, a reference table Citus will not write after a parallel read
 * of `local_event_sites` (its foreign key points to it).
 */
async function readEvent(db: Queryable, uuid: string): Promise<EventRow | null> {
  await sequentialOnCitus(db);
  const { rows } = await db.query<EventRow>(eventsSql('SELECT $1::uuid AS uuid'), [uuid]);
  return rows[0] ?? null;
}

/**
 * The row of event `uuid`, locked for the write's transaction; null when unknown. The lock is
 * taken on `local_events` alone, then the row read: Citus runs no `FOR UPDATE` over a join with
 * a distributed table (decision record 0042, 2026-12-07).
 */
async function lockEvent(db: Queryable, uuid: string): Promise<EventRow | null> {
  const locked = await db.query('SELECT 1 FROM local_events WHERE uuid = $1 FOR UPDATE', [uuid]);
  if (locked.rows.length === 0) return null;
  return readEvent(db, uuid);
}

/**
 * Refuses sites outside the caller's scope.
 * @throws DomainError forbidden `Forbidden` with `details.sites` (the refused ids, ascending).
 */
function requireInScope(session: Session, siteIds: readonly number[]): void {
  const outside = siteIds.filter((id) => !session.siteIds.includes(id));
  if (outside.length > 0) {
    throw new DomainError('forbidden', 'Forbidden', 'sites outside your scope', {
      field: 'perim_affects',
      sites: outside,
    });
  }
}

/**
 * Event `uuid` locked, when the caller may change it: all its sites in their scope.
 * @throws DomainError notFound `NotFound` for an unknown uuid or an event with no site in the
 *   scope; forbidden `Forbidden` (see {@link requireInScope}) when it has sites outside it.
 */
async function lockOwnEvent(db: Queryable, session: Session, uuid: string): Promise<EventRow> {
  const row = await lockEvent(db, uuid);
  if (!row?.site_ids.some((id) => session.siteIds.includes(id))) {
    throw new DomainError('notFound', 'NotFound', `no event ${uuid}`);
  }
  requireInScope(session, row.site_ids);
  return row;
}

/** Replaces the sites of event `uuid` by `siteIds`. */
async function writeEventSites(db: Queryable, uuid: string, siteIds: readonly number[]): Promise<void> {
  await db.query('DELETE FROM local_event_sites WHERE event_uuid = $1', [uuid]);
  await db.query('INSERT INTO local_event_sites (site_id, event_uuid) SELECT unnest($2::int[]), $1', [
    uuid,
    siteIds,
  ]);
  // On a Citus cluster the table's trigger fires on a worker, which cannot notify (decision 0046).
  await notifyChanged(db, 'local_event_sites');
}

/** The event `uuid` as answered after a write (all its sites are in the scope by then). */
async function readWritten(db: Queryable, session: Session, uuid: string): Promise<LocalEvent> {
  const row = await readEvent(db, uuid);
  if (!row) throw new DomainError('internal', 'InternalError', `event ${uuid} vanished`);
  return toEvent(row, session.siteIds);
}

/** What the audit log keeps of an event: its answered fields but the author and time, which the log has. */
function auditView(event: LocalEvent): Record<string, unknown> {
  const { creePar: _by, modifieLe: _at, ...kept } = event;
  return kept;
}

/** The SQL values of an input's fields, in the column order of INSERT and UPDATE below ($2…$10). */
function inputValues(input: LocalEventInput): unknown[] {
  return [
    input.typeEvenement,
    input.designation,
    input.canalVente,
    input.plu,
    input.dateDebut,
    input.dateFin,
    input.typeImpact,
    input.tauxImpact,
  ];
}

/**
 * Creates an event (PUT addEvenementLocal; success message `eventAdded`); audit `event.create`.
 * Call in the write's transaction. An input `uuid_evt` is ignored: the server gives the uuid.
 * @throws DomainError forbidden `Forbidden` for sites outside the scope.
 */
export async function addEvent(
  db: Queryable,
  actor: AuditActor,
  session: Session,
  input: LocalEventInput,
): Promise<LocalEvent> {
  requireInScope(session, input.perim_affects);
  const { rows } = await db.query<{ uuid: string }>(
    `INSERT INTO local_events (event_type, designation, sales_channel, plu, start_date, end_date,
                               impact_type, impact_rate, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING uuid`,
    [...inputValues(input), session.userId],
  );
  const uuid = rows[0]!.uuid;
  await writeEventSites(db, uuid, input.perim_affects);
  const created = await readWritten(db, session, uuid);
  await recordAudit(db, actor, {
    action: 'event.create',
    targetId: uuid,
    before: null,
    after: auditView(created),
  });
  return created;
}

/**
 * Replaces an event's fields and sites (POST changeEvenementLocal; `eventEdited`); audit
 * `event.save` with before and after. Call in the write's transaction.
 * @throws DomainError invalid `BadRequest` `{ field: 'uuid_evt' }` without a uuid; notFound
 *   `NotFound`; forbidden `Forbidden` (see {@link lockOwnEvent}, {@link requireInScope}).
 */
export async function changeEvent(
  db: Queryable,
  actor: AuditActor,
  session: Session,
  input: LocalEventInput,
): Promise<LocalEvent> {
  const uuid = input.uuid_evt;
  if (!uuid) throw badField('uuid_evt', 'the event to change is not named');
  const row = await lockOwnEvent(db, session, uuid);
  requireInScope(session, input.perim_affects);
  const before = toEvent(row, session.siteIds);
  await db.query(
    `UPDATE local_events SET event_type = $2, designation = $3, sales_channel = $4, plu = $5,
            start_date = $6, end_date = $7, impact_type = $8, impact_rate = $9, updated_at = now()
      WHERE uuid = $1`,
    [uuid, ...inputValues(input)],
  );
  await writeEventSites(db, uuid, input.perim_affects);
  const after = await readWritten(db, session, uuid);
  await recordAudit(db, actor, {
    action: 'event.save',
    targetId: uuid,
    before: auditView(before),
    after: auditView(after),
  });
  return after;
}

/**
 * Deletes an event and its sites (DELETE deleteEvenementLocal?evenement=uuid); audit
 * `event.remove` with what it was. Call in the write's transaction.
 * @throws DomainError notFound `NotFound`; forbidden `Forbidden` (see {@link lockOwnEvent}).
 */
export async function removeEvent(
  db: Queryable,
  actor: AuditActor,
  session: Session,
  uuid: string,
): Promise<void> {
  const row = await lockOwnEvent(db, session, uuid);
  await db.query('DELETE FROM local_events WHERE uuid = $1', [uuid]);
  await recordAudit(db, actor, {
    action: 'event.remove',
    targetId: uuid,
    before: auditView(toEvent(row, session.siteIds)),
    after: null,
  });
}
