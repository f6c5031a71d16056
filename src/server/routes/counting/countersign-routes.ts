/**
 * The manager countersignature of safe counts (SPEC.md §7 fluxfin/declare_et_en_attente_de_
 * signatures, fluxfin/contre_signe, bo/checkContreCode) and the manager codes behind it
 * (bo/setContreCode, ours).
 *
 * A manager code is 4 to 6 digits chosen by the manager and stored only as an argon2id hash
 * (`manager_codes`). A countersignature names the manager by login (`managerName`) and proves
 * their presence with the code; the manager must hold COFFRE, have the site in their scope and
 * not be the person who counted. Every refusal answers the same 400 `BadManagerCode`, so the
 * answer does not tell which part was wrong; both code-checking routes are rate-limited per
 * client like the login, against guessing.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import {
  CheckContreCodeAnswerSchema,
  CountersignQuerySchema,
  FiscalDateSchema,
  OkAnswerSchema,
  SafeCountSchema,
  SetManagerCodeBodySchema,
  SignaturesAnswerSchema,
} from '../../../contract/counting.ts';
import { daysInclusive } from '../../../contract/dates.ts';
import { siteScope } from '../../auth/scope.ts';
import { hashPassword, verifyPassword } from '../../auth/users.ts';
import { ApiHttpError } from '../../plugins/errors.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from '../common.ts';
import {
  SAFE_COLUMNS,
  SAFE_LIST_MAX_DAYS,
  type SafeCountRow,
  safeCountsBetween,
  toSafeCount,
} from './safe-count-routes.ts';
import { type CountingOptions, requireSite } from './counting-options.ts';

/** A manager whose code matched, or null. */
export async function checkManagerCode(
  db: pg.Pool | pg.PoolClient,
  login: string,
  code: string,
  siteId?: number,
): Promise<{ userId: number; login: string } | null> {
  const { rows } = await db.query<{ id: number; login: string; droits: string[]; code_hash: string | null }>(
    `SELECT u.id, u.login, p.droits, mc.code_hash
       FROM users u JOIN profiles p ON p.id = u.profile_id LEFT JOIN manager_codes mc ON mc.user_id = u.id
      WHERE u.login = $1`,
    [login],
  );
  const manager = rows[0];
  // Verify against a throwaway hash when there is no code, so timing does not tell logins apart.
  const ok = await verifyPassword(manager?.code_hash ?? DUMMY_HASH, code);
  if (!manager?.code_hash || !ok || !manager.droits.includes('COFFRE')) return null;
  if (siteId !== undefined) {
    const scope = await siteScope(db, manager.id);
    if (!scope.includes(siteId)) return null;
  }
  return { userId: manager.id, login: manager.login };
}

/** argon2id hash of a random string nobody knows (see checkManagerCode). */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString('hex'));

export async function countersignRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const rateLimit = { max: options.config.loginRatePerMinute, timeWindow: 60_000 };

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
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { dateDebut, dateFin } = request.query;
      const days = daysInclusive(dateDebut, dateFin);
      if (!(days >= 1)) throw new ApiHttpError(400, 'BadRequest', 'dateFin is before dateDebut');
      if (days > SAFE_LIST_MAX_DAYS)
        throw new ApiHttpError(400, 'MaxReportDays', 'period too long', { maxDays: SAFE_LIST_MAX_DAYS });
      const counts = await safeCountsBetween(pool, session.siteIds, dateDebut, dateFin, true);
      return {
        data: counts.map((c) => ({
          ...c,
          status: c.countersignature ? ('CONTRE_SIGNE' as const) : ('EN_ATTENTE' as const),
        })),
      };
    },
  );

  api.post(
    '/fluxfin/contre_signe',
    {
      config: { rights: 'POST fluxfin/contre_signe', write: true, rateLimit },
      schema: {
        summary:
          'A manager countersigns the latest safe count of a site and fiscal date with their manager code',
        tags: ['counting'],
        querystring: CountersignQuerySchema,
        response: { 200: SafeCountSchema, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const session = ownSession(request, q.id);
      requireSite(session, q.restaurantId);
      const tx = writeTx(request);
      const { rows } = await tx.query<SafeCountRow>(
        `SELECT ${SAFE_COLUMNS} FROM safe_counts c JOIN sites s ON s.id = c.site_id
          WHERE c.site_id = $1 AND c.fiscal_date = $2 ORDER BY c.version DESC LIMIT 1 FOR UPDATE OF c`,
        [q.restaurantId, q.datefiscale],
      );
      const count = rows[0];
      if (!count) throw new ApiHttpError(404, 'NotFound', 'no safe count for this site and fiscal date');
      if (count.countersigned_at !== null)
        throw new ApiHttpError(409, 'AlreadyCountersigned', 'the latest safe count is already countersigned');
      const manager = await checkManagerCode(tx, q.managerName, q.managerCode, q.restaurantId);
      if (!manager || manager.userId === count.counted_by)
        throw new ApiHttpError(
          400,
          'BadManagerCode',
          'manager, code or rights do not allow this countersignature',
        );
      const { rows: signed } = await tx.query<SafeCountRow>(
        `UPDATE safe_counts c SET countersigned_by = $3, countersigned_name = $4, countersign_comment = $5,
           countersigned_at = now()
          FROM sites s WHERE s.id = c.site_id AND c.site_id = $1 AND c.id = $2
          RETURNING ${SAFE_COLUMNS}`,
        [count.site_id, count.id, manager.userId, manager.login, q.commentaire],
      );
      return toSafeCount(signed[0]!);
    },
  );

  api.get(
    '/bo/checkContreCode',
    {
      config: { rights: 'GET bo/checkContreCode', rateLimit },
      schema: {
        summary: "Checks a manager's code (code = the manager's login, contreCode = the code typed)",
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam, code: z.string().min(1), contreCode: z.string().min(1) }),
        response: { 200: CheckContreCodeAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      ownSession(request, request.query.id);
      const manager = await checkManagerCode(pool, request.query.code, request.query.contreCode);
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
    async (request) => {
      const session = ownSession(request, request.query.id);
      const codeHash = await hashPassword(request.body.contreCode);
      await writeTx(request).query(
        `INSERT INTO manager_codes (user_id, code_hash, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, updated_at = now()`,
        [session.userId, codeHash],
      );
      return { ok: true as const };
    },
  );
}
