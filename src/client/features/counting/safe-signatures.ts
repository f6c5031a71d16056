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
 * lib/request-keys.ts), so sending again after a lost answer never countersigns or mails twice.
 */
import { subDays } from 'date-fns/subDays';
import {
  type CountersignBody,
  OkAnswerSchema,
  type MailAnswer,
  MailAnswerSchema,
  type SafeCount,
  SafeCountSchema,
} from '../../../contract/counting.ts';
import { parseWireDate, toWireDate } from '../../../contract/dates.ts';
import { type FailureOutcome, keyedFailure, sendKeyed } from '../../lib/request-keys.ts';

/** Days back from the chosen fiscal date that the "waiting for countersignature" list covers. */
export const AWAITING_DAYS = 31;

/** First and last fiscal dates (YYYY-MM-DD) of the waiting list ending on `dateFin`. */
export function awaitingPeriod(dateFin: string): { dateDebut: string; dateFin: string } {
  const end = parseWireDate(dateFin) ?? new Date();
  return { dateDebut: toWireDate(subDays(end, AWAITING_DAYS - 1)), dateFin: toWireDate(end) };
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
  return sendKeyed({
    method: 'post',
    path: 'fluxfin/contre_signe',
    params: { restaurantId: input.site, id: userId, datefiscale: input.dateFiscale },
    key,
    parse: (answer) => SafeCountSchema.parse(answer),
    json: body,
  });
}

/**
 * POST bo/setContreCode: sets the signed-in manager's own code (4 to 6 digits), which they type
 * to countersign another manager's safe count.
 * @throws ApiFailure — 400 BadRequest (not 4 to 6 digits), `Network Error` offline.
 */
export async function setOwnManagerCode(userId: number, code: string, key: string): Promise<void> {
  await sendKeyed({
    method: 'post',
    path: 'bo/setContreCode',
    params: { id: userId },
    key,
    parse: (body) => OkAnswerSchema.parse(body),
    json: { contreCode: code },
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
  return sendKeyed({
    method: 'get',
    path: 'bo/home/envoieMail',
    params: { idRecu: countId, site, utilisateur: login || undefined, role: login ? undefined : role },
    key,
    parse: (body) => MailAnswerSchema.parse(body),
  });
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
  return sendKeyed({
    method: 'get',
    path: 'bo/home/envoieMailManquant',
    params: { role: role.trim(), id: userId, site, datefiscale: dateFiscale },
    key,
    parse: (body) => MailAnswerSchema.parse(body),
  });
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
  return keyedFailure(error, {
    offline: offlineMessageId,
    unexpected: 'app.unexpectedError',
    byCode: { ...messages, IdempotencyKeyInProgress: 'counting.online.inProgress' },
  });
}
