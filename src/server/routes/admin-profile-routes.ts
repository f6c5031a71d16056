/**
 * HTTP of profiles and rights (SPEC.md §7, issue #18): GET bo/infra/getProfils, POST newProfile,
 * saveProfile?id, GET removeProfil?id (a GET that writes), GET getDroits?language. Shapes in
 * contract/administration.ts; the rules in administration/profiles.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DroitSchema, ProfileInputSchema, ProfileSchema } from '../../contract/administration.ts';
import { LanguageSchema } from '../../contract/reports.ts';
import { createProfile, listProfiles, removeProfile, saveProfile } from '../administration/profiles.ts';
import { labelledRights } from '../administration/rights-labels.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { type AdminRouteOptions, adminActor, forgetSessionsAfterWrite } from './admin-user-routes.ts';
import { errorResponses, sessionOf } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

const IdQuery = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX).describe('id of the profile'),
});
const DroitsQuery = z.object({
  language: LanguageSchema.optional().describe("labels' language; the user's own, else fr"),
});

/** Registers GET bo/infra/getProfils, getDroits, removeProfil and POST newProfile, saveProfile. */
export async function adminProfileRoutes(app: FastifyInstance, options: AdminRouteOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  // A profile's rights and sites are its users' sessions': none is served from before the change.
  const onSend = forgetSessionsAfterWrite(options.sessions);

  api.get(
    '/bo/infra/getProfils',
    {
      config: { rights: 'GET bo/infra/getProfils' },
      schema: {
        summary: 'Every profile with its rights, site scope and how many users hold it, by title',
        tags: ['administration'],
        response: { 200: z.array(ProfileSchema), ...errorResponses },
      },
    },
    async function getProfils() {
      return listProfiles(pool);
    },
  );

  api.get(
    '/bo/infra/getDroits',
    {
      config: { rights: 'GET bo/infra/getDroits' },
      schema: {
        summary: 'Every right a profile can hold, with its label and description in `language`',
        tags: ['administration'],
        querystring: DroitsQuery,
        response: { 200: z.array(DroitSchema), ...errorResponses },
      },
    },
    async function getDroits(request) {
      const own = LanguageSchema.safeParse(sessionOf(request).language);
      return labelledRights(request.query.language ?? (own.success ? own.data : 'fr'));
    },
  );

  api.post(
    '/bo/infra/newProfile',
    {
      config: { rights: 'POST bo/infra/newProfile', write: true },
      schema: {
        summary: 'Creates a profile (titre, droits, site scope, ticket options, criteria)',
        description:
          '400 UnknownRight (details.rights), InvalidField (details.field: titre taken, optionsTicket, ' +
          'restaurantIds, societesIdPlus/Moins). Writes profile.create to the audit log.',
        tags: ['administration'],
        body: ProfileInputSchema,
        response: { 200: ProfileSchema, ...errorResponses },
      },
    },
    async function newProfile(request) {
      return createProfile(writeTx(request), adminActor(request), request.body);
    },
  );

  api.post(
    '/bo/infra/saveProfile',
    {
      config: { rights: 'POST bo/infra/saveProfile', write: true },
      onSend,
      schema: {
        summary: 'Replaces a profile with the body (absent fields take their defaults)',
        description:
          '404 NotFound; 400 UnknownRight, InvalidField; 409 SelfChange (CONFIGURATION taken from ' +
          'one’s own profile), LastAdministrator. Writes profile.save to the audit log.',
        tags: ['administration'],
        querystring: IdQuery,
        body: ProfileInputSchema,
        response: { 200: ProfileSchema, ...errorResponses },
      },
    },
    async function saveProfileRoute(request) {
      return saveProfile(writeTx(request), adminActor(request), request.query.id, request.body);
    },
  );

  api.get(
    '/bo/infra/removeProfil',
    {
      config: { rights: 'GET bo/infra/removeProfil', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary: 'Removes a profile no user holds (a GET that writes)',
        description:
          '404 NotFound; 409 InUse with details.users, the logins holding it. Writes profile.remove to the audit log.',
        tags: ['administration'],
        querystring: IdQuery,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async function removeProfilRoute(request) {
      await removeProfile(writeTx(request), adminActor(request), request.query.id);
      return { id: request.query.id };
    },
  );
}
