/**
 * Manager receipts (/analyses/recuManagers, /recus; SPEC.md §7 bo/documentsManager/*): a
 * manager acknowledges money received from a seller. A receipt belongs to one site and fiscal
 * date; an update replaces its content and raises its `version`, the previous content going
 * to the audit log. readDocument answers JSON or,
 * with `pdf=true`, the receipt as a PDF.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateReceiptQuerySchema,
  FiscalDateSchema,
  ReadReceiptQuerySchema,
  type Receipt,
  ReceiptComplementsSchema,
  ReceiptListAnswerSchema,
  ReceiptSchema,
  UpdateReceiptQuerySchema,
} from '../../../contract/counting.ts';
import type { Language } from '../../../contract/reports.ts';
import { ApiHttpError } from '../../plugins/errors.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { receiptDefinition, renderDocument } from '../../reports/counting/documents.ts';
import { contentDisposition } from '../../reports/render/index.ts';
import { errorResponses, sessionOf } from '../common.ts';
import { currentFiscalDate } from '../home.ts';
import { type CountingOptions, iso, type Queryable, requireSite, siteFacts } from './counting-options.ts';

interface ReceiptRow {
  site_id: number;
  id: number;
  fiscal_date: string;
  seller_code: string;
  seller_name: string;
  manager_code: string;
  manager_name: string;
  complements: { montantCents: number; motif: string; commentaire: string };
  version: number;
  created_by: number;
  created_by_login: string;
  created_at: Date;
  updated_at: Date;
}

function toReceipt(r: ReceiptRow): Receipt {
  return {
    id: r.id,
    restaurantId: r.site_id,
    dateFiscale: r.fiscal_date,
    numVendeur: r.seller_code,
    libVendeur: r.seller_name,
    codeManager: r.manager_code,
    nomManager: r.manager_name,
    complements: r.complements,
    version: r.version,
    createdBy: { userId: r.created_by, login: r.created_by_login },
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** Receipts of `siteIds` between two fiscal dates (included), by date, site, id. */
export async function receiptsBetween(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): Promise<Receipt[]> {
  const { rows } = await db.query<ReceiptRow>(
    `SELECT * FROM manager_receipts WHERE site_id = ANY($1) AND fiscal_date BETWEEN $2 AND $3
      ORDER BY fiscal_date, site_id, id`,
    [siteIds, dateDebut, dateFin],
  );
  return rows.map(toReceipt);
}

/** Today's fiscal date of `site` (its time zone and day start). */
async function todayOf(db: Queryable, site: number): Promise<string> {
  const facts = (await siteFacts(db, [site])).get(site)!;
  return currentFiscalDate(new Date(), facts.timeZone, facts.dayStart);
}

export async function receiptRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/documentsManager/readRecusManager',
    {
      config: { rights: 'GET bo/documentsManager/readRecusManager' },
      schema: {
        summary: "The day's manager receipts of the scope's sites (or of `site`), answer field `response`",
        tags: ['counting'],
        querystring: z.object({
          dateFiscale: FiscalDateSchema,
          site: z.coerce.number().int().positive().optional(),
        }),
        response: { 200: ReceiptListAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { dateFiscale, site } = request.query;
      if (site !== undefined) requireSite(session, site);
      const siteIds = site !== undefined ? [site] : session.siteIds;
      return { response: await receiptsBetween(pool, siteIds, dateFiscale, dateFiscale) };
    },
  );

  api.get(
    '/bo/documentsManager/readDocument',
    {
      config: { rights: 'GET bo/documentsManager/readDocument' },
      schema: {
        summary: 'One manager receipt as JSON, or its PDF with pdf=true',
        tags: ['counting'],
        querystring: ReadReceiptQuerySchema,
        response: { 200: ReceiptSchema.or(z.any().describe('application/pdf')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { rows } = await pool.query<ReceiptRow>(
        'SELECT * FROM manager_receipts WHERE id = $1 AND site_id = ANY($2)',
        [request.query.documentId, session.siteIds],
      );
      if (!rows[0]) throw new ApiHttpError(404, 'NotFound', 'no such receipt in your scope');
      const receipt = toReceipt(rows[0]);
      if (!request.query.pdf) return receipt;
      const facts = (await siteFacts(pool, [receipt.restaurantId])).get(receipt.restaurantId)!;
      const language: Language = request.query.language ?? (session.language as Language | null) ?? 'fr';
      const pdf = await renderDocument(
        receiptDefinition(receipt, {
          language,
          chain: options.config.distribution,
          siteName: facts.libelle,
          currency: facts.currency,
          timeZone: facts.timeZone,
        }),
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`recu-${receipt.id}.pdf`))
        .send(pdf);
    },
  );

  api.post(
    '/bo/documentsManager/createDocument',
    {
      config: { rights: 'POST bo/documentsManager/createDocument', write: true },
      schema: {
        summary: 'Creates a manager receipt; body: its complements; honours Idempotency-Key',
        tags: ['counting'],
        querystring: CreateReceiptQuerySchema,
        body: ReceiptComplementsSchema,
        response: { 200: ReceiptSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const q = request.query;
      requireSite(session, q.site);
      const tx = writeTx(request);
      const fiscalDate = q.dateFiscale ?? (await todayOf(tx, q.site));
      const { rows } = await tx.query<ReceiptRow>(
        `INSERT INTO manager_receipts (site_id, fiscal_date, seller_code, seller_name, manager_code, manager_name,
           complements, created_by, created_by_login, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8) RETURNING *`,
        [
          q.site,
          fiscalDate,
          q.codeVendeur,
          q.nomVendeur,
          q.codeManager,
          q.nomManager,
          request.body,
          session.userId,
          session.login,
        ],
      );
      return toReceipt(rows[0]!);
    },
  );

  api.post(
    '/bo/documentsManager/updateDocument',
    {
      config: { rights: 'POST bo/documentsManager/updateDocument', write: true },
      schema: {
        summary: "Replaces a manager receipt's content (version + 1); honours Idempotency-Key",
        tags: ['counting'],
        querystring: UpdateReceiptQuerySchema,
        body: ReceiptComplementsSchema,
        response: { 200: ReceiptSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const q = request.query;
      requireSite(session, q.site);
      const tx = writeTx(request);
      const { rows: found } = await tx.query<ReceiptRow>(
        'SELECT * FROM manager_receipts WHERE id = $1 AND site_id = ANY($2) FOR UPDATE',
        [q.documentId, session.siteIds],
      );
      const current = found[0];
      if (!current) throw new ApiHttpError(404, 'NotFound', 'no such receipt in your scope');
      // The receipt is replaced, so its previous content goes to the audit log (DESIGN.md §5:
      // nothing fiscal is silently lost), in the same transaction.
      await tx.query(
        `INSERT INTO audit_log (user_id, action, detail) VALUES ($1, 'manager_receipt.update', $2)`,
        [session.userId, { previous: toReceipt(current) }],
      );
      const { rows } = await tx.query<ReceiptRow>(
        `UPDATE manager_receipts SET site_id = $3, fiscal_date = $4, seller_code = $5, seller_name = $6,
           manager_code = $7, manager_name = $8, complements = $9, version = version + 1,
           updated_by = $10, updated_at = now()
         WHERE site_id = $1 AND id = $2 RETURNING *`,
        [
          current.site_id,
          current.id,
          q.site,
          q.dateFiscale ?? current.fiscal_date,
          q.codeVendeur,
          q.nomVendeur,
          q.codeManager,
          q.nomManager,
          request.body,
          session.userId,
        ],
      );
      return toReceipt(rows[0]!);
    },
  );
}
