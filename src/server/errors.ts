/**
 * Domain errors: what the server's domain modules (reports/, counting/, import/, auth/, mail/, …)
 * throw when a request cannot be served as asked. They know no HTTP: each names a {@link
 * DomainErrorKind}, and the error plugin (plugins/error-handler.ts) maps the kind to a status, once
 * (DESIGN.md §2, docs/architecture.md). The `code` is one of SPEC.md §8's (src/contract/errors.ts),
 * which the client translates; `message` is an English hint for logs and developers only.
 */
import type { ErrorCode } from '../contract/errors.ts';

/**
 * Why a request fails, in the domain's words. The HTTP status of each is chosen by the error
 * plugin: invalid 400, unauthenticated 401, forbidden 403, notFound 404, conflict 409,
 * tooManyAttempts 429, upstream 502 (a service we depend on, e.g. the mail server, failed),
 * internal 500.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'notFound'
  | 'conflict'
  | 'tooManyAttempts'
  | 'upstream'
  | 'internal';

/**
 * A failure a domain module reports to its caller, with the SPEC.md §8 `code` the client
 * translates and optional `details` (e.g. `{ maxDays: 31 }`, `{ caisse: 3 }`) sent with it.
 * @example throw new DomainError('invalid', 'MaxReportDays', 'period too long', { maxDays: 31 })
 */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: DomainErrorKind, code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }
}
