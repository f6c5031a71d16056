/**
 * GET bo/emptyPartialDataBase?id&Site&debut&fin&commentaire and GET bo/emptyDataBase?id&commentaire
 * (SPEC.md §7, issue #30, decision 0040): the archive-first partial empty (one site, a period)
 * and empty (every site of the caller's scope, every date) of the sales detail. Writes
 * (`config.write`: one transaction, Idempotency-Key honoured, no HEAD twin), right ACCES_BASE;
 * a partial empty's site must be in the caller's scope (403 otherwise). The work is purge/purge.ts's; this file
 * checks the call and maps its failures to SPEC.md §8 codes.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INT4_MAX } from '../../contract/integers.ts';
import {
  MAX_PURGE_COMMENT,
  PurgeCommentSchema,
  PurgeDateSchema,
  type PurgeRun,
  PurgeRunSchema,
  PurgeRunsSchema,
} from '../../contract/purge.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { PURGE_KIND, type PurgeJobData, purgeRunsOf } from '../purge/purge-job.ts';
import { auditActor } from './admin-write-helpers.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const Commentaire = z
  .string()
  .max(MAX_PURGE_COMMENT)
  .optional()
  .describe(
    'the reason of the purge (mandatory: 400 InvalidField details.field commentaire when missing or blank)',
  );

const PartialQuerySchema = z.object({
  id: UserIdParam,
  Site: z.coerce.number().int().positive().max(INT4_MAX).describe('the site (restaurantId) to purge'),
  debut: PurgeDateSchema.describe('first fiscal date purged, YYYY-MM-DD'),
  fin: PurgeDateSchema.describe('last fiscal date purged, YYYY-MM-DD (included)'),
  commentaire: Commentaire,
});

const EmptyQuerySchema = z.object({ id: UserIdParam, commentaire: Commentaire });

/** The checked comment. @throws DomainError invalid InvalidField (details.field `commentaire`) */
function requiredComment(text: string | undefined): string {
  const parsed = PurgeCommentSchema.safeParse(text ?? '');
  if (!parsed.success) {
    throw new DomainError('invalid', 'InvalidField', 'a purge needs a comment (commentaire)', {
      field: 'commentaire',
    });
  }
  return parsed.data;
}

/** Who asks, from where, and why. */
function requester(request: FastifyRequest, comment: string) {
  const actor = auditActor(request);
  return { userId: actor.userId ?? 0, address: actor.address, comment };
}

/**
 * Queues the purge `data` in the request's transaction (queued if and only if it commits),
 * audit-logs the request (`database.purgeRequest`), and answers the run as queued.
 */
async function queuePurge(request: FastifyRequest, data: PurgeJobData): Promise<PurgeRun> {
  const tx = writeTx(request);
  const plannedAt = new Date();
  const runId = await request.server.jobs.enqueueIn(tx, PURGE_KIND, data, {
    singletonKey: `purge:${randomUUID()}`,
    plannedAt,
  });
  if (runId === null) throw new Error('a new purge run was refused by the queue');
  const { userId: _user, address: _address, ...asked } = data;
  await recordAudit(tx, auditActor(request), {
    action: 'database.purgeRequest',
    targetId: runId,
    after: asked,
  });
  return {
    runId,
    code: data.code,
    statut: 'QUEUED',
    restaurantId: data.siteId,
    debut: data.debut,
    fin: data.fin,
    planifie: plannedAt.toISOString(),
    termine: null,
    erreur: null,
    purges: [],
  };
}

const DESCRIPTION_TAIL =
  'Archive first (decision 0040): the rows (tickets, lines, payments, losses, cash and safe counts, manager receipts) ' +
  'are written to a gzip JSON-lines archive under DATA_DIR/archives with a SHA-256 manifest, read back and verified, ' +
  'then deleted in the same transaction; the grand totals of each fiscal date are kept (fiscal_day_totals) and the ' +
  'per-day aggregates rebuilt. The audit log is never purged. 400 InvalidField (details.field commentaire) without ' +
  'a comment. The work runs on the job queue (job `database.purge`, no retry); a run whose archive cannot be ' +
  'written or verified ends FAILED with erreur PurgeArchiveFailed, nothing deleted. Audit-logged (`database.purgeRequest` ' +
  'when asked, `database.emptyPartial` per site purged).';

/** Registers bo/emptyPartialDataBase, bo/emptyDataBase and bo/purgeRuns. */
export async function purgeRoutes(app: FastifyInstance, options: { database: Database; config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/bo/emptyPartialDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/emptyPartialDataBase', write: true },
      schema: {
        summary: "Purges one site's period, archive first (partial empty)",
        description: `The detail of site \`Site\` from \`debut\` to \`fin\`. ${DESCRIPTION_TAIL} 403 when the site is outside the caller's scope. Answers the run, queued; \`bo/purgeRuns\` follows it (EmptyPartielOk once SUCCEEDED; \`purges\` empty when the site had no detail in the period).`,
        tags: ['database'],
        querystring: PartialQuerySchema,
        response: { 200: PurgeRunSchema, ...errorResponses },
      },
    },
    async function emptyPartialDataBase(request): Promise<PurgeRun> {
      const session = ownSession(request, request.query.id);
      const { Site, debut, fin } = request.query;
      const comment = requiredComment(request.query.commentaire);
      if (fin < debut) throw new DomainError('invalid', 'BadRequest', 'fin is before debut');
      if (!session.siteIds.includes(Site)) {
        throw new DomainError('forbidden', 'Forbidden', 'the site is outside your scope', { site: Site });
      }
      return queuePurge(request, {
        ...requester(request, comment),
        code: 'EmptyPartielOk',
        siteId: Site,
        debut,
        fin,
        siteIds: [Site],
      });
    },
  );

  api.get(
    '/bo/emptyDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/emptyDataBase', write: true },
      schema: {
        summary: "Purges the detail of every site of the caller's scope, archive first (empty)",
        description: `The detail of every site of the caller's scope (the whole chain for an all-sites administrator), one archive per site, from its first to its last fiscal date (decision 0040). ${DESCRIPTION_TAIL} Answers the run, queued; \`bo/purgeRuns\` follows it (EmptyOk once SUCCEEDED).`,
        tags: ['database'],
        querystring: EmptyQuerySchema,
        response: { 200: PurgeRunSchema, ...errorResponses },
      },
    },
    async function emptyDataBase(request): Promise<PurgeRun> {
      const session = ownSession(request, request.query.id);
      const comment = requiredComment(request.query.commentaire);
      return queuePurge(request, {
        ...requester(request, comment),
        code: 'EmptyOk',
        siteId: null,
        debut: null,
        fin: null,
        siteIds: [...session.siteIds],
      });
    },
  );

  api.get(
    '/bo/purgeRuns',
    {
      config: { rights: 'GET bo/purgeRuns' },
      schema: {
        summary: 'The purges the caller asked for, and where each stands',
        description:
          'The caller’s purge runs (bo/emptyPartialDataBase, bo/emptyDataBase), newest first, at most 20: QUEUED, ' +
          'RUNNING, SUCCEEDED (with the purges done: archive, SHA-256, rows per table) or FAILED (erreur ' +
          'PurgeArchiveFailed: nothing deleted). The screen reads it to show progress and after a reload.',
        tags: ['database'],
        querystring: z.object({ id: UserIdParam }),
        response: { 200: PurgeRunsSchema, ...errorResponses },
      },
    },
    async function purgeRuns(request) {
      const session = ownSession(request, request.query.id);
      return purgeRunsOf(options.database.pool, session.userId);
    },
  );
}
