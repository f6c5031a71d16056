/**
 * GET bo/emptyPartialDataBase?id&Site&debut&fin&commentaire and GET bo/emptyDataBase?id&commentaire
 * (SPEC.md §7, issue #30, decision 0040): the archive-first partial empty (one site, a period)
 * and empty (every site of the caller's scope, every date) of the sales detail. Writes
 * (`config.write`: one transaction, Idempotency-Key honoured, no HEAD twin), right ACCES_BASE;
 * a partial empty's site must be in the caller's scope (403 otherwise). The work is purge/purge.ts's; this file
 * checks the call and maps its failures to SPEC.md §8 codes.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INT4_MAX } from '../../contract/integers.ts';
import {
  MAX_PURGE_COMMENT,
  type PurgeAnswer,
  PurgeAnswerSchema,
  PurgeCommentSchema,
  PurgeDateSchema,
} from '../../contract/purge.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { ArchiveError } from '../purge/archive.ts';
import { lockPurgedTables, type PurgeOptions, purgeSitePeriod, purgeWholeSites } from '../purge/purge.ts';
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

/** Runs `work`, turning an archive failure into 500 PurgeArchiveFailed (logged with its reason). */
async function archiveFirst<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    request.log.error({ err: error }, 'purge refused: the archive could not be written or verified');
    throw new DomainError(
      'internal',
      'PurgeArchiveFailed',
      'the archive could not be written or verified: nothing was deleted',
    );
  }
}

const DESCRIPTION_TAIL =
  'Archive first (decision 0040): the rows (tickets, lines, payments, losses, cash and safe counts, manager receipts) ' +
  'are written to a gzip JSON-lines archive under DATA_DIR/archives with a SHA-256 manifest, read back and verified, ' +
  'then deleted in the same transaction; the grand totals of each fiscal date are kept (fiscal_day_totals) and the ' +
  'per-day aggregates rebuilt. The audit log is never purged. 400 InvalidField (details.field commentaire) without ' +
  'a comment; 500 PurgeArchiveFailed when the archive cannot be written or verified, nothing deleted. Audit-logged ' +
  '(`database.emptyPartial` per site).';

/** Registers bo/emptyPartialDataBase and bo/emptyDataBase. */
export async function purgeRoutes(app: FastifyInstance, options: { database: Database; config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const purgeOptions = (): PurgeOptions => ({
    dataDir: options.config.dataDir,
    archiveDir: path.join(options.config.dataDir, 'archives'),
    now: new Date(),
  });

  api.get(
    '/bo/emptyPartialDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/emptyPartialDataBase', write: true },
      schema: {
        summary: "Purges one site's period, archive first (partial empty)",
        description: `The detail of site \`Site\` from \`debut\` to \`fin\`. ${DESCRIPTION_TAIL} 403 when the site is outside the caller's scope. Answers EmptyPartielOk; \`purges\` is empty when the site has no detail in the period (nothing archived or deleted).`,
        tags: ['database'],
        querystring: PartialQuerySchema,
        response: { 200: PurgeAnswerSchema, ...errorResponses },
      },
    },
    async function emptyPartialDataBase(request): Promise<PurgeAnswer> {
      const session = ownSession(request, request.query.id);
      const { Site, debut, fin } = request.query;
      const comment = requiredComment(request.query.commentaire);
      if (fin < debut) throw new DomainError('invalid', 'BadRequest', 'fin is before debut');
      if (!session.siteIds.includes(Site)) {
        throw new DomainError('forbidden', 'Forbidden', 'the site is outside your scope', { site: Site });
      }
      const tx = writeTx(request);
      await lockPurgedTables(tx);
      const purge = await archiveFirst(request, () =>
        purgeSitePeriod(
          tx,
          auditActor(request),
          { siteId: Site, fromDate: debut, toDate: fin, comment },
          purgeOptions(),
        ),
      );
      return { code: 'EmptyPartielOk', purges: purge ? [purge] : [] };
    },
  );

  api.get(
    '/bo/emptyDataBase',
    {
      exposeHeadRoute: false,
      config: { rights: 'GET bo/emptyDataBase', write: true },
      schema: {
        summary: "Purges the detail of every site of the caller's scope, archive first (empty)",
        description: `The detail of every site of the caller's scope (the whole chain for an all-sites administrator), one archive per site, from its first to its last fiscal date (decision 0040). ${DESCRIPTION_TAIL} Answers EmptyOk.`,
        tags: ['database'],
        querystring: EmptyQuerySchema,
        response: { 200: PurgeAnswerSchema, ...errorResponses },
      },
    },
    async function emptyDataBase(request): Promise<PurgeAnswer> {
      const session = ownSession(request, request.query.id);
      const comment = requiredComment(request.query.commentaire);
      const tx = writeTx(request);
      await lockPurgedTables(tx);
      const purges = await archiveFirst(request, () =>
        purgeWholeSites(tx, auditActor(request), session.siteIds, comment, purgeOptions()),
      );
      return { code: 'EmptyOk', purges };
    },
  );
}
