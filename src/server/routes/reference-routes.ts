/**
 * Reference data of the signed-in user's scope (SPEC.md §4's loading order: sites, groups,
 * sellers, terminals): GET bo/getSites, bo/getEnseignes, bo/getSirets,
 * bo/infra/getRegroupements, bo/getCaisses, bo/getVendeurs. Every answer is limited to the
 * sites of `session.siteIds` (SPEC.md §6); groups and companies appear only through those sites.
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
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { listBrands, listCompanies } from '../reference/companies.ts';
import { sellersBySite } from '../reference/sellers.ts';
import { listSiteGroups } from '../reference/site-groups.ts';
import { listSites } from '../reference/sites.ts';
import { terminalsBySite } from '../reference/terminals.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

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

/** GET bo/infra/getRegroupements: the groups holding the scope's sites. */
function registerSiteGroupRoutes(app: FastifyInstance, { database }: ReferenceOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/infra/getRegroupements',
    {
      config: { rights: 'GET bo/infra/getRegroupements' },
      schema: {
        summary: "Groups of sites holding at least one of the user's sites, restricted to those sites",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(RegroupementSchema), ...errorResponses },
      },
    },
    async function getSiteGroups(request) {
      const session = ownSession(request, request.query.id);
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
