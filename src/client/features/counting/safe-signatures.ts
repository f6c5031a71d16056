/**
 * The safe screen's online actions (issue #3 point 2): a manager's countersignature
 * (fluxfin/contre_signe, which checks the code), the manager's own code (bo/setContreCode) and
 * the e-mails (bo/home/envoieMail, envoieMailManquant).
 *
 * Why they do not go through the outbox like the counts: a countersignature proves the manager is
 * here NOW with their code — queued, it would be sent hours later, with the code stored in clear
 * on the device, and refused with nobody left to type it again; an e-mail "sent" offline would
 * be a lie. So they need the network: offline, they fail at once with `Network Error` and the
 * screen keeps what was typed. They still carry an Idempotency-Key (one per distinct request,
 * {@link RequestKeys}), so sending again after a lost answer never countersigns or mails twice.
 */
import { subDays } from 'date-fns/subDays';
import {
  type CountersignBody,
  OkAnswerSchema,
  IDEMPOTENCY_KEY_HEADER,
  type MailAnswer,
  MailAnswerSchema,
  type SafeCount,
  SafeCountSchema,
} from '../../../contract/counting.ts';
import { parseWireDate, toWireDate } from '../../../contract/dates.ts';
import { ApiFailure, http, type SearchParams, toApiFailure, toSearchParams } from '../../lib/http.ts';

/** Days back from the chosen fiscal date that the "waiting for countersignature" list covers. */
export const AWAITING_DAYS = 31;

/** First and last fiscal dates (YYYY-MM-DD) of the waiting list ending on `dateFin`. */
export function awaitingPeriod(dateFin: string): { dateDebut: string; dateFin: string } {
  const end = parseWireDate(dateFin) ?? new Date();
  return { dateDebut: toWireDate(subDays(end, AWAITING_DAYS - 1)), dateFin: toWireDate(end) };
}

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

/** Refuses at once, as `Network Error`, when the device knows it is offline. */
function requireOnline(): void {
  if (globalThis.navigator?.onLine === false) throw new ApiFailure('Network Error', null);
}

/** An online write with its Idempotency-Key (and a JSON body if given); resolves to the parsed JSON answer. */
async function keyedCall<T>(
  method: 'get' | 'post',
  path: string,
  params: SearchParams,
  key: string,
  parse: (body: unknown) => T,
  json?: unknown,
): Promise<T> {
  requireOnline();
  try {
    const body = await http(path, {
      method,
      searchParams: toSearchParams(params),
      headers: { [IDEMPOTENCY_KEY_HEADER]: key },
      ...(json === undefined ? {} : { json }),
    }).json<unknown>();
    return parse(body);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** A countersignature as typed: the latest safe count of `site` on `dateFiscale`, by manager `managerName`. */
export interface CountersignInput {
  site: number;
  dateFiscale: string;
  /** The countersigning manager's login. */
  managerName: string;
  /** Their manager code (4 to 6 digits). */
  managerCode: string;
  commentaire: string;
}

/**
 * POST fluxfin/contre_signe: answers the countersigned safe count. The manager's login, code and
 * the comment travel in the JSON body, never in the URL (which proxies and browsers log: issue
 * #17 item 3); the server checks the code in the same request, so no separate bo/checkContreCode
 * call puts it in a URL first.
 * @throws ApiFailure — 400 BadManagerCode, 404 NotFound, 409 AlreadyCountersigned (src/contract/counting.ts),
 * `Network Error` offline.
 */
export function countersign(userId: number, input: CountersignInput, key: string): Promise<SafeCount> {
  const body: CountersignBody = {
    managerName: input.managerName,
    managerCode: input.managerCode,
    commentaire: input.commentaire,
  };
  return keyedCall(
    'post',
    'fluxfin/contre_signe',
    { restaurantId: input.site, id: userId, datefiscale: input.dateFiscale },
    key,
    (answer) => SafeCountSchema.parse(answer),
    body,
  );
}

/**
 * POST bo/setContreCode: sets the signed-in manager's own code (4 to 6 digits), which they type
 * to countersign another manager's safe count.
 * @throws ApiFailure — 400 BadRequest (not 4 to 6 digits), `Network Error` offline.
 */
export async function setOwnManagerCode(userId: number, code: string, key: string): Promise<void> {
  await keyedCall('post', 'bo/setContreCode', { id: userId }, key, (body) => OkAnswerSchema.parse(body), {
    contreCode: code,
  });
}

/** Who gets an e-mail: one user by login, else every user of `role` who sees the site. */
export interface MailRecipients {
  role: string;
  login: string;
}

/**
 * GET bo/home/envoieMail: mails the PDF receipt of safe count `countId` of `site`.
 * @throws ApiFailure — 400 noDataError (nobody to mail), 502 ErreurEnvoiMail, `Network Error`.
 */
export function mailReceipt(
  countId: number,
  site: number,
  to: MailRecipients,
  key: string,
): Promise<MailAnswer> {
  const login = to.login.trim();
  const role = to.role.trim();
  return keyedCall(
    'get',
    'bo/home/envoieMail',
    { idRecu: countId, site, utilisateur: login || undefined, role: login ? undefined : role },
    key,
    (body) => MailAnswerSchema.parse(body),
  );
}

/**
 * GET bo/home/envoieMailManquant: tells the users of `role` on `site` that the safe count of
 * `dateFiscale` is missing.
 * @throws ApiFailure — 400 noDataError, 502 ErreurEnvoiMail, `Network Error`.
 */
export function mailMissingCount(
  userId: number,
  site: number,
  dateFiscale: string,
  role: string,
  key: string,
): Promise<MailAnswer> {
  return keyedCall(
    'get',
    'bo/home/envoieMailManquant',
    { role: role.trim(), id: userId, site, datefiscale: dateFiscale },
    key,
    (body) => MailAnswerSchema.parse(body),
  );
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

/**
 * Reads a failure of {@link countersign}, {@link setOwnManagerCode}, {@link mailReceipt} or {@link mailMissingCount}.
 * `offlineMessageId` is shown without network; `messages` overrides the message of a code.
 */
export function failureOutcome(
  error: unknown,
  offlineMessageId: string,
  messages: Record<string, string> = {},
): FailureOutcome {
  if (isOffline(error)) return { messageId: offlineMessageId, settle: false };
  if (!(error instanceof ApiFailure)) return { messageId: 'app.unexpectedError', settle: false };
  if (error.code === 'IdempotencyKeyInProgress')
    return { messageId: 'counting.online.inProgress', settle: false };
  const messageId = messages[error.code] ?? `error.${error.code}`;
  return { messageId, settle: error.status !== null && error.status < 500 };
}
