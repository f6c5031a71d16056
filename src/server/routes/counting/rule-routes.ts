/**
 * HTTP of the counting rules (SPEC.md §7 GET bo/getListRules, GET bo/updateRule); the rules
 * themselves are counting/rules.ts's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  GetListRulesQuerySchema,
  type Rule,
  RulesAnswerSchema,
  UpdateRuleQuerySchema,
} from '../../../contract/counting.ts';
import { rulesOf, setRule } from '../../counting/rules.ts';
import { requireSite } from '../../counting/sites.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession } from '../common.ts';
import type { CountingOptions } from './counting-options.ts';

/** Registers bo/getListRules and bo/updateRule. */
export async function ruleRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  /** The rules of `site`, or of every site of the scope. */
  async function getListRules(
    request: FastifyRequest<{ Querystring: z.output<typeof GetListRulesQuerySchema> }>,
  ): Promise<Rule[]> {
    const session = ownSession(request, request.query.id);
    const { site } = request.query;
    if (site !== undefined) requireSite(session, site);
    return rulesOf(pool, site !== undefined ? [site] : session.siteIds);
  }

  /** Turns a rule on or off on `site`, or on every site of the scope. */
  async function updateRule(
    request: FastifyRequest<{ Querystring: z.output<typeof UpdateRuleQuerySchema> }>,
  ): Promise<Rule[]> {
    const session = ownSession(request, request.query.id);
    const { site, libelle, active } = request.query;
    if (site !== undefined) requireSite(session, site);
    const siteIds = site !== undefined ? [site] : session.siteIds;
    return setRule(writeTx(request), siteIds, libelle, active, session.userId);
  }

  api.get(
    '/bo/getListRules',
    {
      config: { rights: 'GET bo/getListRules' },
      schema: {
        summary: 'Counting rules of the sites of the scope (or of `site`), defaults filled in',
        tags: ['counting'],
        querystring: GetListRulesQuerySchema,
        response: { 200: RulesAnswerSchema, ...errorResponses },
      },
    },
    getListRules,
  );

  api.get(
    '/bo/updateRule',
    {
      config: { rights: 'GET bo/updateRule', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary:
          'Turns a counting rule on or off on `site`, or on every site of the scope (a GET that writes)',
        tags: ['counting'],
        querystring: UpdateRuleQuerySchema,
        response: { 200: RulesAnswerSchema, ...errorResponses },
      },
    },
    updateRule,
  );
}
