/**
 * Reads back the text of an UNCOMPRESSED PDF written by pdfmake/pdfkit (renderPdf with
 * `compress = false`), for tests only: pages in order, each page's shown text decoded through
 * its fonts' ToUnicode maps. It understands exactly what pdfkit writes (one content stream per
 * page, Type0 fonts with a ToUnicode CMap of `bfrange` arrays / `bfchar` entries, text shown by
 * `TJ`/`Tj` with hex strings), which is all these tests need; no general PDF parser.
 */

function objects(pdf: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const m of pdf.matchAll(/(\d+) 0 obj\s*([\s\S]*?)\nendobj/g)) map.set(Number(m[1]), m[2]!);
  return map;
}

function streamOf(body: string): string {
  const start = body.indexOf('stream\n');
  const end = body.lastIndexOf('\nendstream');
  if (start < 0 || end < 0) throw new Error('object has no stream');
  return body.slice(start + 'stream\n'.length, end);
}

/** UTF-16BE hex (spaces allowed) → string. */
function utf16(hex: string): string {
  const clean = hex.replace(/\s/g, '');
  const units: number[] = [];
  for (let i = 0; i < clean.length; i += 4) units.push(Number.parseInt(clean.slice(i, i + 4), 16));
  return String.fromCharCode(...units);
}

function parseCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfrange\s*([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F ]+>)/g,
    )) {
      const from = Number.parseInt(m[1]!, 16);
      const to = Number.parseInt(m[2]!, 16);
      if (m[3]!.startsWith('[')) {
        const targets = [...m[3]!.matchAll(/<([0-9a-fA-F ]+)>/g)].map((t) => utf16(t[1]!));
        for (let c = from; c <= to; c++) map.set(c, targets[c - from] ?? '');
      } else {
        const base = utf16(m[3]!.slice(1, -1));
        for (let c = from; c <= to; c++) map.set(c, String.fromCharCode(base.charCodeAt(0) + (c - from)));
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar\s*([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F ]+)>/g)) {
      map.set(Number.parseInt(m[1]!, 16), utf16(m[2]!));
    }
  }
  return map;
}

function ref(body: string, key: string): number | undefined {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(body);
  return m ? Number(m[1]) : undefined;
}

/**
 * The text of each page of `pdf`, in page order. Text-showing operators are separated by a
 * space; a kerning gap wider than a third of an em inside a `TJ` array counts as a space; runs
 * of white space (no-break ones included) read as one space.
 * @throws Error when the PDF is compressed or not shaped as pdfkit writes it.
 */
export function pdfPagesText(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  if (text.includes('/FlateDecode')) throw new Error('render the PDF with compress = false');
  const objs = objects(text);
  const pagesObj = [...objs.values()].find((b) => /\/Type \/Pages\b/.test(b));
  if (!pagesObj) throw new Error('no /Pages object');
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(pagesObj)![1]!.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  const cmaps = new Map<number, Map<number, string>>();
  const cmapOfFont = (fontId: number) => {
    let cmap = cmaps.get(fontId);
    if (!cmap) {
      const toUnicode = ref(objs.get(fontId)!, 'ToUnicode');
      cmap = toUnicode === undefined ? new Map() : parseCmap(streamOf(objs.get(toUnicode)!));
      cmaps.set(fontId, cmap);
    }
    return cmap;
  };
  return kids.map((pageId) => {
    const page = objs.get(pageId)!;
    const resourcesId = ref(page, 'Resources');
    const resources = resourcesId === undefined ? page : objs.get(resourcesId)!;
    const fontDict = /\/Font <<([\s\S]*?)>>/.exec(resources)?.[1] ?? '';
    const fonts = new Map([...fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)].map((m) => [m[1]!, Number(m[2])]));
    const content = streamOf(objs.get(ref(page, 'Contents')!)!);
    const chunks: string[] = [];
    let cmap = new Map<number, string>();
    for (const m of content.matchAll(/\/(\w+) [\d.]+ Tf|(\[[^\]]*\]) TJ|<([0-9a-fA-F]*)> Tj/g)) {
      if (m[1]) {
        cmap = cmapOfFont(fonts.get(m[1])!);
        continue;
      }
      const parts = m[2]
        ? [...m[2].matchAll(/<([0-9a-fA-F]*)>|(-?[\d.]+)/g)]
        : [[m[0], m[3], undefined] as const];
      let chunk = '';
      for (const p of parts) {
        if (p[1] !== undefined) {
          for (let i = 0; i < p[1].length; i += 4)
            chunk += cmap.get(Number.parseInt(p[1].slice(i, i + 4), 16)) ?? '\ufffd';
        } else if (p[2] !== undefined && Number(p[2]) < -333) {
          chunk += ' ';
        }
      }
      chunks.push(chunk);
    }
    return chunks
      .join(' ')
      .replace(/[\s\u00a0\u202f]+/g, ' ')
      .trim();
  });
}
