/**
 * HTTP of cash counts (SPEC.md §7 bo/comptage/*; /analyses/comptageCaisses): what a terminal
 * should hold, the counts of a day, and saving a count as a new version. Reads and writes are
 * counting/cash-counts.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type CashCount,
  CashCountBodySchema,
  CashCountListAnswerSchema,
  CashCountListQuerySchema,
  CashCountSchema,
  ExpectedAnswerSchema,
  ExpectedQuerySchema,
} from '../../../contract/counting.ts';
import { cashCounts, expectedAmounts, saveCashCount } from '../../counting/cash-counts.ts';
import { requiredCounts, rulesOf } from '../../counting/rules.ts';
import { requireSite, siteFactsOf } from '../../counting/sites.ts';
import type { BatchItemInput } from '../../outbox/direct-items.ts';
import { errorResponses, ownSession, requireOwnId, UserIdParam, writeInput } from '../common.ts';
import type { CountingOptions } from './counting-options.ts';

/** Registers bo/comptage/expected, bo/comptage/list and bo/comptage/save. */
export async function cashCountRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/comptage/expected',
    {
      config: { rights: 'GET bo/comptage/expected' },
      schema: {
        summary:
          "What a terminal should hold from the day's payments (cents), and which counts the rules require",
        tags: ['counting'],
        querystring: ExpectedQuerySchema,
        response: { 200: ExpectedAnswerSchema, ...errorResponses },
      },
    },
    async function getExpected(request) {
      const session = ownSession(request, request.query.id);
      const { site, dateFiscale, caisse } = request.query;
      requireSite(session, site);
      const facts = await siteFactsOf(pool, site);
      const rules = await rulesOf(pool, [site]);
      return {
        site,
        dateFiscale,
        caisse,
        currency: facts.currency,
        expected: await expectedAmounts(pool, site, dateFiscale, caisse),
        rules,
        required: requiredCounts(rules),
      };
    },
  );

  api.get(
    '/bo/comptage/list',
    {
      config: { rights: 'GET bo/comptage/list' },
      schema: {
        summary: "Every version of a day's cash counts of a site (or one terminal), latest version first",
        tags: ['counting'],
        querystring: CashCountListQuerySchema,
        response: { 200: CashCountListAnswerSchema, ...errorResponses },
      },
    },
    async function listCashCounts(request) {
      const session = ownSession(request, request.query.id);
      const { site, dateFiscale, caisse } = request.query;
      requireSite(session, site);
      const facts = await siteFactsOf(pool, site);
      const counts = await cashCounts(pool, {
        siteIds: [site],
        dateDebut: dateFiscale,
        dateFin: dateFiscale,
        terminals: caisse === undefined ? [] : [caisse],
      });
      return { currency: facts.currency, counts };
    },
  );

  api.post(
    '/bo/comptage/save',
    {
      config: { rights: 'POST bo/comptage/save', write: true, batchItem: saveCount },
      schema: {
        summary: 'Saves a cash count as a new version (never overwrites); honours Idempotency-Key',
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam }),
        body: CashCountBodySchema,
        response: { 200: CashCountSchema, ...errorResponses },
      },
    },
    function saveCountRequest(request) {
      return saveCount(writeInput(request, request.query, request.body));
    },
  );
}

/** POST bo/comptage/save's work, for a request or a batch item (outbox/direct-items.ts). */
async function saveCount(
  input: BatchItemInput<{ id: number }, z.output<typeof CashCountBodySchema>>,
): Promise<CashCount> {
  const { query, body, session, tx } = input;
  requireOwnId(session, query.id);
  requireSite(session, body.site);
  return saveCashCount(tx, body, session);
}
