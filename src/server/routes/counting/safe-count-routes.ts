/**
 * HTTP of safe counts (SPEC.md §7 GET coffre in its three forms; POST coffre/save, ours). Reads
 * and writes are counting/safe-counts.ts's; the PDF receipt is counting/receipt-pdfs.ts's.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FiscalDateSchema,
  SAFE_ACTIONS,
  type SafeCount,
  SafeCountBodySchema,
  SafeCountSchema,
  SafeDayAnswerSchema,
  SafeListAnswerSchema,
} from '../../../contract/counting.ts';
import { LanguageSchema } from '../../../contract/reports.ts';
import type { Session } from '../../auth/session.ts';
import { documentLanguage, safeReceiptPdf } from '../../counting/receipt-pdfs.ts';
import {
  requireSafeListPeriod,
  safeCountById,
  safeCounts,
  safeDay,
  saveSafeCount,
} from '../../counting/safe-counts.ts';
import { requireSite } from '../../counting/sites.ts';
import { ApiHttpError } from '../../plugins/error-handler.ts';
import { contentDisposition } from '../../reports/render/index.ts';
import type { BatchItemInput } from '../../outbox/direct-items.ts';
import {
  documentAnswer,
  errorResponses,
  requireOwnId,
  sessionOf,
  UserIdParam,
  writeInput,
} from '../common.ts';
import type { CountingOptions } from './counting-options.ts';
import { BIGINT_ID_MAX, INT4_MAX } from '../../../contract/integers.ts';

const CoffreQuerySchema = z.object({
  dateFiscale: FiscalDateSchema.optional().describe('form 1: the safe counts of this fiscal date'),
  ACTION: z.enum(SAFE_ACTIONS).optional().describe('form 2: getComptages; form 3: getRecu'),
  restaurantId: z.coerce.number().int().positive().max(INT4_MAX).optional().describe('form 2: the site'),
  dateDebut: FiscalDateSchema.optional().describe('form 2: first fiscal date'),
  dateFin: FiscalDateSchema.optional().describe('form 2: last fiscal date (included)'),
  pdf: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('form 3: PDF (true) or JSON'),
  id: z.coerce.number().int().positive().max(BIGINT_ID_MAX).optional().describe('form 3: the safe count id'),
  language: LanguageSchema.optional().describe('form 3: language of the PDF'),
});
type CoffreQuery = z.output<typeof CoffreQuerySchema>;

/** Registers GET coffre (its three forms) and POST coffre/save. */
export async function safeCountRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  /** Form 3 (getRecu): one safe count as JSON, or its PDF receipt with pdf=true. */
  async function safeReceipt(q: CoffreQuery, session: Session, reply: FastifyReply) {
    if (q.id === undefined) throw new ApiHttpError(400, 'BadRequest', 'getRecu needs id');
    const count = await safeCountById(pool, q.id, session.siteIds);
    if (!q.pdf) return count;
    const language = documentLanguage(q.language, session);
    const pdf = await safeReceiptPdf(pool, count, language, options.config.distribution);
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition(`coffre-${count.id}.pdf`))
      .send(pdf);
  }

  /** Form 2 (getComptages): every version of one site's safe counts over a period. */
  async function safeCountList(q: CoffreQuery, session: Session) {
    if (q.restaurantId === undefined || !q.dateDebut || !q.dateFin)
      throw new ApiHttpError(400, 'BadRequest', 'getComptages needs restaurantId, dateDebut and dateFin');
    requireSite(session, q.restaurantId);
    requireSafeListPeriod(q.dateDebut, q.dateFin);
    return {
      data: await safeCounts(pool, { siteIds: [q.restaurantId], dateDebut: q.dateDebut, dateFin: q.dateFin }),
    };
  }

  api.get(
    '/coffre',
    {
      config: { rights: 'GET coffre' },
      schema: {
        summary:
          'Safe counts: ?dateFiscale | ?ACTION=getComptages&restaurantId&dateDebut&dateFin | ?ACTION=getRecu&pdf=true&id',
        tags: ['counting'],
        querystring: CoffreQuerySchema,
        response: {
          200: documentAnswer(z.union([SafeDayAnswerSchema, SafeListAnswerSchema, SafeCountSchema]), [
            'application/pdf',
          ]),
          ...errorResponses,
        },
      },
    },
    async function getCoffre(request, reply) {
      const session = sessionOf(request);
      const q = request.query;
      if (q.ACTION === 'getRecu') return safeReceipt(q, session, reply);
      if (q.ACTION === 'getComptages') return safeCountList(q, session);
      if (!q.dateFiscale)
        throw new ApiHttpError(400, 'BadRequest', 'give dateFiscale, or ACTION with its parameters');
      return safeDay(pool, session.siteIds, q.dateFiscale);
    },
  );

  api.post(
    '/coffre/save',
    {
      config: { rights: 'POST coffre/save', write: true, batchItem: saveCount },
      schema: {
        summary: 'Saves a safe count as a new version (never overwrites); honours Idempotency-Key',
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam }),
        body: SafeCountBodySchema,
        response: { 200: SafeCountSchema, ...errorResponses },
      },
    },
    function saveCountRequest(request) {
      return saveCount(writeInput(request, request.query, request.body));
    },
  );
}

/** POST coffre/save's work, for a request or a batch item (outbox/direct-items.ts). */
async function saveCount(
  input: BatchItemInput<{ id: number }, z.output<typeof SafeCountBodySchema>>,
): Promise<SafeCount> {
  const { query, body, session, tx } = input;
  requireOwnId(session, query.id);
  requireSite(session, body.site);
  return saveSafeCount(tx, body, session);
}
