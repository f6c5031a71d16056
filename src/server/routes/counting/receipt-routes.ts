/**
 * HTTP of manager receipts (SPEC.md §7 bo/documentsManager/*; /analyses/recuManagers, /recus):
 * wire names (codeVendeur, nomManager, documentId…) mapped to counting/receipts.ts's calls;
 * readDocument answers JSON or, with `pdf=true`, the receipt as a PDF.
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
import { receiptPdf } from '../../counting/receipt-pdfs.ts';
import { createReceipt, receiptById, receipts, updateReceipt } from '../../counting/receipts.ts';
import { requireSite, todaysFiscalDate } from '../../counting/sites.ts';
import { contentDisposition } from '../../reports/render/index.ts';
import type { BatchItemInput } from '../../outbox/direct-items.ts';
import { documentAnswer, errorResponses, sessionOf, writeInput } from '../common.ts';
import type { CountingOptions } from './counting-options.ts';
import { INT4_MAX } from '../../../contract/integers.ts';
import type { Session } from '../../auth/session.ts';
import { ApiHttpError } from '../../plugins/error-handler.ts';

/** The receipt content a createDocument / updateDocument query and body give. */
function receiptContent(
  q: z.output<typeof CreateReceiptQuerySchema>,
  complements: z.output<typeof ReceiptComplementsSchema>,
) {
  return {
    site: q.site,
    sellerCode: q.codeVendeur,
    sellerName: q.nomVendeur,
    managerCode: q.codeManager,
    managerName: q.nomManager,
    complements,
  };
}

/**
 * The caller's only site, for a receipt written without `site` (SPEC.md §7 names none).
 * @throws ApiHttpError 400 NoSitesSelected when the scope has no site or several.
 */
function onlySite(session: Session): number {
  const [site, ...others] = session.siteIds;
  if (site === undefined || others.length > 0) {
    throw new ApiHttpError(400, 'NoSitesSelected', 'several sites in your scope: say which with site');
  }
  return site;
}

/** Registers bo/documentsManager/readRecusManager, readDocument, createDocument and updateDocument. */
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
          site: z.coerce.number().int().positive().max(INT4_MAX).optional(),
        }),
        response: { 200: ReceiptListAnswerSchema, ...errorResponses },
      },
    },
    async function readRecusManager(request) {
      const session = sessionOf(request);
      const { dateFiscale, site } = request.query;
      if (site !== undefined) requireSite(session, site);
      const siteIds = site !== undefined ? [site] : session.siteIds;
      return { response: await receipts(pool, { siteIds, dateDebut: dateFiscale, dateFin: dateFiscale }) };
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
        response: { 200: documentAnswer(ReceiptSchema, ['application/pdf']), ...errorResponses },
      },
    },
    async function readDocument(request, reply) {
      const session = sessionOf(request);
      const receipt = await receiptById(pool, request.query.documentId, session.siteIds);
      if (!request.query.pdf) return receipt;
      const language: Language = request.query.language ?? (session.language as Language | null) ?? 'fr';
      const pdf = await receiptPdf(pool, receipt, language, options.config.distribution);
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`recu-${receipt.id}.pdf`))
        .send(pdf);
    },
  );

  api.post(
    '/bo/documentsManager/createDocument',
    {
      config: { rights: 'POST bo/documentsManager/createDocument', write: true, batchItem: createDocument },
      schema: {
        summary: 'Creates a manager receipt; body: its complements; honours Idempotency-Key',
        tags: ['counting'],
        querystring: CreateReceiptQuerySchema,
        body: ReceiptComplementsSchema,
        response: { 200: ReceiptSchema, ...errorResponses },
      },
    },
    function createDocumentRequest(request) {
      return createDocument(writeInput(request, request.query, request.body));
    },
  );

  api.post(
    '/bo/documentsManager/updateDocument',
    {
      config: { rights: 'POST bo/documentsManager/updateDocument', write: true, batchItem: updateDocument },
      schema: {
        summary: "Replaces a manager receipt's content (version + 1); honours Idempotency-Key",
        tags: ['counting'],
        querystring: UpdateReceiptQuerySchema,
        body: ReceiptComplementsSchema,
        response: { 200: ReceiptSchema, ...errorResponses },
      },
    },
    function updateDocumentRequest(request) {
      return updateDocument(writeInput(request, request.query, request.body));
    },
  );
}

/** The body of both receipt writes: the receipt's complements. */
type Complements = z.output<typeof ReceiptComplementsSchema>;

/** POST bo/documentsManager/createDocument's work, for a request or a batch item (outbox/direct-items.ts). */
async function createDocument(
  input: BatchItemInput<z.output<typeof CreateReceiptQuerySchema>, Complements>,
): Promise<Receipt> {
  const { query: q, body, session, tx } = input;
  const site = q.site ?? onlySite(session);
  requireSite(session, site);
  const fiscalDate = q.dateFiscale ?? (await todaysFiscalDate(tx, site));
  return createReceipt(tx, { ...receiptContent(q, body), site, fiscalDate }, session);
}

/** POST bo/documentsManager/updateDocument's work, for a request or a batch item (outbox/direct-items.ts). */
async function updateDocument(
  input: BatchItemInput<z.output<typeof UpdateReceiptQuerySchema>, Complements>,
): Promise<Receipt> {
  const { query: q, body, session, tx } = input;
  if (q.site !== undefined) requireSite(session, q.site);
  const content = { ...receiptContent(q, body), site: q.site ?? null, fiscalDate: q.dateFiscale ?? null };
  return updateReceipt(tx, q.documentId, session.siteIds, content, session);
}
