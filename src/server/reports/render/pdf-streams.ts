/**
 * Why this exists: pdfkit, which writes the PDFs that pdfmake lays out, turns every operator of
 * a page's content stream into a Buffer of its own (`q`, `1 0 0 -1 0 595.28 cm`, `BT`, … about
 * thirteen for each table cell) and concatenates them when the page ends. A 5,000-row table
 * makes some 650,000 small Buffers: about an eighth of the rendering time went into creating,
 * concatenating and collecting them. Here the operators are kept as text while the page is
 * written and turned into one Buffer per run of text when the stream ends.
 *
 * Guarantees: the bytes written are exactly pdfkit's (tests/reports/pdf-renderer.test.ts renders
 * with and without and compares); the change is made only to the pdfkit whose code it was
 * written for (the source of `write` and `finalize` is checked against a digest), otherwise
 * pdfkit's own code runs untouched. Nothing of the layout changes: pdfmake still lays out.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** The part of pdfkit's PDFReference (an indirect object with an optional stream) used here. */
interface PdfReference {
  /** Chunks of the stream: pdfkit's Uint8Arrays, or (while joined) operator text. */
  buffer: Array<Uint8Array | string>;
  data: { Length?: number; Filter?: string };
  compress: boolean;
  uncompressedLength: number;
  write(chunk: unknown): void;
  finalize(): void;
}

/** sha256 of pdfkit 0.19.1's `PDFReference.prototype.write` and `finalize` sources, joined by a newline. */
const KNOWN_SOURCE = 'aefe6e69e7e0d7e5e3134b465e4b76f3e897fb093d22f36ff7ac08bb4c3c7df8';

// The pdfkit that pdfmake itself loads (not a copy of our own): its PDFReference prototype is
// reached through a reference of a throw-away document.
const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake/package.json'));
const PdfKitDocument = requireFromPdfmake('pdfkit') as new (options: object) => { ref(): PdfReference };
const proto = Object.getPrototypeOf(
  new PdfKitDocument({ autoFirstPage: false, font: null }).ref(),
) as PdfReference;
const original = { write: proto.write, finalize: proto.finalize };
const compatible =
  createHash('sha256')
    .update(`${original.write.toString()}\n${original.finalize.toString()}`)
    .digest('hex') === KNOWN_SOURCE;

/** pdfkit's `write`, keeping text as text: a non-binary chunk becomes `chunk + '\n'`, one byte per code unit. */
function write(this: PdfReference, chunk: unknown): void {
  const part = chunk instanceof Uint8Array ? chunk : `${chunk}\n`;
  this.uncompressedLength += part.length;
  if (this.data.Length == null) this.data.Length = 0;
  this.buffer.push(part);
  this.data.Length += part.length;
  if (this.compress) this.data.Filter = 'FlateDecode';
}

/** Turns each run of text into one Buffer (latin1, as pdfkit's 'binary'), then pdfkit's own `finalize`. */
function finalize(this: PdfReference): void {
  const chunks: Uint8Array[] = [];
  let text = '';
  for (const part of this.buffer) {
    if (typeof part === 'string') {
      text += part;
    } else {
      if (text) chunks.push(Buffer.from(text, 'latin1'));
      text = '';
      chunks.push(part);
    }
  }
  if (text) chunks.push(Buffer.from(text, 'latin1'));
  this.buffer = chunks;
  original.finalize.call(this);
}

/**
 * Turns the joined writing of content streams on (the PDF renderer does at load) or off (tests
 * compare both). Returns whether it is on: false when this pdfkit is not the one it was written
 * for, whatever was asked.
 */
export function setJoinedContentStreams(enabled: boolean): boolean {
  const on = enabled && compatible;
  proto.write = on ? write : original.write;
  proto.finalize = on ? finalize : original.finalize;
  return on;
}
