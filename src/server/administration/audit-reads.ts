/**
 * Reading the audit log (issue #18: "a screen lists it with filters (user, kind, period) and it is
 * never editable from the API"; GET bo/infra/getAudit). Entries are written by
 * audit/audit-log.ts in the transaction of the change they record; this module only reads.
 *
 * The author's login is joined from `users`; for an author removed since, it is taken from the
 * `user.remove` entry that recorded their removal, so old entries still say who acted.
 */
import type { z } from 'zod';
import type { AuditEntry, AuditQuerySchema } from '../../contract/administration.ts';
import type { Queryable } from '../db/queryable.ts';
import { invalidField } from './user-guards.ts';

/** getAudit's query as the contract's schema parsed it (limit and offset defaulted). */
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/**
 * The zone in which the period's dates are days: the chain's default (sites.time_zone's default,
 * db/schema.ts), since the log spans every site.
 */
export const AUDIT_TIME_ZONE = 'Europe/Paris';

interface AuditRow {
  id: number;
  at: Date;
  user_id: number | null;
  login: string | null;
  action: string;
  kind: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  address: string | null;
}

const FILTER = `($1::int IS NULL OR a.user_id = $1)
   AND ($2::text IS NULL OR a.kind = $2)
   AND ($3::date IS NULL OR a.at >= $3::date::timestamp AT TIME ZONE $5)
   AND ($4::date IS NULL OR a.at < ($4::date + 1)::timestamp AT TIME ZONE $5)`;

/**
 * The entries of the log matching `query` (author `userId`, `kind`, days `dateDebut`…`dateFin`
 * inclusive in {@link AUDIT_TIME_ZONE}), newest first, `limit` from `offset`, and how many match.
 * @throws DomainError invalid `InvalidField` `{ field: 'dateFin' }` when the period ends before it starts.
 */
export async function readAudit(
  db: Queryable,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; total: number }> {
  if (query.dateDebut && query.dateFin && query.dateFin < query.dateDebut) {
    throw invalidField('dateFin', 'the period ends before it starts');
  }
  const filters = [
    query.userId ?? null,
    query.kind ?? null,
    query.dateDebut ?? null,
    query.dateFin ?? null,
    AUDIT_TIME_ZONE,
  ];
  const { rows } = await db.query<AuditRow>(
    `SELECT a.id, a.at, a.user_id, a.action, a.kind, a.target_id, a.before, a.after, a.address,
            coalesce(u.login, (SELECT r.before->>'login' FROM audit_log r
                                WHERE r.action = 'user.remove' AND r.target_id = a.user_id::text
                                ORDER BY r.id DESC LIMIT 1)) AS login
       FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
      WHERE ${FILTER}
      ORDER BY a.at DESC, a.id DESC LIMIT $6 OFFSET $7`,
    [...filters, query.limit, query.offset],
  );
  const counted = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log a WHERE ${FILTER}`,
    filters,
  );
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      userId: r.user_id,
      login: r.login,
      action: r.action,
      kind: r.kind,
      targetId: r.target_id,
      before: r.before,
      after: r.after,
      address: r.address,
    })),
    total: counted.rows[0]?.n ?? 0,
  };
}
