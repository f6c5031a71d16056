/**
 * Counting rules (SPEC.md §3 "Rule: libelle, active"; §7 GET bo/getListRules, GET bo/updateRule):
 * every site has the rules of RULE_LIBELLES; a rule never changed has its default
 * (RULE_DEFAULTS), only changes are stored (`counting_rules`), so a new site needs no seeding.
 * An active rule makes the matching part of a cash count required.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GetListRulesQuerySchema,
  RULE_DEFAULTS,
  RULE_LIBELLES,
  type RequiredCounts,
  type Rule,
  type RuleLibelle,
  RulesAnswerSchema,
  UpdateRuleQuerySchema,
} from '../../../contract/counting.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession } from '../common.ts';
import { type CountingOptions, type Queryable, requireSite } from './counting-options.ts';

/** The rules of `siteIds` (ascending site, then RULE_LIBELLES order), defaults filled in. */
export async function rulesOf(db: Queryable, siteIds: readonly number[]): Promise<Rule[]> {
  const { rows } = await db.query<{ site_id: number; libelle: string; active: boolean }>(
    'SELECT site_id, libelle, active FROM counting_rules WHERE site_id = ANY($1)',
    [siteIds],
  );
  const stored = new Map(rows.map((r) => [`${r.site_id}:${r.libelle}`, r.active]));
  return [...siteIds]
    .sort((a, b) => a - b)
    .flatMap((restaurantId) =>
      RULE_LIBELLES.map((libelle) => ({
        restaurantId,
        libelle,
        active: stored.get(`${restaurantId}:${libelle}`) ?? RULE_DEFAULTS[libelle],
      })),
    );
}

/** Which parts of a cash count the (one site's) `rules` require. */
export function requiredCounts(rules: readonly Rule[]): RequiredCounts {
  const on = (l: RuleLibelle) => rules.some((r) => r.libelle === l && r.active);
  return {
    cash: on('comptageEspeces'),
    cheques: on('comptageCheques'),
    mealVouchers: on('comptageTicketsRestaurant'),
    cardSlips: on('comptageCartes'),
  };
}

export async function ruleRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

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
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { site } = request.query;
      if (site !== undefined) requireSite(session, site);
      return rulesOf(pool, site !== undefined ? [site] : session.siteIds);
    },
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
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { site, libelle, active } = request.query;
      if (site !== undefined) requireSite(session, site);
      const siteIds = site !== undefined ? [site] : session.siteIds;
      const tx = writeTx(request);
      await tx.query(
        `INSERT INTO counting_rules (site_id, libelle, active, updated_by, updated_at)
         SELECT s, $2, $3, $4, now() FROM unnest($1::int[]) AS s
         ON CONFLICT (site_id, libelle) DO UPDATE
           SET active = EXCLUDED.active, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [siteIds, libelle, active, session.userId],
      );
      return (await rulesOf(tx, siteIds)).filter((r) => r.libelle === libelle);
    },
  );
}
