/**
 * Safe counts (/analyses/coffre; SPEC.md §7 GET coffre in its three forms) and the write that
 * saves one (POST coffre/save, ours). Like cash counts, a save is the next version of (site,
 * fiscal date), numbered under a transaction-scoped advisory lock; a new version starts without
 * a countersignature. Expected content = opening float + deposits − withdrawals; variance =
 * counted − expected (cents).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  denominationsTotalCents,
  FiscalDateSchema,
  SAFE_ACTIONS,
  SafeCountBodySchema,
  type SafeCount,
  SafeCountSchema,
  SafeDayAnswerSchema,
  SafeListAnswerSchema,
} from '../../../contract/counting.ts';
import { daysInclusive } from '../../../contract/dates.ts';
import { type Language, LanguageSchema } from '../../../contract/reports.ts';
import type { Session } from '../../auth/session.ts';
import { ApiHttpError } from '../../plugins/errors.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { renderDocument, safeReceiptDefinition } from '../../reports/counting/documents.ts';
import { contentDisposition } from '../../reports/render/index.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from '../common.ts';
import { type CountingOptions, iso, type Queryable, requireSite, siteFacts } from './counting-options.ts';

/** Longest period of the `getComptages` form, in days (a year and a bit). */
export const SAFE_LIST_MAX_DAYS = 400;

export interface SafeCountRow {
  site_id: number;
  libelle: string;
  id: number;
  fiscal_date: string;
  version: number;
  opening_cents: number;
  deposits_cents: number;
  withdrawals_cents: number;
  contents: { denominationCents: number; quantity: number }[];
  counted_cents: number;
  comment: string;
  counted_by: number;
  counted_by_login: string;
  counted_at: Date;
  received_at: Date;
  countersigned_by: number | null;
  countersigned_name: string | null;
  countersign_comment: string | null;
  countersigned_at: Date | null;
}

/** Columns of a safe count joined with its site's name (`c` = safe_counts, `s` = sites). */
export const SAFE_COLUMNS = 'c.*, s.libelle';

/** A stored row as the API answers it. */
export function toSafeCount(r: SafeCountRow): SafeCount {
  const expectedCents = r.opening_cents + r.deposits_cents - r.withdrawals_cents;
  return {
    id: r.id,
    site: r.site_id,
    libelle: r.libelle,
    dateFiscale: r.fiscal_date,
    version: r.version,
    openingCents: r.opening_cents,
    depositsCents: r.deposits_cents,
    withdrawalsCents: r.withdrawals_cents,
    expectedCents,
    contents: r.contents,
    countedCents: r.counted_cents,
    varianceCents: r.counted_cents - expectedCents,
    comment: r.comment,
    countedBy: { userId: r.counted_by, login: r.counted_by_login },
    countedAt: iso(r.counted_at),
    receivedAt: iso(r.received_at),
    countersignature:
      r.countersigned_by === null || r.countersigned_at === null
        ? null
        : {
            managerUserId: r.countersigned_by,
            managerName: r.countersigned_name ?? '',
            commentaire: r.countersign_comment ?? '',
            signedAt: iso(r.countersigned_at),
          },
  };
}

/**
 * Safe counts of `siteIds` between two fiscal dates (included), every version, by date, site,
 * then version descending; `latestOnly` keeps the latest version of each (site, date).
 */
export async function safeCountsBetween(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
  latestOnly = false,
): Promise<SafeCount[]> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT ${latestOnly ? 'DISTINCT ON (c.fiscal_date, c.site_id)' : ''} ${SAFE_COLUMNS}
       FROM safe_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = ANY($1) AND c.fiscal_date BETWEEN $2 AND $3
      ORDER BY c.fiscal_date, c.site_id, c.version DESC`,
    [siteIds, dateDebut, dateFin],
  );
  return rows.map(toSafeCount);
}

/**
 * Safe count `id` when its site is in `siteIds`.
 * @throws ApiHttpError 404 NotFound otherwise (same answer for one that does not exist).
 */
export async function safeCountById(
  db: Queryable,
  id: number,
  siteIds: readonly number[],
): Promise<SafeCount> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT ${SAFE_COLUMNS} FROM safe_counts c JOIN sites s ON s.id = c.site_id WHERE c.id = $1 AND c.site_id = ANY($2)`,
    [id, siteIds],
  );
  if (!rows[0]) throw new ApiHttpError(404, 'NotFound', 'no such safe count in your scope');
  return toSafeCount(rows[0]);
}

/** The PDF receipt of a safe count, in `language`. */
export async function safeReceiptPdf(
  db: Queryable,
  count: SafeCount,
  language: Language,
  chain: string,
): Promise<Buffer> {
  const facts = (await siteFacts(db, [count.site])).get(count.site)!;
  return renderDocument(
    safeReceiptDefinition(count, {
      language,
      chain,
      siteName: facts.libelle,
      currency: facts.currency,
      timeZone: facts.timeZone,
    }),
  );
}

/** The language of a document: asked, else the user's, else fr. */
export function documentLanguage(asked: Language | undefined, session: Session): Language {
  const own = LanguageSchema.safeParse(session.language);
  return asked ?? (own.success ? own.data : 'fr');
}

const CoffreQuerySchema = z.object({
  dateFiscale: FiscalDateSchema.optional().describe('form 1: the safe counts of this fiscal date'),
  ACTION: z.enum(SAFE_ACTIONS).optional().describe('form 2: getComptages; form 3: getRecu'),
  restaurantId: z.coerce.number().int().positive().optional().describe('form 2: the site'),
  dateDebut: FiscalDateSchema.optional().describe('form 2: first fiscal date'),
  dateFin: FiscalDateSchema.optional().describe('form 2: last fiscal date (included)'),
  pdf: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('form 3: PDF (true) or JSON'),
  id: z.coerce.number().int().positive().optional().describe('form 3: the safe count id'),
  language: LanguageSchema.optional().describe('form 3: language of the PDF'),
});

export async function safeCountRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/coffre',
    {
      config: { rights: 'GET coffre' },
      schema: {
        summary:
          'Safe counts: ?dateFiscale | ?ACTION=getComptages&restaurantId&dateDebut&dateFin | ?ACTION=getRecu&pdf=true&id',
        tags: ['counting'],
        querystring: CoffreQuerySchema,
        response: {
          200: z.union([
            SafeDayAnswerSchema,
            SafeListAnswerSchema,
            SafeCountSchema,
            z.any().describe('application/pdf'),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const q = request.query;
      if (q.ACTION === 'getRecu') {
        if (q.id === undefined) throw new ApiHttpError(400, 'BadRequest', 'getRecu needs id');
        const count = await safeCountById(pool, q.id, session.siteIds);
        if (!q.pdf) return count;
        const pdf = await safeReceiptPdf(
          pool,
          count,
          documentLanguage(q.language, session),
          options.config.distribution,
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(`coffre-${count.id}.pdf`))
          .send(pdf);
      }
      if (q.ACTION === 'getComptages') {
        if (q.restaurantId === undefined || !q.dateDebut || !q.dateFin)
          throw new ApiHttpError(400, 'BadRequest', 'getComptages needs restaurantId, dateDebut and dateFin');
        requireSite(session, q.restaurantId);
        const days = daysInclusive(q.dateDebut, q.dateFin);
        if (!(days >= 1)) throw new ApiHttpError(400, 'BadRequest', 'dateFin is before dateDebut');
        if (days > SAFE_LIST_MAX_DAYS)
          throw new ApiHttpError(400, 'MaxReportDays', 'period too long', { maxDays: SAFE_LIST_MAX_DAYS });
        return { data: await safeCountsBetween(pool, [q.restaurantId], q.dateDebut, q.dateFin) };
      }
      if (!q.dateFiscale)
        throw new ApiHttpError(400, 'BadRequest', 'give dateFiscale, or ACTION with its parameters');
      const facts = await siteFacts(pool, session.siteIds);
      const counts = await safeCountsBetween(pool, session.siteIds, q.dateFiscale, q.dateFiscale);
      const { rows: openings } = await pool.query<{ site_id: number; counted_cents: number }>(
        `SELECT DISTINCT ON (site_id) site_id, counted_cents FROM safe_counts
          WHERE site_id = ANY($1) AND fiscal_date < $2 ORDER BY site_id, fiscal_date DESC, version DESC`,
        [session.siteIds, q.dateFiscale],
      );
      const opening = new Map(openings.map((o) => [o.site_id, o.counted_cents]));
      return {
        dateFiscale: q.dateFiscale,
        sites: [...facts.values()].map((f) => ({
          restaurantId: f.id,
          libelle: f.libelle,
          currency: f.currency,
          suggestedOpeningCents: opening.get(f.id) ?? 0,
          counts: counts.filter((c) => c.site === f.id),
        })),
      };
    },
  );

  api.post(
    '/coffre/save',
    {
      config: { rights: 'POST coffre/save', write: true },
      schema: {
        summary: 'Saves a safe count as a new version (never overwrites); honours Idempotency-Key',
        tags: ['counting'],
        querystring: z.object({ id: UserIdParam }),
        body: SafeCountBodySchema,
        response: { 200: SafeCountSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const body = request.body;
      requireSite(session, body.site);
      const tx = writeTx(request);
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
        `safe_count:${body.site}:${body.dateFiscale}`,
      ]);
      const contents = [...body.contents].sort((a, b) => b.denominationCents - a.denominationCents);
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents,
           contents, counted_cents, comment, counted_by, counted_by_login, counted_at)
         SELECT $1, $2, coalesce(max(version), 0) + 1, $3, $4, $5, $6, $7, $8, $9, $10, coalesce($11::timestamptz, now())
           FROM safe_counts WHERE site_id = $1 AND fiscal_date = $2
         RETURNING id`,
        [
          body.site,
          body.dateFiscale,
          body.openingCents,
          body.depositsCents,
          body.withdrawalsCents,
          JSON.stringify(contents),
          denominationsTotalCents(contents),
          body.comment,
          session.userId,
          session.login,
          body.countedAt ?? null,
        ],
      );
      return safeCountById(tx, rows[0]!.id, [body.site]);
    },
  );
}
