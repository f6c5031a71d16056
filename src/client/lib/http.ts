/**
 * The one HTTP client of the app (DESIGN.md §8, SPEC.md §7). Every call goes through `http`, so
 * every call carries `Authorization: Basic base64(login:token)` from the session (which lib/session
 * hands in through {@link connectSession}: http knows no session module),
 * `X-Requested-With`, a cache-busting `_` timestamp on GETs and the 6,000,000 ms timeout; a 401
 * on an authenticated call signs the user out (SPEC.md §4, §8). Every failure reaches callers as
 * an {@link ApiFailure} carrying the server's error code (never its text), so the UI can translate it.
 */
import { basicAuth } from '../../contract/basic-auth.ts';
import ky, { HTTPError, type KyInstance } from 'ky';
import type { z } from 'zod';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../contract/constants.ts';

/** HTTP timeout of SPEC.md §7/§9, in milliseconds. */
export const HTTP_TIMEOUT_MS = 6_000_000;

/** Base of the API: `/api/` unless `VITE_API_BASE` points the PWA at another server of this contract. */
export const API_BASE: string = import.meta.env?.VITE_API_BASE ?? '/api/';

/**
 * A failed API call. `code` is the server's `{ code }` (SPEC.md §8 / `ERROR_CODES`), or
 * `'Network Error'` when the server cannot be reached (no answer, timeout), or a generic code
 * derived from the HTTP status when the answer has no code. `status` is the HTTP status, `null`
 * without an answer. `details` are the server's machine-readable details (e.g. `{ maxDays }`).
 */
export class ApiFailure extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly details?: Record<string, unknown>;

  constructor(
    code: string,
    status: number | null,
    details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(`API failure: ${code}${status === null ? '' : ` (HTTP ${status})`}`, options);
    this.name = 'ApiFailure';
    this.code = code;
    this.status = status;
    if (details) this.details = details;
  }
}

/** Code for an error answer without a `{ code }` body (e.g. a proxy's 502 page). */
function codeForStatus(status: number): string {
  if (status === 400) return 'BadRequest';
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 429) return 'TooManyRequests';
  // A gateway that cannot reach the API server is, for the user, the network failing.
  if (status === 502 || status === 503 || status === 504) return 'Network Error';
  return 'InternalError';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Turns whatever ky or fetch threw into an {@link ApiFailure}; other errors pass through. */
export function toApiFailure(error: unknown): unknown {
  if (error instanceof ApiFailure) return error;
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const body: unknown = error.data;
    if (isRecord(body) && typeof body.code === 'string') {
      return new ApiFailure(body.code, status, isRecord(body.details) ? body.details : undefined, {
        cause: error,
      });
    }
    return new ApiFailure(codeForStatus(status), status, undefined, { cause: error });
  }
  if (
    error instanceof Error &&
    (error.name === 'TimeoutError' || error.name === 'NetworkError' || error instanceof TypeError)
  ) {
    // fetch rejects with a TypeError when the server cannot be reached (SPEC.md §8 "Network Error").
    return new ApiFailure('Network Error', null, undefined, { cause: error });
  }
  return error;
}

/** What http asks of the session: lib/session.ts registers it when it loads (see {@link connectSession}). */
export interface HttpSession {
  /** The signed-in user's login and token, or null when nobody is signed in. */
  credentials: () => { login: string; token: string } | null;
  /** Called on a 401 answer to an authenticated call while someone is signed in (the token was refused). */
  onUnauthorized: () => void;
}

/** No session until lib/session.ts connects one: calls go without credentials. */
let currentSession: HttpSession = { credentials: () => null, onUnauthorized: () => undefined };

/**
 * Gives http the session its calls are made for. Called once by lib/session.ts as it loads, so
 * that the session may use http (sign-in, sign-out) without http importing it back.
 */
export function connectSession(session: HttpSession): void {
  currentSession = session;
}

/**
 * The ky instance every feature uses. Callers may pass their own `Authorization` header (the
 * sign-in call sends the password); otherwise the session's token is used. Pass
 * `context: { signingIn: true }` so that a 401 means "bad credentials" rather than "sign out".
 */
export const http: KyInstance = ky.create({
  prefix: API_BASE,
  timeout: HTTP_TIMEOUT_MS,
  // Retrying is the caller's decision (TanStack Query retries reads); a report is never re-run silently.
  retry: 0,
  headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const user = currentSession.credentials();
        if (user && !request.headers.has('Authorization')) {
          request.headers.set('Authorization', basicAuth(user.login, user.token));
        }
        if (request.method === 'GET') {
          const url = new URL(request.url);
          url.searchParams.set('_', String(Date.now()));
          return new Request(url, request);
        }
        return undefined;
      },
    ],
    afterResponse: [
      ({ response, options }) => {
        if (response.status === 401 && !options.context.signingIn && currentSession.credentials()) {
          currentSession.onUnauthorized();
        }
      },
    ],
    beforeError: [
      ({ error }) => {
        const failure = toApiFailure(error);
        return failure instanceof Error ? failure : error;
      },
    ],
  },
});

/** Search parameters as SPEC.md §7 writes them; an array is sent as repeated `name[]=…`. */
export type SearchParams = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

/** Builds URLSearchParams, turning `sites: [1, 2]` into `sites[]=1&sites[]=2` (SPEC.md §7 `sites[]`). */
export function toSearchParams(params: SearchParams | undefined): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      const key = name.endsWith('[]') ? name : `${name}[]`;
      for (const v of value) out.append(key, String(v));
    } else {
      out.append(name, String(value));
    }
  }
  return out;
}

/** Runs a call and rethrows anything as {@link ApiFailure} when it came from the network or server. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw toApiFailure(e);
  }
}

/**
 * GET `path` (relative to the API base) and validate the JSON answer with `schema`.
 * Throws {@link ApiFailure} on any failure; a ZodError when the answer breaks the contract.
 */
export async function getJson<T>(
  path: string,
  schema: z.ZodType<T>,
  searchParams?: SearchParams,
): Promise<T> {
  const body = await guarded(() =>
    http.get(path, { searchParams: toSearchParams(searchParams) }).json<unknown>(),
  );
  return schema.parse(body);
}

/** File name from a Content-Disposition header (RFC 6266, `filename*` preferred), or `fallback`. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed escape: fall through to the plain filename.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = plain?.[1] ?? plain?.[2]?.trim();
  return name || fallback;
}

/**
 * Binary GET (reports: PDF, CSV, XLSX) with progress. `onProgress` receives a fraction 0…1, or
 * `null` while the size is unknown (no Content-Length). Resolves to the body and the file name
 * of Content-Disposition (or the last path segment). Throws {@link ApiFailure}.
 */
export async function download(
  path: string,
  searchParams: SearchParams | undefined,
  onProgress: (fraction: number | null) => void,
): Promise<{ blob: Blob; filename: string }> {
  return guarded(async () => {
    const response = await http.get(path, {
      searchParams: toSearchParams(searchParams),
      onDownloadProgress: (progress) => {
        // ky reports percent 0 until the end when the total size is unknown.
        const known = progress.percent > 0 || progress.transferredBytes === 0;
        onProgress(known ? progress.percent : null);
      },
    });
    const blob = await response.blob();
    onProgress(1);
    const fallback = path.split('/').pop() || 'download';
    return { blob, filename: filenameFromDisposition(response.headers.get('Content-Disposition'), fallback) };
  });
}
