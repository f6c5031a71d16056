/**
 * The PDF receipts counting answers and mails: a safe count's (GET coffre?ACTION=getRecu&pdf=true,
 * bo/home/envoieMail) and a manager receipt's (bo/documentsManager/readDocument?pdf=true), laid
 * out by reports/counting/documents.ts with the site's name, currency and time zone.
 */
import type { Receipt, SafeCount } from '../../contract/counting.ts';
import { type Language, LanguageSchema } from '../../contract/reports.ts';
import type { Session } from '../auth/session.ts';
import type { Queryable } from '../db/queryable.ts';
import { receiptDefinition, renderDocument, safeReceiptDefinition } from '../reports/counting/documents.ts';
import { siteFactsOf } from './sites.ts';

/** The language of a document: asked, else the user's, else fr. */
export function documentLanguage(asked: Language | undefined, session: Pick<Session, 'language'>): Language {
  const own = LanguageSchema.safeParse(session.language);
  return asked ?? (own.success ? own.data : 'fr');
}

/** The PDF receipt (bytes) of a safe count, in `language`, under chain name `chain`. */
export async function safeReceiptPdf(
  db: Queryable,
  count: SafeCount,
  language: Language,
  chain: string,
): Promise<Buffer> {
  const facts = await siteFactsOf(db, count.site);
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

/** The PDF (bytes) of a manager receipt, in `language`, under chain name `chain`. */
export async function receiptPdf(
  db: Queryable,
  receipt: Receipt,
  language: Language,
  chain: string,
): Promise<Buffer> {
  const facts = await siteFactsOf(db, receipt.restaurantId);
  return renderDocument(
    receiptDefinition(receipt, {
      language,
      chain,
      siteName: facts.libelle,
      currency: facts.currency,
      timeZone: facts.timeZone,
    }),
  );
}
