/**
 * The Idempotency-Key handling of the online-only writes that never go through the outbox (the
 * safe's countersignature, manager code and e-mails; the home's cash count reminder: decision
 * record 0004). They need the network NOW, so they fail at once offline; but an answer can still
 * be lost on the way back after the server acted. Each logical request therefore keeps one key
 * ({@link RequestKeys}) until a definite answer came ({@link keyedFailure} says which failures
 * are definite), so a resend replays the first answer or completes what was half done instead of
 * countersigning or mailing twice (server: plugins/idempotency.ts; SPEC.md §7, §8).
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/constants.ts';
import { ApiFailure, http, type SearchParams, toApiFailure, toSearchParams } from './http.ts';

/**
 * Idempotency-Keys of a screen's online actions: the same key while the request is the same (a
 * resend after a lost answer replays the first answer), a new one once it changed or was
 * {@link RequestKeys.settle}d (a definite answer came back).
 */
export class RequestKeys {
  #last: { fingerprint: string; key: string } | null = null;

  /** The key of the request described by `fingerprint` (any text that changes with the request). */
  keyFor(fingerprint: string): string {
    if (this.#last?.fingerprint !== fingerprint) this.#last = { fingerprint, key: crypto.randomUUID() };
    return this.#last.key;
  }

  /** Forgets the key: the next request gets a new one. */
  settle(): void {
    this.#last = null;
  }
}

/** True when the failure means "no network" (offline, server unreachable), so a retry may succeed. */
export function isOffline(error: unknown): boolean {
  return error instanceof ApiFailure && error.code === 'Network Error';
}

/** What a failed online action shows, and whether its Idempotency-Key may be dropped. */
export interface FailureOutcome {
  /** Message id to show in the dialog. */
  messageId: string;
  /**
   * True for a definite refusal (a 4xx): nothing happened, the next try is a new request with a
   * new key. False when the server may have acted (network failure, 5xx, still in progress: a
   * signature committed before its answer was lost, some recipients already mailed), so the next
   * try must reuse the key and the server replays or completes instead of acting twice.
   */
  settle: boolean;
}

/** The message ids a screen shows for the failures of its online actions. */
export interface FailureMessages {
  /** Shown without network (`Network Error`). */
  offline: string;
  /** Shown for a failure that is no ApiFailure (a bug, an answer that does not parse). */
  unexpected: string;
  /** Message ids by error code, instead of `error.<code>` (e.g. a plainer noDataError). */
  byCode?: Record<string, string>;
}

/**
 * Reads the failure of a keyed online action: its message id (`error.<code>` unless `messages`
 * names one) and whether its key may be dropped ({@link FailureOutcome.settle}).
 */
export function keyedFailure(error: unknown, messages: FailureMessages): FailureOutcome {
  if (isOffline(error)) return { messageId: messages.offline, settle: false };
  if (!(error instanceof ApiFailure)) return { messageId: messages.unexpected, settle: false };
  const messageId = messages.byCode?.[error.code] ?? `error.${error.code}`;
  return { messageId, settle: error.status !== null && error.status < 500 };
}

/** Refuses at once, as `Network Error`, when the device knows it is offline. */
function requireOnline(): void {
  if (globalThis.navigator?.onLine === false) throw new ApiFailure('Network Error', null);
}

/** One online write: where it goes, what it carries and how its answer is read. */
export interface KeyedCall<T> {
  method: 'get' | 'post';
  /** API path under API_BASE (SPEC.md §7). */
  path: string;
  params: SearchParams;
  /** The request's Idempotency-Key, from {@link RequestKeys.keyFor}. */
  key: string;
  /** Checks the JSON answer (a contract schema's parse). */
  parse: (body: unknown) => T;
  /** JSON body, if any. */
  json?: unknown;
}

/**
 * Sends an online write with its Idempotency-Key; resolves to the parsed JSON answer.
 * @throws ApiFailure — the server's code (SPEC.md §8), or `Network Error`, also at once when the
 *   device says it is offline (nothing is queued).
 */
export async function sendKeyed<T>(call: KeyedCall<T>): Promise<T> {
  requireOnline();
  try {
    const body = await http(call.path, {
      method: call.method,
      searchParams: toSearchParams(call.params),
      headers: { [IDEMPOTENCY_KEY_HEADER]: call.key },
      ...(call.json === undefined ? {} : { json: call.json }),
    }).json<unknown>();
    return call.parse(body);
  } catch (e) {
    throw toApiFailure(e);
  }
}
