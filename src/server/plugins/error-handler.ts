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
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ErrorCode } from '../../contract/errors.ts';
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
  // Fastify's own 4xx (malformed JSON, body too large, bad content type, rate limit…).
  const code: ErrorCode =
    status === 401
      ? 'Unauthorized'
      : status === 403
        ? 'Forbidden'
        : status === 404
          ? 'NotFound'
          : status === 429
            ? 'TooManyRequests'
            : 'BadRequest';
  return { status, body: { code, message: fe.message ?? code } };
}

/** Installs the error and not-found handlers on `app` (call it on the root instance). */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const { status, body } = errorAnswer(error);
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
