/**
 * The PDF documents of counting: a manager receipt (bo/documentsManager/readDocument?pdf=true)
 * and a safe count receipt (GET coffre?ACTION=getRecu&pdf=true). Small one-page documents laid
 * out in-process with pdfmake, using the fonts and access policies set up by render/pdf.ts
 * (both loaded on the first document: the server needs them for nothing else in its own thread). Labels come from the i18n catalogues in the document's language.
 */
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { NOTE_DENOMINATIONS_CENTS, type Receipt, type SafeCount } from '../../../contract/counting.ts';
import type { Language } from '../../../contract/reports.ts';
import { formatDate, formatInstant, formatMoney, message } from '../../i18n.ts';

/** Intl's narrow no-break space is not in Roboto; a no-break space is. */
function pdfText(text: string): string {
  return text.replaceAll('\u202f', '\u00a0');
}

/** What a document needs besides its record. */
export interface DocumentOptions {
  language: Language;
  /** Chain (distribution) name shown on top. */
  chain: string;
  /** Site name and currency. */
  siteName: string;
  currency: string;
  /** IANA zone in which instants are shown. */
  timeZone: string;
  /** false writes plain-text content streams (tests read them back). */
  compress?: boolean;
}

function frame(options: DocumentOptions, title: string, content: Content[]): TDocumentDefinitions {
  const t = (id: string, values?: Record<string, string | number>) =>
    pdfText(message(options.language, id, values));
  return {
    compress: options.compress ?? true,
    pageSize: 'A4',
    pageMargins: [48, 48, 48, 48],
    info: { title, creator: 'Comptoir' },
    content: [
      { text: pdfText(title), style: 'title' },
      {
        text: `${pdfText(options.chain)} · ${pdfText(options.siteName)}`,
        style: 'muted',
        margin: [0, 0, 0, 12],
      },
      ...content,
      {
        margin: [0, 36, 0, 0],
        columns: [
          { text: t('counting.pdf.signatureCounter'), style: 'sign' },
          { text: t('counting.pdf.signatureManager'), style: 'sign' },
        ],
      },
    ],
    styles: {
      title: { fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      muted: { fontSize: 8, color: '#555555' },
      th: { bold: true, fillColor: '#eeeeee' },
      sign: { fontSize: 9, margin: [0, 0, 0, 48] },
    },
    defaultStyle: { font: 'Roboto', fontSize: 10 },
  };
}

/** Two-column label/value table. */
function facts(rows: [string, string][]): Content {
  return {
    table: {
      widths: ['auto', '*'],
      body: rows.map(([label, value]): TableCell[] => [
        { text: pdfText(label), bold: true },
        { text: pdfText(value) },
      ]),
    },
    layout: 'noBorders',
    margin: [0, 0, 0, 12],
  };
}

function when(instant: string, timeZone: string): string {
  const { date, time } = formatInstant(new Date(instant), timeZone);
  return `${date} ${time}`;
}

/** The pdfmake document of a manager receipt (exported for tests). */
export function receiptDefinition(receipt: Receipt, options: DocumentOptions): TDocumentDefinitions {
  const { language } = options;
  const t = (id: string) => message(language, id);
  const c = receipt.complements;
  const rows: [string, string][] = [
    [t('counting.pdf.receiptNumber'), `${receipt.id} (v${receipt.version})`],
    [t('counting.pdf.fiscalDate'), formatDate(receipt.dateFiscale)],
    [t('counting.pdf.seller'), `${receipt.libVendeur} (${receipt.numVendeur})`],
    [t('counting.pdf.manager'), `${receipt.nomManager} (${receipt.codeManager})`],
    [t('counting.pdf.amount'), formatMoney(language, c.montantCents, options.currency)],
    [t('counting.pdf.reason'), c.motif],
  ];
  if (c.commentaire) rows.push([t('counting.pdf.comment'), c.commentaire]);
  rows.push([
    t('counting.pdf.createdBy'),
    `${receipt.createdBy.login} · ${when(receipt.createdAt, options.timeZone)}`,
  ]);
  return frame(options, t('counting.pdf.receiptTitle'), [facts(rows)]);
}

/** The pdfmake document of a safe count receipt (exported for tests). */
export function safeReceiptDefinition(count: SafeCount, options: DocumentOptions): TDocumentDefinitions {
  const { language, currency } = options;
  const t = (id: string) => message(language, id);
  const money = (cents: number) => formatMoney(language, cents, currency);
  const notes = new Set<number>(NOTE_DENOMINATIONS_CENTS);
  const rows: [string, string][] = [
    [t('counting.pdf.countNumber'), `${count.id} (v${count.version})`],
    [t('counting.pdf.fiscalDate'), formatDate(count.dateFiscale)],
    [t('counting.pdf.countedBy'), `${count.countedBy.login} · ${when(count.countedAt, options.timeZone)}`],
    [t('counting.pdf.opening'), money(count.openingCents)],
    [t('counting.pdf.deposits'), money(count.depositsCents)],
    [t('counting.pdf.withdrawals'), money(count.withdrawalsCents)],
    [t('counting.pdf.expected'), money(count.expectedCents)],
    [t('counting.pdf.counted'), money(count.countedCents)],
    [t('counting.pdf.variance'), money(count.varianceCents)],
  ];
  if (count.comment) rows.push([t('counting.pdf.comment'), count.comment]);
  const sig = count.countersignature;
  rows.push([
    t('counting.pdf.countersignature'),
    sig
      ? `${sig.managerName} · ${when(sig.signedAt, options.timeZone)}${sig.commentaire ? ` · ${sig.commentaire}` : ''}`
      : t('counting.pdf.waiting'),
  ]);
  const table: TableCell[][] = [
    [
      { text: pdfText(t('counting.pdf.denomination')), style: 'th' },
      { text: pdfText(t('counting.pdf.quantity')), style: 'th', alignment: 'right' },
      { text: pdfText(t('counting.pdf.total')), style: 'th', alignment: 'right' },
    ],
    ...count.contents.map((l): TableCell[] => [
      {
        text: pdfText(
          `${money(l.denominationCents)} ${notes.has(l.denominationCents) ? t('counting.pdf.note') : t('counting.pdf.coin')}`,
        ),
      },
      { text: String(l.quantity), alignment: 'right' },
      { text: pdfText(money(l.denominationCents * l.quantity)), alignment: 'right' },
    ]),
  ];
  return frame(options, t('counting.pdf.safeTitle'), [
    facts(rows),
    { table: { headerRows: 1, widths: ['*', 'auto', 'auto'], body: table }, layout: 'lightHorizontalLines' },
  ]);
}

/** Lays `definition` out as PDF bytes. */
export async function renderDocument(definition: TDocumentDefinitions): Promise<Buffer> {
  // render/pdf.ts sets pdfmake's fonts and file access policies when it is first imported.
  const [{ default: pdfmake }] = await Promise.all([import('pdfmake'), import('../render/pdf.ts')]);
  return pdfmake.createPdf(definition).getBuffer();
}
