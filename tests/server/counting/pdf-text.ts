/**
 * Text of a (compressed) PDF as served over HTTP, read with pdfjs-dist: every page's text
 * items joined by spaces, pages joined by newlines. Tests only.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  // Intl and pdfmake use no-break spaces in amounts; compare with plain spaces.
  return pages.join('\n').replace(/[\u00a0\u202f]/g, ' ');
}
