/**
 * Widths of text in the PDF's Roboto, read from the very font files pdfmake embeds, for the
 * renderer's plan of the table (render/pdf.ts): whether every short column can keep its text on
 * one line. A sum of glyph advances, no shaping: pdfmake's own measure stays the one that lays
 * out. Roboto's kerning moves a text by less than 0.2 % of its width; callers keep a margin.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The part of a fontkit font read here. */
interface FontkitFont {
  unitsPerEm: number;
  glyphForCodePoint(codePoint: number): { advanceWidth: number };
}

const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake/package.json'));
// fontkit as pdfkit (pdfmake's writer) loads it: the same parser of the same files.
const fontkit = createRequire(requireFromPdfmake.resolve('pdfkit/package.json'))('fontkit') as {
  openSync(file: string): FontkitFont;
};

/** pdfmake's Roboto folder (its fonts are the only files the renderer may read). */
export const ROBOTO_DIR = path.join(
  path.dirname(requireFromPdfmake.resolve('pdfmake/package.json')),
  'fonts',
  'Roboto',
);

/** The PDF's two weights: `normal` for cells, `bold` (Roboto Medium) for headers and totals. */
export const ROBOTO_FILES = {
  normal: path.join(ROBOTO_DIR, 'Roboto-Regular.ttf'),
  bold: path.join(ROBOTO_DIR, 'Roboto-Medium.ttf'),
  italics: path.join(ROBOTO_DIR, 'Roboto-Italic.ttf'),
  bolditalics: path.join(ROBOTO_DIR, 'Roboto-MediumItalic.ttf'),
} as const;

interface Advances {
  font: FontkitFont;
  /** Advance of each character already seen, in em. */
  em: Map<string, number>;
}

let loaded: { normal: Advances; bold: Advances } | null = null;

function advances(): { normal: Advances; bold: Advances } {
  loaded ??= {
    normal: { font: fontkit.openSync(ROBOTO_FILES.normal), em: new Map() },
    bold: { font: fontkit.openSync(ROBOTO_FILES.bold), em: new Map() },
  };
  return loaded;
}

/**
 * Width of `text` on one line, in points at `fontSize` points: the sum of its characters'
 * advances in Roboto Regular, or Roboto Medium when `bold`. A character the font lacks counts
 * as the font's missing-glyph box, as pdfkit draws it.
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  const { font, em } = bold ? advances().bold : advances().normal;
  let width = 0;
  for (const char of text) {
    let advance = em.get(char);
    if (advance === undefined) {
      advance = font.glyphForCodePoint(char.codePointAt(0)!).advanceWidth / font.unitsPerEm;
      em.set(char, advance);
    }
    width += advance;
  }
  return width * fontSize;
}
