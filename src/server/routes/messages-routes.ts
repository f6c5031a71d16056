/**
 * HTTP of the messages from the administration (issue #18 `/config/messages`; SPEC.md §7
 * `GET messages/all`): the administration's list and writes (`bo/infra/getMessages`,
 * `newMessage`, `saveMessage?id`, `removeMessage?id`, right CONFIGURATION) and the signed-in
 * user's own messages and dismissals (`messages/all`, `messages/dismiss?id`). Shapes in
 * src/contract/administration.ts; rules in messages/admin-messages.ts and user-messages.ts.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AdminMessage,
  AdminMessageSchema,
  LANGUAGES,
  MessageInputSchema,
} from '../../contract/administration.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import type { Database } from '../db/connect.ts';
import { createMessage, listMessages, removeMessage, saveMessage } from '../messages/admin-messages.ts';
import { dismissMessage, messagesForUser } from '../messages/user-messages.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses, sessionOf } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

const LanguageQuery = z.object({
  language: z.enum(LANGUAGES).optional().describe("language of each message's `text` (default: the user's)"),
});
const MessageIdQuery = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX).describe('id of the message'),
});
const MessageList = z.array(AdminMessageSchema);
const IdAnswer = z.object({ id: z.number().int() });
const INPUT_RULES =
  '400 InvalidField with details.field: `texts` (no non-empty text), `fromDate`/`toDate` (not a date), ' +
  '`toDate` (before fromDate), `restaurantIds`/`profileIds` (details.ids: targets that do not exist).';

type LanguageRequest = FastifyRequest<{ Querystring: z.output<typeof LanguageQuery> }>;
type IdRequest = FastifyRequest<{ Querystring: z.output<typeof MessageIdQuery> }>;
type NewRequest = FastifyRequest<{
  Querystring: z.output<typeof LanguageQuery>;
  Body: z.output<typeof MessageInputSchema>;
}>;
type SaveRequest = FastifyRequest<{
  Querystring: z.output<typeof MessageIdQuery>;
  Body: z.output<typeof MessageInputSchema>;
}>;

/** The language the caller reads in: `language` of the query, else their session's (may be null). */
function readerLanguage(request: FastifyRequest, language: string | undefined): string | null {
  return language ?? sessionOf(request).language;
}

/** Who makes an administration change, for the audit log: the signed-in user and their address. */
function actorOf(request: FastifyRequest): AuditActor {
  return { userId: sessionOf(request).userId, address: request.ip };
}

/** The app with zod's type provider, as the route plugin makes it. */
type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
type Pool = Database['pool'];

/** Registers bo/infra/getMessages, newMessage, saveMessage and removeMessage (right CONFIGURATION). */
function adminRoutes(api: Api, pool: Pool): void {
  api.get(
    '/bo/infra/getMessages',
    {
      config: { rights: 'GET bo/infra/getMessages' },
      schema: {
        summary: 'Every message from the administration, newest first (`text` in `language`)',
        tags: ['administration'],
        querystring: LanguageQuery,
        response: { 200: MessageList, ...errorResponses },
      },
    },
    async function getMessages(request: LanguageRequest): Promise<AdminMessage[]> {
      return listMessages(pool, readerLanguage(request, request.query.language));
    },
  );

  api.post(
    '/bo/infra/newMessage',
    {
      config: { rights: 'POST bo/infra/newMessage', write: true },
      schema: {
        summary: 'Creates a message (audit log `message.create`)',
        description: INPUT_RULES,
        tags: ['administration'],
        querystring: LanguageQuery,
        body: MessageInputSchema,
        response: { 200: AdminMessageSchema, ...errorResponses },
      },
    },
    async function newMessage(request: NewRequest): Promise<AdminMessage> {
      const language = readerLanguage(request, request.query.language);
      return createMessage(writeTx(request), actorOf(request), request.body, language);
    },
  );

  api.post(
    '/bo/infra/saveMessage',
    {
      config: { rights: 'POST bo/infra/saveMessage', write: true },
      schema: {
        summary: 'Replaces message `id` (audit log `message.save`; 404 NotFound for an unknown id)',
        description: INPUT_RULES,
        tags: ['administration'],
        querystring: MessageIdQuery,
        body: MessageInputSchema,
        response: { 200: AdminMessageSchema, ...errorResponses },
      },
    },
    async function saveAdminMessage(request: SaveRequest): Promise<AdminMessage> {
      const language = readerLanguage(request, undefined);
      return saveMessage(writeTx(request), actorOf(request), request.query.id, request.body, language);
    },
  );

  api.get(
    '/bo/infra/removeMessage',
    {
      config: { rights: 'GET bo/infra/removeMessage', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary: 'Deletes message `id` with its dismissals (a GET that writes; audit log `message.remove`)',
        tags: ['administration'],
        querystring: MessageIdQuery,
        response: { 200: IdAnswer, ...errorResponses },
      },
    },
    async function removeAdminMessage(request: IdRequest): Promise<{ id: number }> {
      await removeMessage(writeTx(request), actorOf(request), request.query.id);
      return { id: request.query.id };
    },
  );
}

/** Registers messages/all and messages/dismiss (any signed-in user, for themselves). */
function userRoutes(api: Api, pool: Pool): void {
  api.get(
    '/messages/all',
    {
      config: { rights: 'GET messages/all' },
      schema: {
        summary: "The signed-in user's messages today, most severe then newest first",
        description:
          'Messages whose fromDate..toDate holds today (in the time zone of one of the user’s sites, ' +
          'Europe/Paris without sites), targeted at one of the user’s sites or their profile, or at ' +
          'everyone (no target), and not dismissed by them. `text` is in `language`, else the user’s ' +
          'language, else French, else the first text given.',
        tags: ['messages'],
        querystring: LanguageQuery,
        response: { 200: MessageList, ...errorResponses },
      },
    },
    async function getUserMessages(request: LanguageRequest): Promise<AdminMessage[]> {
      const language = readerLanguage(request, request.query.language);
      return messagesForUser(pool, sessionOf(request), language);
    },
  );

  api.post(
    '/messages/dismiss',
    {
      config: { rights: 'POST messages/dismiss', write: true },
      schema: {
        summary: 'The signed-in user dismisses message `id` (404 NotFound when it is not theirs)',
        tags: ['messages'],
        querystring: MessageIdQuery,
        // Declared so every POST has a body schema (issue #17): none, or an empty object.
        body: z.object({}).strict().nullish().describe('nothing: the message is named by `id`'),
        response: { 200: IdAnswer, ...errorResponses },
      },
    },
    async function dismissUserMessage(request: IdRequest): Promise<{ id: number }> {
      await dismissMessage(writeTx(request), sessionOf(request), request.query.id);
      return { id: request.query.id };
    },
  );
}

/** Registers the messages' routes (module comment). */
export async function messageRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  adminRoutes(api, options.database.pool);
  userRoutes(api, options.database.pool);
}
