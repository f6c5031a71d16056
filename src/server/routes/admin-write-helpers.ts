/**
 * Pieces the administration's company, site and group routes share (issue #18): the `id` of
 * the row a call changes, the answer of a `remove*`, the audit log's actor, and the wait that
 * keeps this process's caches true after a write.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuditActor } from '../audit/audit-log.ts';
import { sessionOf } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

/** `id` of save* / remove* calls: the id of the `what` (company, site, group), not the caller's. */
export function targetIdQuery(what: string) {
  return z.object({ id: z.coerce.number().int().positive().max(INT4_MAX).describe(`id of the ${what}`) });
}

/** Answer of every `remove*`: the removed row's id. */
export const RemovedAnswer = z.object({ id: z.number().int() });

/** Who makes the change (the signed-in user) and from where (`request.ip`), for the audit log. */
export function auditActor(request: FastifyRequest): AuditActor {
  return { userId: sessionOf(request).userId, address: request.ip };
}

/**
 * onSend of a write: after a 2xx (the write's transaction has committed by then), waits until
 * the change feed has delivered that commit's notifications to this process's caches (session
 * scopes, report sites: db/changes.ts), so a call made after this answer never sees the old
 * sites. Other server processes catch up as their own feeds deliver.
 */
export async function settleCaches(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode >= 200 && reply.statusCode < 300) await request.server.changes.settled();
  return payload;
}
