/**
 * HTTP of the manager countersignature of safe counts (SPEC.md §7 fluxfin/declare_et_en_attente_de_
 * signatures, fluxfin/contre_signe, bo/checkContreCode) and of the manager codes behind it
 * (bo/setContreCode, ours); the rules are counting/countersignatures.ts's. Every refusal of a
 * code answers the same 400 `BadManagerCode`. Against guessing (decision record 0020): a code is
 * checked only for a manager of the caller's sites (403 otherwise), failures are counted per
 * manager and per session in PostgreSQL (429 with Retry-After while locked), both code-checking
 * routes are also rate-limited per client address like the login, and bo/checkContreCode has no
 * HEAD twin (its Content-Length told the answer).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CheckContreCodeAnswerSchema,
  type CountersignBody,
  CountersignBodySchema,
  CountersignQuerySchema,
  FiscalDateSchema,
  OkAnswerSchema,
  SafeCountSchema,
  SetManagerCodeBodySchema,
  SignaturesAnswerSchema,
} from '../../../contract/counting.ts';
import { parseBasic, tokenHash } from '../../auth/tokens.ts';
import {
  type CodeCheckCaller,
  checkManagerCode,
  countersignLatestSafeCount,
  setManagerCode,
  signatureStatuses,
} from '../../counting/countersignatures.ts';
import { requireSite } from '../../counting/sites.ts';
import { Throttle, throttlePolicies } from '../../security/throttle.ts';
import { ApiHttpError } from '../../plugins/error-handler.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from '../common.ts';
import type { CountingOptions } from './counting-options.ts';

/**
 * The countersigning manager's login and code and the comment, from the body or else the query
 * (contract/counting.ts CountersignQuerySchema).
 * @throws ApiHttpError 400 BadRequest naming the field missing from both.
 */
function countersignerOf(
  query: z.output<typeof CountersignQuerySchema>,
  body: CountersignBody | null | undefined,
): { managerLogin: string; managerCode: string; comment: string } {
  const managerLogin = body?.managerName ?? query.managerName;
  const managerCode = body?.managerCode ?? query.managerCode;
  if (managerLogin === undefined) throw missingField('managerName');
  if (managerCode === undefined) throw missingField('managerCode');
  return { managerLogin, managerCode, comment: body?.commentaire ?? query.commentaire ?? '' };
}

/** The 400 of a countersignature field given neither in the body nor in the query. */
function missingField(field: string): ApiHttpError {
  return new ApiHttpError(400, 'BadRequest', `${field} is required, in the body or the query`, { field });
}

/**
 * The caller of a code check as counting/countersignatures.ts counts them: scope, session token
 * hash (the rights guard has checked the token already), user and address.
 */
function codeCaller(
  request: FastifyRequest,
  session: { userId: number; siteIds: number[] },
  counters: Pick<CodeCheckCaller, 'throttle' | 'pool'>,
): CodeCheckCaller {
  const token = parseBasic(request.headers.authorization)?.secret ?? '';
  return {
    siteIds: session.siteIds,
    tokenHash: tokenHash(token),
    userId: session.userId,
    address: request.ip,
    ...counters,
  };
}

/** Registers the signatures list, fluxfin/contre_signe, bo/checkContreCode and bo/setContreCode. */
export async function countersignRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const rateLimit = { max: options.config.loginRatePerMinute, timeWindow: 60_000 };
  const counters = {
    pool,
    throttle: new Throttle(pool, throttlePolicies(options.config.loginFailuresPerIp)),
  };

  api.get(
    '/fluxfin/declare_et_en_attente_de_signatures',
    {
      config: { rights: 'GET fluxfin/declare_et_en_attente_de_signatures' },
      schema: {
        summary:
          'Latest safe count of each site and day of the period, declared, with its countersignature status',
        tags: ['counting'],
        querystring: z.object({ dateDebut: FiscalDateSchema, dateFin: FiscalDateSchema, id: UserIdParam }),
        response: { 200: SignaturesAnswerSchema, ...errorResponses },
      },
    },
    async function listSignatures(request) {
      const session = ownSession(request, request.query.id);
      return signatureStatuses(pool, session.siteIds, request.query.dateDebut, request.query.dateFin);
    },
  );

  api.post(
    '/fluxfin/contre_signe',
    {
      config: { rights: 'POST fluxfin/contre_signe', write: true, rateLimit },
      schema: {
        summary:
          'A manager countersigns the latest safe count of a site and fiscal date with their manager code',
        description:
          'managerName, managerCode and commentaire in the JSON body (preferred: no code in a URL) or in the query (SPEC.md §7)',
        tags: ['counting'],
        querystring: CountersignQuerySchema,
        body: CountersignBodySchema.nullish(), // the SPEC.md §7 form has no body
        response: { 200: SafeCountSchema, ...errorResponses },
      },
    },
    async function countersign(request) {
      const q = request.query;
      const session = ownSession(request, q.id);
      requireSite(session, q.restaurantId);
      return countersignLatestSafeCount(writeTx(request), {
        site: q.restaurantId,
        fiscalDate: q.datefiscale,
        ...countersignerOf(q, request.body),
        caller: codeCaller(request, session, counters),
      });
    },
  );

  api.get(
    '/bo/checkContreCode',
    {
      config: { rights: 'GET bo/checkContreCode', rateLimit },
      exposeHeadRoute: false,
      schema: {
        summary: "Checks a manager's code (code = the manager's login, contreCode = the code typed)",
        description:
          "403 Forbidden when `code` is not a manager of the caller's sites (the code is not checked); " +
          "429 TooManyRequests with Retry-After while the manager's or the session's counter is locked.",
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam, code: z.string().min(1), contreCode: z.string().min(1) }),
        response: { 200: CheckContreCodeAnswerSchema, ...errorResponses },
      },
    },
    async function checkContreCode(request) {
      const session = ownSession(request, request.query.id);
      const { code, contreCode } = request.query;
      const manager = await checkManagerCode(pool, code, contreCode, codeCaller(request, session, counters));
      return { valide: manager !== null, managerName: manager?.login ?? null };
    },
  );

  api.post(
    '/bo/setContreCode',
    {
      config: { rights: 'POST bo/setContreCode', write: true },
      schema: {
        summary: "Sets the signed-in manager's own code (4 to 6 digits, stored as an argon2id hash)",
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam }),
        body: SetManagerCodeBodySchema,
        response: { 200: OkAnswerSchema, ...errorResponses },
      },
    },
    async function setContreCode(request) {
      const session = ownSession(request, request.query.id);
      await setManagerCode(writeTx(request), session.userId, request.body.contreCode);
      return { ok: true as const };
    },
  );
}
