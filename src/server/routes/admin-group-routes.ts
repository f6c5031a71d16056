/**
 * HTTP of the administration of groups of sites (issue #18, SPEC.md §7): POST
 * bo/infra/newRegroupement, saveRegroupement?id, GET removeRegroupement?id. Right
 * CONFIGURATION (contract/rights.ts). The list is GET bo/infra/getRegroupements without `id`
 * (reference-routes.ts). Every write runs in one transaction (`config.write`) with its audit
 * entry and honours Idempotency-Key. The reads and writes are administration/groups.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminRegroupementSchema, RegroupementInputSchema } from '../../contract/administration.ts';
import { createGroup, removeGroup, saveGroup } from '../administration/groups.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor, RemovedAnswer, targetIdQuery } from './admin-write-helpers.ts';
import { errorResponses } from './common.ts';

const tags = ['administration'];
const GroupIdQuery = targetIdQuery('group');

const GROUP_DESCRIPTION =
  'Effective sites (`sites`) = `restaurantIds` + sites of `societesIdPlus` − sites of ' +
  '`societesIdMoins` (removal wins). Lists are JSON arrays or comma-separated text. ' +
  '400 InvalidField with details.field: `raisonSociale` with `duplicate: true` (the name is ' +
  'taken, ignoring case), `restaurantIds` / `societesIdPlus` / `societesIdMoins` with ' +
  '`unknown` (ids that do not exist).';

/** POST bo/infra/newRegroupement and saveRegroupement?id. */
function registerGroupWrites(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/bo/infra/newRegroupement',
    {
      config: { rights: 'POST bo/infra/newRegroupement', write: true },
      schema: {
        summary: 'Creates a group of sites',
        description: GROUP_DESCRIPTION,
        tags,
        body: RegroupementInputSchema,
        response: { 200: AdminRegroupementSchema, ...errorResponses },
      },
    },
    async function newRegroupement(request) {
      return createGroup(writeTx(request), auditActor(request), request.body);
    },
  );

  api.post(
    '/bo/infra/saveRegroupement',
    {
      config: { rights: 'POST bo/infra/saveRegroupement', write: true },
      schema: {
        summary: "Replaces a group's name, sites and added / removed companies",
        description: `${GROUP_DESCRIPTION} 404 NotFound for an unknown id.`,
        tags,
        querystring: GroupIdQuery,
        body: RegroupementInputSchema,
        response: { 200: AdminRegroupementSchema, ...errorResponses },
      },
    },
    async function saveRegroupement(request) {
      return saveGroup(writeTx(request), auditActor(request), request.query.id, request.body);
    },
  );
}

/** GET bo/infra/removeRegroupement?id. */
function registerGroupRemoval(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/infra/removeRegroupement',
    {
      config: { rights: 'GET bo/infra/removeRegroupement', write: true },
      exposeHeadRoute: false, // a GET that acts: no HEAD twin, which would act too
      schema: {
        summary: 'Removes a group of sites (a GET that writes; Idempotency-Key honoured)',
        description:
          'The sites stay. No profile, user or message targets a group by id, so a group is never ' +
          "refused as in use; a favourite report naming it loses that choice (the client drops a group it doesn't know). " +
          '404 NotFound for an unknown id.',
        tags,
        querystring: GroupIdQuery,
        response: { 200: RemovedAnswer, ...errorResponses },
      },
    },
    async function removeRegroupement(request) {
      await removeGroup(writeTx(request), auditActor(request), request.query.id);
      return { id: request.query.id };
    },
  );
}

/** Registers the administration's group routes. */
export async function adminGroupRoutes(app: FastifyInstance) {
  registerGroupWrites(app);
  registerGroupRemoval(app);
}
