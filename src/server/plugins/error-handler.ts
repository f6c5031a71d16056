/**
 * The one error handler of the API (DESIGN.md §4): every failure answers `{ code, message }`
 * (plus `details` when useful) with a code of src/contract/errors.ts, so the client can
 * translate it and never shows raw server text.
 *
 * Guarantees: a domain module throws {@link DomainError} (src/server/errors.ts), whose kind
 * maps to a status here and nowhere else; a route throws {@link ApiHttpError} to choose the
 * status and code itself; request
 * validation failures answer 400 `BadRequest` with the zod issues in `details`; anything else
 * answers 500 `InternalError`, is logged with the request's method, URL and user, and its
 * message is never sent to the client.
 *
 * What Fastify refuses before any route or hook runs is answered in the same shape (issue #17
 * item 9, {@link frameworkErrorHandler}): a URL whose path does not decode (`/assets/%c0%ae…`,
 * FST_ERR_BAD_URL) is 400 `InvalidText`, a path parameter longer than the router keeps
 * (FST_ERR_MAX_PARAM_LENGTH) 404 `NotFound`, and an API path the static server's catch-all route
 * failed on (a widget name too long for a file name: its 403) 404 `NotFound` too. A method no API route serves (TRACE, CONNECT,
 * PROPFIND…) on an API path is 405 with `Allow` instead of 404.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ErrorCode } from '../../contract/errors.ts';
import { isDocumentGet } from '../../contract/rights.ts';
import type {} from './request-session.ts'; // request.session
import { DomainError, type DomainErrorKind } from '../errors.ts';
import { redactUrl } from '../logging.ts';

/** The HTTP status of each kind of {@link DomainError}: the one place a domain failure meets HTTP. */
const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooManyAttempts: 429,
  internal: 500,
  upstream: 502,
};

/**
 * An error a route throws to answer `status` with `{ code, message, details }`.
 * `message` is an English hint for logs and developers; the client shows the translated `code`.
 * @example throw new ApiHttpError(400, 'MaxReportDays', 'period too long', { maxDays: 31 })
 */
export class ApiHttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiHttpError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The error body of `error`'s answer and its HTTP status; 5xx bodies never carry the real message. */
export function errorAnswer(error: unknown): { status: number; body: ApiError } {
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    const body: ApiError = { code: error.code, message: error.message };
    if (error.details) body.details = error.details;
    return { status, body };
  }
  if (error instanceof ApiHttpError) {
    const body: ApiError = { code: error.code, message: error.message };
    if (error.details) body.details = error.details;
    return { status: error.status, body };
  }
  const fe = error as Partial<FastifyError>;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      body: {
        code: 'BadRequest',
        message: fe.message ?? 'invalid request',
        details: {
          issues: error.validation.map((v) => ({
            where: error.validationContext,
            path: v.instancePath,
            message: v.message,
          })),
        },
      },
    };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 500) return { status, body: { code: 'InternalError', message: 'internal error' } };
  // Fastify's own 4xx (malformed JSON, body too large: 413 PayloadTooLarge, bad content type, rate limit…).
  const code: ErrorCode =
    status === 401
      ? 'Unauthorized'
      : status === 403
        ? 'Forbidden'
        : status === 404
          ? 'NotFound'
          : status === 413
            ? 'PayloadTooLarge'
            : status === 429
              ? 'TooManyRequests'
              : 'BadRequest';
  return { status, body: { code, message: fe.message ?? code } };
}

/** The methods API routes are declared with; any other on an API path answers 405. */
export const API_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

function isUnder(prefix: string, url: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
}

/**
/**
 * The answer to an API path that no API route matched and the client files' catch-all route
 * (`/*`, plugins/client.ts) failed on — a path too long for the file system comes back 403 from
 * the static server: 404 `NotFound`, as for any unknown API path. Null for any other error.
 */
function apiPathNotServed(
  request: FastifyRequest,
  apiPrefix: string,
): { status: number; body: ApiError } | null {
  if (request.routeOptions.url !== '/*' || !isUnder(apiPrefix, request.url)) return null;
  return { status: 404, body: { code: 'NotFound', message: `${request.method} not found` } };
}

/**
 * The answer to a request no route matched (`error` the not-found handler's 404) with a method
 * no API route serves, or HEAD on a GET that renders a document: 405 `BadRequest` with the methods
 * allowed (SPEC.md §8 has no code of its own for it; no client of ours sends such a request), or
 * null for any other error.
 */
function methodNotAllowed(
  error: unknown,
  request: FastifyRequest,
  apiPrefix: string,
): { status: number; body: ApiError; allow: readonly string[] } | null {
  if (!(error instanceof ApiHttpError) || error.status !== 404 || !isUnder(apiPrefix, request.url))
    return null;
  // A GET that renders a document has no HEAD twin (issue #32 C.6): the path exists, HEAD on it
  // does not. (The GETs that write or check a secret answer HEAD 404, as since issue #17.)
  const path = request.url.split('?')[0]!.slice(apiPrefix.length + 1);
  if (request.method === 'HEAD' && isDocumentGet(`GET ${path}`))
    return {
      status: 405,
      body: { code: 'BadRequest', message: 'method HEAD not allowed', details: { allow: ['GET'] } },
      allow: ['GET'],
    };
  if ((API_METHODS as readonly string[]).includes(request.method)) return null;
  return {
    status: 405,
    body: {
      code: 'BadRequest',
      message: `method ${request.method} not allowed`,
      details: { allow: API_METHODS },
    },
    allow: API_METHODS,
  };
}

/**
 * Fastify's `frameworkErrors` option: answers what the router refuses before any hook runs in
 * SPEC.md §8's shape, with the security `headers` the hooks would have set (app.ts computes them
 * once). Never echoes the URL: it may hold anything a caller typed.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
    const { status, body } =
      error.code === 'FST_ERR_BAD_URL'
        ? {
            status: 400,
            body: {
              code: 'InvalidText',
              message: 'url: the path is not valid percent-encoded UTF-8 text',
              details: { where: 'url' },
            } satisfies ApiError,
          }
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? { status: 404, body: { code: 'NotFound', message: 'not found' } satisfies ApiError }
          : errorAnswer(error);
    reply.headers(headers).code(status).send(body);
  };
}

/**
 * Installs the error handler on `app` (call it on the root instance); `apiPrefix` is where the
 * API's routes live (rights-guard.ts API_PREFIX).
 */
export function installErrorHandlers(app: FastifyInstance, apiPrefix: string): void {
  app.setErrorHandler(function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const refusedMethod = methodNotAllowed(error, request, apiPrefix);
    if (refusedMethod) reply.header('allow', refusedMethod.allow.join(', '));
    const { status, body } = refusedMethod ?? apiPathNotServed(request, apiPrefix) ?? errorAnswer(error);
    if (status >= 500) {
      request.log.error(
        {
          err: error,
          method: request.method,
          url: redactUrl(request.url),
          userId: request.session?.userId ?? null,
        },
        'request failed',
      );
    }
    return reply.code(status).send(body);
  });
}
