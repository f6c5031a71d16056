/**
 * Reference data of the signed-in user's scope (SPEC.md §4's loading order: sites, groups,
 * sellers, terminals): GET bo/getSites, bo/getEnseignes, bo/getSirets,
 * bo/infra/getRegroupements, bo/getCaisses, bo/getVendeurs. Every answer is limited to the
 * sites of `session.siteIds` (SPEC.md §6); groups and companies appear only through those sites.
 * One exception: bo/infra/getRegroupements without `id` is administration's list of every
 * group (issue #18, right CONFIGURATION, administration/groups.ts).
 * The reads are in src/server/reference/.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CaissesAnswerSchema,
  EnseigneSchema,
  RegroupementSchema,
  SiretSchema,
  SitesAnswerSchema,
  VendeursAnswerSchema,
} from '../../contract/api.ts';
import { AdminRegroupementSchema } from '../../contract/administration.ts';
import { satisfies } from '../../contract/rights.ts';
import { listAdminGroups } from '../administration/groups.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { listBrands, listCompanies } from '../reference/companies.ts';
import { sellersBySite } from '../reference/sellers.ts';
import { listSiteGroups } from '../reference/site-groups.ts';
import { listSites } from '../reference/sites.ts';
import { terminalsBySite } from '../reference/terminals.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from './common.ts';

const IdQuery = z.object({ id: UserIdParam });
const tags = ['reference data'];

/** What the reference routes need. */
interface ReferenceOptions {
  database: Database;
  config: Pick<Config, 'distribution'>;
}

/** GET bo/getSites: the sites of the scope. */
function registerSiteRoutes(app: FastifyInstance, { database, config }: ReferenceOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/getSites',
    {
      config: { rights: 'GET bo/getSites' },
      schema: {
        summary:
          "Sites of the user's scope with their groups (caisses and vendeurs come from getCaisses / getVendeurs)",
        tags,
        querystring: IdQuery,
        response: { 200: SitesAnswerSchema, ...errorResponses },
      },
    },
    async function getSites(request) {
      const session = ownSession(request, request.query.id);
      return listSites(database.pool, session.siteIds, config.distribution);
    },
  );
}

/** GET bo/getEnseignes and bo/getSirets: the brands and companies behind the scope's sites. */
function registerCompanyRoutes(app: FastifyInstance, { database }: ReferenceOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/getEnseignes',
    {
      config: { rights: 'GET bo/getEnseignes' },
      schema: {
        summary:
          "Brands (enseignes) of the user's sites; a company without a brand trades under its raison sociale",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(EnseigneSchema), ...errorResponses },
      },
    },
    async function getBrands(request) {
      const session = ownSession(request, request.query.id);
      return listBrands(database.pool, session.siteIds);
    },
  );

  api.get(
    '/bo/getSirets',
    {
      config: { rights: 'GET bo/getSirets' },
      schema: {
        summary: "Companies (raison sociale, SIRET) running the user's sites",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(SiretSchema), ...errorResponses },
      },
    },
    async function getCompanies(request) {
      const session = ownSession(request, request.query.id);
      return listCompanies(database.pool, session.siteIds);
    },
  );
}

/**
 * Query of GET bo/infra/getRegroupements: with `id` (the caller's own id) the groups of the
 * user's scope, as before; without it administration's list of every group.
 */
const RegroupementsQuery = z.object({
  id: UserIdParam.optional().describe(
    'id of the signed-in user: the groups of their scope; absent: every group (needs CONFIGURATION)',
  ),
});

/**
 * The two answers of GET bo/infra/getRegroupements. Administration's first: the serializer keeps
 * the first member that parses, and a scope answer (no `sites`) never parses as it.
 */
const RegroupementsAnswerSchema = z.union([
  z.array(AdminRegroupementSchema).describe('without `id`: every group (AdminRegroupement)'),
  z.array(RegroupementSchema).describe("with `id`: the groups of the user's scope (Regroupement)"),
]);

/** GET bo/infra/getRegroupements: the groups holding the scope's sites, or administration's list. */
function registerSiteGroupRoutes(app: FastifyInstance, { database }: ReferenceOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/infra/getRegroupements',
    {
      config: { rights: 'GET bo/infra/getRegroupements' },
      schema: {
        summary:
          "With `id`: groups of sites holding at least one of the user's sites, restricted to those sites. " +
          'Without `id`: every group for administration',
        description:
          'Without `id` (right CONFIGURATION, else 403 Forbidden) each group has its own sites ' +
          '(`restaurantIds`), added and removed companies (`societesPlus`, `societesMoins`), the ' +
          'raisons sociales it spans and `sites`, its effective site ids (restaurantIds + sites of ' +
          'societesPlus − sites of societesMoins).',
        tags,
        querystring: RegroupementsQuery,
        response: { 200: RegroupementsAnswerSchema, ...errorResponses },
      },
    },
    async function getSiteGroups(request) {
      const { id } = request.query;
      if (id === undefined) {
        if (!satisfies({ anyOf: ['CONFIGURATION'] }, sessionOf(request).droits)) {
          throw new ApiHttpError(403, 'Forbidden', 'the list of every group needs CONFIGURATION');
        }
        return listAdminGroups(database.pool);
      }
      const session = ownSession(request, id);
      return listSiteGroups(database.pool, session.siteIds);
    },
  );
}

/** GET bo/getCaisses and bo/getVendeurs: terminals and sellers of the scope's sites. */
function registerTerminalAndSellerRoutes(app: FastifyInstance, { database }: ReferenceOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/getCaisses',
    {
      config: { rights: 'GET bo/getCaisses' },
      schema: {
        summary: "Terminals (caisses) of the user's sites, keyed by restaurantId",
        tags,
        querystring: IdQuery,
        response: { 200: CaissesAnswerSchema, ...errorResponses },
      },
    },
    async function getTerminals(request) {
      const session = ownSession(request, request.query.id);
      return terminalsBySite(database.pool, session.siteIds);
    },
  );

  api.get(
    '/bo/getVendeurs',
    {
      config: { rights: 'GET bo/getVendeurs' },
      schema: {
        summary: "Sellers (vendeurs) of the user's sites, keyed by restaurantId",
        tags,
        querystring: IdQuery,
        response: { 200: VendeursAnswerSchema, ...errorResponses },
      },
    },
    async function getSellers(request) {
      const session = ownSession(request, request.query.id);
      return sellersBySite(database.pool, session.siteIds);
    },
  );
}

/** Registers the reference routes (the OpenAPI document lists them in this order). */
export async function referenceRoutes(app: FastifyInstance, options: ReferenceOptions) {
  registerSiteRoutes(app, options);
  registerCompanyRoutes(app, options);
  registerSiteGroupRoutes(app, options);
  registerTerminalAndSellerRoutes(app, options);
}
