/**
 * HTTP of the local events (issue #19, SPEC.md §7 `withCredentials/collab/*`; shapes in
 * src/contract/events.ts): GET configurationEvenements, PUT addEvenementLocal, POST
 * changeEvenementLocal, DELETE deleteEvenementLocal?evenement=uuid. Rights in contract/rights.ts
 * (reading: RAPPORTS, BI or EVENEMENTS; writing: EVENEMENTS). Every write runs in one
 * transaction (`config.write`) with its audit entry and honours Idempotency-Key. The reads,
 * writes and scope rules are events/local-events.ts's; a body's field checks events/event-input.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddLocalEventBodySchema,
  EVENT_TYPES,
  EventConfigurationAnswerSchema,
  IMPACT_TYPES,
  LocalEventInputSchema,
  LocalEventSchema,
  SALES_CHANNELS,
} from '../../contract/events.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Database } from '../db/connect.ts';
import { checkReadPeriod, readEventBody } from '../events/event-input.ts';
import { addEvent, changeEvent, listEvents, removeEvent } from '../events/local-events.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor } from './admin-write-helpers.ts';
import {
  callerSession,
  DEFAULT_WINDOW_TEXT,
  defaultWindow,
  errorResponses,
  ownSession,
  QueryIntList,
  sessionOf,
  UserIdParam,
} from './common.ts';

const tags = ['events'];
const WireDateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

const ConfigurationQuery = z.object({
  id: UserIdParam.optional().describe(
    'id of the signed-in user; SPEC.md §7 does not name it, absent = the caller',
  ),
  sites: QueryIntList.describe(
    'site ids (`sites[]=1&sites[]=2` or `sites=1,2`); none = every site of the scope',
  ),
  dateDebut: WireDateParam.optional().describe(`first fiscal date, inclusive; ${DEFAULT_WINDOW_TEXT}`),
  dateFin: WireDateParam.optional().describe(
    `last fiscal date, inclusive (at most 400 days after dateDebut); ${DEFAULT_WINDOW_TEXT}`,
  ),
});
/** Writes may name the caller (`id`, as SPEC.md §7's other calls); SPEC.md does not require it. */
const WriteQuery = z.object({ id: UserIdParam.optional() });
const DeleteQuery = WriteQuery.extend({
  evenement: z.string().uuid().describe('uuid_evt of the event to delete'),
});

const REFUSALS =
  '400 BadRequest with details.field (the form field refused), dateFinTooEarly (details.field ' +
  "dateFin) when start is after end; 403 Forbidden with details.sites when a site is outside the caller's scope.";

/** The session, checking the optional `id` of a write names the caller. */
function writerSession(request: Parameters<typeof sessionOf>[0], id: number | undefined) {
  return id === undefined ? sessionOf(request) : ownSession(request, id);
}

/** GET configurationEvenements. */
function registerRead(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/withCredentials/collab/configurationEvenements',
    {
      config: { rights: 'GET withCredentials/collab/configurationEvenements' },
      schema: {
        summary: "The event form's choices and the events overlapping the period on the chosen sites",
        description:
          "Only sites of the caller's scope: sites outside it are dropped (403 Forbidden when none is left); " +
          'each event lists only its sites of the scope. 400 BadRequest / dateFinTooEarly for a bad period.',
        tags,
        querystring: ConfigurationQuery,
        response: { 200: EventConfigurationAnswerSchema, ...errorResponses },
      },
    },
    async function configurationEvenements(request) {
      const session = callerSession(request, request.query.id);
      const { sites } = request.query;
      const { dateDebut, dateFin } = defaultWindow(request.query);
      checkReadPeriod(dateDebut, dateFin);
      const siteIds = restrictToScope(sites, session.siteIds);
      const evenements = await listEvents(database.pool, session.siteIds, siteIds, dateDebut, dateFin);
      return {
        data: {
          typesEvenement: [...EVENT_TYPES],
          canauxVente: [...SALES_CHANNELS],
          typesImpact: [...IMPACT_TYPES],
          evenements,
        },
      };
    },
  );
}

/** PUT addEvenementLocal and POST changeEvenementLocal. */
function registerSaves(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.put(
    '/withCredentials/collab/addEvenementLocal',
    {
      config: { rights: 'PUT withCredentials/collab/addEvenementLocal', write: true },
      // A refused body is read again by events/event-input.ts, which names the field (contract).
      attachValidation: true,
      schema: {
        summary: 'Adds a local event (the body is an event, or { evenement, perim_affects })',
        description: REFUSALS,
        tags,
        querystring: WriteQuery,
        body: AddLocalEventBodySchema,
        response: { 200: LocalEventSchema, ...errorResponses },
      },
    },
    async function addEvenementLocal(request) {
      const session = writerSession(request, request.query.id);
      const input = readEventBody(request.body);
      return addEvent(writeTx(request), auditActor(request), session, input);
    },
  );

  api.post(
    '/withCredentials/collab/changeEvenementLocal',
    {
      config: { rights: 'POST withCredentials/collab/changeEvenementLocal', write: true },
      attachValidation: true,
      schema: {
        summary: "Replaces an event's fields and sites (the body names it by uuid_evt)",
        description: `${REFUSALS} 404 NotFound for an unknown uuid_evt; 403 Forbidden also when the event touches sites outside the scope.`,
        tags,
        querystring: WriteQuery,
        body: LocalEventInputSchema,
        response: { 200: LocalEventSchema, ...errorResponses },
      },
    },
    async function changeEvenementLocal(request) {
      const session = writerSession(request, request.query.id);
      const input = readEventBody(request.body);
      return changeEvent(writeTx(request), auditActor(request), session, input);
    },
  );
}

/** DELETE deleteEvenementLocal?evenement=uuid. */
function registerDelete(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.delete(
    '/withCredentials/collab/deleteEvenementLocal',
    {
      config: { rights: 'DELETE withCredentials/collab/deleteEvenementLocal', write: true },
      schema: {
        summary: 'Deletes a local event',
        description:
          "404 NotFound for an unknown uuid (or an event on no site of the caller's scope); " +
          '403 Forbidden when the event also touches sites outside the scope.',
        tags,
        querystring: DeleteQuery,
        // The event is named by the query (SPEC.md §7); a body, if any, must be empty.
        body: z.object({}).strict().nullish().describe('none: the event is named by `evenement`'),
        response: { 200: z.object({ uuid_evt: z.string().uuid() }), ...errorResponses },
      },
    },
    async function deleteEvenementLocal(request) {
      const session = writerSession(request, request.query.id);
      const { evenement } = request.query;
      await removeEvent(writeTx(request), auditActor(request), session, evenement.toLowerCase());
      return { uuid_evt: evenement.toLowerCase() };
    },
  );
}

/** Registers the local events' routes (see the module comment). */
export async function collabEventRoutes(app: FastifyInstance, options: { database: Database }) {
  registerRead(app, options.database);
  registerSaves(app);
  registerDelete(app);
}
