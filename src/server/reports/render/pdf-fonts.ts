/**
 * Why this exists: for every PDF, pdfkit (pdfmake's writer) opens Roboto anew and shapes every
 * distinct piece of text with it (fontkit's OpenType layout), so the amounts, times, dates and
 * names that every report repeats were shaped again in each document, a sizeable part of the
 * rendering time of a tickets table. Here each font file is
 * opened once per thread (worker) and its shaped texts are kept from one document to the next,
 * up to {@link MAX_SHAPED} texts per font, then started afresh.
 *
 * Guarantees: a document's bytes are the same as with fonts opened for it alone
 * (tests/reports/pdf-renderer.test.ts compares); pdfmake's access policy still checks the font
 * file first; the change is made only to the pdfmake whose `provideFont` it was written for (its
 * source is checked against a digest), otherwise pdfmake runs untouched. Documents are laid out
 * one at a time per thread (pdfmake is synchronous), so nothing is shared while in use elsewhere.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** The part of a fontkit font used here (opaque to us: pdfkit shapes with it). */
interface FontkitFont {
  postscriptName: string;
}

/** The part of pdfkit's EmbeddedFont used here. */
interface EmbeddedFont {
  font: FontkitFont;
  name: string;
  /** pdfkit's cache of shaped texts, text → glyph run (absent when the document disabled it). */
  layoutCache?: Record<string, unknown>;
}

/** The part of pdfmake's PDFDocument (its pdfkit document) used here. */
interface PdfmakeDocument {
  fonts: Record<string, Record<string, unknown>>;
  fontCache: Record<string, Record<string, EmbeddedFont | undefined> | undefined>;
  getFontType(bold: boolean, italics: boolean): string;
  provideFont(family: string, bold: boolean, italics: boolean): EmbeddedFont;
}

/**
 * Shaped texts kept per font file (about 1.6 kB each: some 32 MB at most) before starting afresh.
 * A document with more distinct texts still has them all shaped and cached while it is laid out,
 * as pdfkit always did; the next document then starts with an empty cache.
 */
const MAX_SHAPED = 20_000;

/** sha256 of pdfmake 0.3.11's `PDFDocument.prototype.provideFont` source. */
const KNOWN_SOURCE = 'd82bb3f99bf3e9c5a8c03a351dd0dbec646160f05ae5ec80135d99ef02231a86';

const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake/package.json'));
const proto = (requireFromPdfmake('pdfmake/js/PDFDocument.js') as { default: { prototype: PdfmakeDocument } })
  .default.prototype;
const fontkit = createRequire(requireFromPdfmake.resolve('pdfkit/package.json'))('fontkit') as {
  openSync(file: string): FontkitFont;
};
const originalProvideFont = proto.provideFont;
const compatible = createHash('sha256').update(originalProvideFont.toString()).digest('hex') === KNOWN_SOURCE;

/** Per font file: the font opened once, and the texts shaped with it so far. */
const shared = new Map<string, { font: FontkitFont; shaped: Record<string, unknown> }>();

/**
 * pdfmake's `provideFont`, then, the first time a document asks for a font file: pdfkit's
 * font shapes with the thread's copy of that file, into the thread's cache of shaped texts.
 * The document's own copy still makes its subset (the glyphs embedded), so what is written is
 * unchanged: same file, same glyphs, same advances.
 */
function provideFont(this: PdfmakeDocument, family: string, bold: boolean, italics: boolean): EmbeddedFont {
  const first = !this.fontCache[family]?.[this.getFontType(bold, italics)];
  const font = originalProvideFont.call(this, family, bold, italics);
  const file = this.fonts[family]?.[this.getFontType(bold, italics)];
  if (!first || typeof file !== 'string' || !font.layoutCache) return font;
  let entry = shared.get(file);
  if (!entry) {
    entry = { font: fontkit.openSync(file), shaped: Object.create(null) };
    shared.set(file, entry);
  }
  if (entry.font.postscriptName !== font.font.postscriptName) return font;
  if (Object.keys(entry.shaped).length > MAX_SHAPED) entry.shaped = Object.create(null);
  font.font = entry.font;
  font.layoutCache = entry.shaped;
  return font;
}

/**
 * Turns the sharing of fonts between documents on (the PDF renderer does at load) or off, and
 * forgets what was shaped so far either way (tests compare both). Returns whether it is on:
 * false when this pdfmake is not the one it was written for, whatever was asked.
 */
export function setSharedFonts(enabled: boolean): boolean {
  const on = enabled && compatible;
  proto.provideFont = on ? provideFont : originalProvideFont;
  shared.clear();
  return on;
}
