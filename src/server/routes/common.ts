/**
 * Pieces every API route module shares: the `id` query parameter of SPEC.md §7 (the caller's
 * own user id), list-valued query parameters, the error answers published in OpenAPI, and
 * access to the session.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiErrorSchema } from '../../contract/errors.ts';
import type { Session } from '../auth/session.ts';
import type { BatchItemInput } from '../outbox/direct-items.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import type {} from '../plugins/request-session.ts'; // request.session
import { addDays } from 'date-fns/addDays';
import { subDays } from 'date-fns/subDays';
import { toWireDate } from '../../contract/dates.ts';
import { INT4_MAX } from '../../contract/integers.ts';

/** `id` of SPEC.md §7 calls: the signed-in user's id (a positive integer). */
export const UserIdParam = z.coerce
  .number()
  .int()
  .positive()
  .max(INT4_MAX)
  .describe('id of the signed-in user');

/** A query value that may come once (string) or several times (array); absent → []. */
export const QueryList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

/**
 * Several values, each possibly comma-separated (`sites[]=1&sites[]=2` or `sites=1,2`),
 * flattened, trimmed, empties dropped.
 */
export const QueryCommaList = QueryList.transform((values) =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== ''),
);

/**
 * {@link QueryCommaList} of whole numbers (site ids, terminal numbers), each in canonical decimal
 * (no sign, no leading zero) and at most {@link INT4_MAX}, the range of the `integer` columns they
 * end in (issue #32 items C.1 and C.7); 400 `BadRequest` on any other text.
 */
export const QueryIntList = QueryCommaList.pipe(
  z.array(
    z
      .string()
      .regex(/^(0|[1-9]\d*)$/, 'a whole number in canonical decimal')
      .transform(Number)
      .pipe(z.number().int().min(0).max(INT4_MAX)),
  ),
);

/**
 * Error answers of every API route (`{ code, message, details? }`, SPEC.md §8), for the
 * serializer; the OpenAPI document lists the statuses each call really gives instead of these
 * ranges (src/server/openapi/answers.ts).
 */
export const errorResponses = { '4xx': ApiErrorSchema, '5xx': ApiErrorSchema } as const;

/** Answer-schema key naming the binary media types an answer may come in (openapi/answers.ts reads it). */
export const DOCUMENTS_KEY = 'x-documents';

/** Answer-schema key of the headers a document answer may carry, name → description (openapi/answers.ts). */
export const DOCUMENT_HEADERS_KEY = 'x-document-headers';

/**
 * The success answer of a route that can send a document: `schema` when it answers JSON (it
 * serializes those answers, as before), or a file of one of `mediaTypes` (e.g. `application/pdf`,
 * `application/zip`), which the OpenAPI document lists as `format: binary` content. A document
 * sent as a Buffer or stream is never serialized, so `schema` need not describe it. `headers`
 * (name → description) are the answer's own headers the OpenAPI document declares on it (string
 * values), e.g. the FEC's `X-Fec-Sites-Exclus`.
 */
export function documentAnswer<T extends z.ZodType>(
  schema: T,
  mediaTypes: readonly string[],
  headers: Readonly<Record<string, string>> = {},
): z.ZodType<z.output<T> | Buffer, z.input<T> | Buffer> {
  const meta =
    Object.keys(headers).length > 0
      ? { [DOCUMENTS_KEY]: [...mediaTypes], [DOCUMENT_HEADERS_KEY]: { ...headers } }
      : { [DOCUMENTS_KEY]: [...mediaTypes] };
  // Typed to let the handler send the document's Buffer, which Fastify never serializes.
  return schema.meta(meta) as unknown as z.ZodType<z.output<T> | Buffer, z.input<T> | Buffer>;
}

/**
 * The caller's session on a route whose requirement is not `public` (the rights guard set it).
 * @throws ApiHttpError 401 `Unauthorized` when absent (a route wrongly marked `public`).
 */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new ApiHttpError(401, 'Unauthorized', 'no session');
  return request.session;
}

/**
 * The session of a call whose `id` SPEC.md §7 does not name (issue #32 A): the caller's own when
 * `id` is absent, else as {@link ownSession}.
 * @throws ApiHttpError 401 without a session; 403 `Forbidden` when `id` names another user.
 */
export function callerSession(request: FastifyRequest, id: number | undefined): Session {
  return id === undefined ? sessionOf(request) : ownSession(request, id);
}

/** Days before today, and days from today on, of the period a call reads when SPEC.md §7 gives it no dates. */
export const DEFAULT_WINDOW_DAYS = 31;

/** What the OpenAPI document says of a date left out for {@link defaultWindow}. */
export const DEFAULT_WINDOW_TEXT = `absent = the past ${DEFAULT_WINDOW_DAYS} days and the coming ${DEFAULT_WINDOW_DAYS} (today included; server date)`;

/**
 * The period of a call that SPEC.md §7 lists without dates (`collab/configurationEvenements`,
 * `collab/previsions`; issue #32 A): the past {@link DEFAULT_WINDOW_DAYS} days and the coming
 * ones, today first among them — `dateDebut` defaults to `today` (the server's date) minus 31
 * days, `dateFin` to `today` plus 30, 62 days in all; a date given is kept. Both YYYY-MM-DD.
 */
export function defaultWindow(
  dates: { dateDebut?: string | undefined; dateFin?: string | undefined },
  today: Date = new Date(),
): { dateDebut: string; dateFin: string } {
  return {
    dateDebut: dates.dateDebut ?? toWireDate(subDays(today, DEFAULT_WINDOW_DAYS)),
    dateFin: dates.dateFin ?? toWireDate(addDays(today, DEFAULT_WINDOW_DAYS - 1)),
  };
}

/**
 * The session, checking that the call's `id` is the caller's own user id (SPEC.md §7 passes it
 * on every data call; a user must not read another user's view).
 * @throws ApiHttpError 403 `Forbidden` when `id` names another user.
 */
export function ownSession(request: FastifyRequest, id: number): Session {
  return requireOwnId(sessionOf(request), id);
}

/**
 * `session`, once checked that the call's `id` is its own user id (see {@link ownSession}).
 * @throws ApiHttpError 403 `Forbidden` when `id` names another user.
 */
export function requireOwnId(session: Session, id: number): Session {
  if (session.userId !== id) throw new ApiHttpError(403, 'Forbidden', 'id is not the signed-in user');
  return session;
}

/**
 * What a `config.write` route's {@link BatchItemInput} function works on, from its request: the
 * validated `query` and `body` the route passes, the session and the write transaction.
 * @throws ApiHttpError 401 without a session; Error when the route lacks `config.write`.
 */
export function writeInput<Query, Body>(
  request: FastifyRequest,
  query: Query,
  body: Body,
): BatchItemInput<Query, Body> {
  return { query, body, session: sessionOf(request), tx: writeTx(request) };
}
