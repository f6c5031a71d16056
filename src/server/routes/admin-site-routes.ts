/**
 * HTTP of the administration of companies and sites (issue #18, SPEC.md §7): GET
 * bo/infra/getSocietes, POST newSociete, saveSociete?id, GET removeSociete?id, POST newSite,
 * saveSite?id. Right CONFIGURATION (contract/rights.ts). Every write runs in one transaction
 * (`config.write`) with its audit entry, honours Idempotency-Key, and answers only once this
 * process's caches of sites and scopes have dropped what it made stale. The reads and writes
 * are administration/companies.ts's and sites.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminSiteSchema,
  SiteInputSchema,
  SocieteInputSchema,
  SocieteSchema,
} from '../../contract/administration.ts';
import { createCompany, listSocietes, removeCompany, saveCompany } from '../administration/companies.ts';
import { createSite, saveSite } from '../administration/sites.ts';
import type { Database } from '../db/connect.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor, RemovedAnswer, settleCaches, targetIdQuery } from './admin-write-helpers.ts';
import { errorResponses } from './common.ts';

const tags = ['administration'];

const CompanyIdQuery = targetIdQuery('company');
const SiteIdQuery = targetIdQuery('site');

const COMPANY_ERRORS =
  '400 InvalidField with details.field: `siret` (its first nine digits must be the SIREN), ' +
  '`raisonSociale` with `duplicate: true` (the name is taken, ignoring case), `restaurantId` ' +
  '(unknown site).';

/** GET bo/infra/getSocietes and GET bo/infra/removeSociete. */
function registerCompanyListAndRemoval(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/infra/getSocietes',
    {
      config: { rights: 'GET bo/infra/getSocietes' },
      schema: {
        summary: 'Every company with its sites, their terminals and sellers (administration)',
        description: "Sites labelled 'NON REMPLI' are listed with `hidden: true` (hidden everywhere else).",
        tags,
        querystring: z.object({}),
        response: { 200: z.array(SocieteSchema), ...errorResponses },
      },
    },
    async function getSocietes() {
      return listSocietes(database.pool);
    },
  );

  api.get(
    '/bo/infra/removeSociete',
    {
      config: { rights: 'GET bo/infra/removeSociete', write: true },
      exposeHeadRoute: false, // a GET that acts: no HEAD twin, which would act too
      onSend: settleCaches,
      schema: {
        summary: 'Removes a company nothing uses any more (a GET that writes; Idempotency-Key honoured)',
        description:
          '409 InUse while sites run under it or groups, profiles or users add or remove it: ' +
          '`details` names them (`sites`: libelles, `groups`, `profiles`: titles, `users`: logins). ' +
          '404 NotFound for an unknown id.',
        tags,
        querystring: CompanyIdQuery,
        response: { 200: RemovedAnswer, ...errorResponses },
      },
    },
    async function removeSociete(request) {
      await removeCompany(writeTx(request), auditActor(request), request.query.id);
      return { id: request.query.id };
    },
  );
}

/** POST bo/infra/newSociete and saveSociete?id. */
function registerCompanyWrites(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/bo/infra/newSociete',
    {
      config: { rights: 'POST bo/infra/newSociete', write: true },
      onSend: settleCaches,
      schema: {
        summary: 'Creates a company; `restaurantId` moves that existing site into it (SPEC.md §7)',
        description: `Moving a site changes the site scope of users who add or remove companies. ${COMPANY_ERRORS}`,
        tags,
        body: SocieteInputSchema,
        response: { 200: SocieteSchema, ...errorResponses },
      },
    },
    async function newSociete(request) {
      return createCompany(writeTx(request), auditActor(request), request.body);
    },
  );

  api.post(
    '/bo/infra/saveSociete',
    {
      config: { rights: 'POST bo/infra/saveSociete', write: true },
      onSend: settleCaches,
      schema: {
        summary: "Replaces a company's fields; `restaurantId`, when given, moves that site into it",
        description:
          'Imports find a company by its raison sociale: after a rename, an import naming the old ' +
          `one creates a new company. 404 NotFound for an unknown id. ${COMPANY_ERRORS}`,
        tags,
        querystring: CompanyIdQuery,
        body: SocieteInputSchema,
        response: { 200: SocieteSchema, ...errorResponses },
      },
    },
    async function saveSociete(request) {
      return saveCompany(writeTx(request), auditActor(request), request.query.id, request.body);
    },
  );
}

const SITE_DESCRIPTION =
  '`dayStart` (HH:mm) and `timeZone` (IANA, stored in its canonical spelling) decide how later ' +
  'imports assign fiscal dates; tickets already imported keep their fiscal dates. A new ' +
  '`currency` labels later imports; amounts already imported are not converted. ' +
  '`codeImplant` is kept in the site and in `extras.code_implant` (bo/getSites). ' +
  '`caisses` / `vendeurs` rename or add terminals and sellers; those not listed are kept. ' +
  'A new `societeId` moves the site to that company (and changes the scope of users who add or ' +
  'remove companies). 400 InvalidField with details.field: `libelle` with `duplicate: true`, ' +
  '`societeId` (unknown company), `timeZone`, `caisses` / `vendeurs` (a number or code given ' +
  'twice, or an empty name).';

/** POST bo/infra/newSite and saveSite?id. */
function registerSiteWrites(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/bo/infra/newSite',
    {
      config: { rights: 'POST bo/infra/newSite', write: true },
      onSend: settleCaches,
      schema: {
        summary: 'Creates a site with its terminals and sellers',
        description: SITE_DESCRIPTION,
        tags,
        body: SiteInputSchema,
        response: { 200: AdminSiteSchema, ...errorResponses },
      },
    },
    async function newSite(request) {
      return createSite(writeTx(request), auditActor(request), request.body);
    },
  );

  api.post(
    '/bo/infra/saveSite',
    {
      config: { rights: 'POST bo/infra/saveSite', write: true },
      onSend: settleCaches,
      schema: {
        summary: "Replaces a site's fields; renames or adds its terminals and sellers",
        description:
          `${SITE_DESCRIPTION} Imports find a site by its libelle: after a rename, an import naming ` +
          'the old one creates a new site. 404 NotFound for an unknown id.',
        tags,
        querystring: SiteIdQuery,
        body: SiteInputSchema,
        response: { 200: AdminSiteSchema, ...errorResponses },
      },
    },
    async function saveSiteRoute(request) {
      return saveSite(writeTx(request), auditActor(request), request.query.id, request.body);
    },
  );
}

/** Registers the administration's company and site routes. */
export async function adminSiteRoutes(app: FastifyInstance, options: { database: Database }) {
  registerCompanyListAndRemoval(app, options.database);
  registerCompanyWrites(app);
  registerSiteWrites(app);
}
