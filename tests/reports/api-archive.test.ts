/**
 * GET bo/getAllReportsSpecBK: every report class of one site and period as PDFs in one ZIP, the
 * left-out classes listed with their reason in a translated text file — read back with yauzl.
 * Under PDF saturation (decision record 0022) an archive is complete or refused as a whole.
 */
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/contract/errors.ts';
import {
  PDF_MAX_IN_FLIGHT,
  type PdfSlot,
  pdfPoolState,
  takePdfSlot,
} from '../../src/server/reports/render/pdf-pool.ts';
import { editionsWritten } from '../../src/server/reports/editions.ts';
import { REPORT_CLASSES } from '../../src/server/reports/registry.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { unzip } from '../helpers/unzip.ts';
import { LYON, MANAGER } from '../helpers/report-users.ts';
import { loadChain } from './chain.ts';
import { pdfText } from '../server/counting/pdf-text.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-archive',
  users: { manager: { ...MANAGER, language: 'en' }, lyon: LYON },
  load: async (database) => {
    await loadChain(database);
    return {};
  },
});

describe('GET bo/getAllReportsSpecBK', () => {
  it("answers a ZIP of the site's reports as PDFs in the user's language, with a README of those left out", async () => {
    const res = await api.t.app.inject({
      url: `/api/bo/getAllReportsSpecBK?id=${api.manager.id}&site=1&dateDebut=2026-11-01&dateFin=2026-11-10`,
      headers: api.manager.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="reports_1_2026-11-01_2026-11-10.zip"',
    );
    const entries = await unzip(res.rawPayload);
    const readme = entries.get('README.txt')?.toString('utf8');
    expect(readme).toContain('Reports of site Paris Opéra, from 01/11/2026 to 10/11/2026');
    const pdfs = [...entries.keys()].filter((n) => n.endsWith('.pdf'));
    // The chain has tickets but no lines, payments, losses or counts: the sales report and the
    // ticket-level ones are in, the others are left out as empty — every class accounted for.
    expect(pdfs).toContain('sales_2026-11-01_2026-11-10.pdf');
    const left = readme!.split('\r\n').filter((l) => l.startsWith('  - ') && !l.endsWith('.pdf'));
    expect(pdfs.length + left.length).toBe(REPORT_CLASSES.length);
    expect(left.some((l) => l.endsWith('no data for this site and period'))).toBe(true);
    for (const name of pdfs) expect(entries.get(name)!.subarray(0, 5).toString(), name).toBe('%PDF-');
    const sales = await pdfText(entries.get('sales_2026-11-01_2026-11-10.pdf')!);
    expect(sales).toContain('Paris Opéra');
    expect(sales).not.toContain('Lyon Part-Dieu');
  });

  it('records each PDF as an edition of the user, never as the report in state', async () => {
    const list = await api.t.app.inject({
      url: `/api/exports/list?id=${api.manager.id}&mine=true&limit=200`,
      headers: api.manager.headers,
    });
    const editions = list.json<{
      editions: Array<{ format: string; sites: Array<{ restaurantId: number }> }>;
    }>().editions;
    expect(editions.length).toBeGreaterThan(0);
    expect(
      editions.every((e) => e.format === 'PDF' && e.sites.length === 1 && e.sites[0]!.restaurantId === 1),
    ).toBe(true);
    const state = await api.t.app.inject({
      url: `/api/bo/getResultsData?id=${api.manager.id}`,
      headers: api.manager.headers,
    });
    expect(state.statusCode).toBe(409);
    expect(state.json()).toMatchObject({ code: 'NoReportInState' });
  });

  it('leaves out, naming their maximum, the classes whose maximum days the period exceeds (German README)', async () => {
    const res = await api.t.app.inject({
      url: `/api/bo/getAllReportsSpecBK?id=${api.lyon.id}&site=2&dateDebut=2026-10-01&dateFin=2026-11-30&language=de`,
      headers: api.lyon.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await unzip(res.rawPayload);
    const readme = entries.get('LIESMICH.txt')!.toString('utf8');
    expect(readme).toContain('Zeitraum zu lang (höchstens 31 Tage)');
    expect([...entries.keys()]).toContain('umsatz_2026-10-01_2026-11-30.pdf');
  });

  it('answers 400 MaxReportDays when the period exceeds every class, 403 for a site outside the scope', async () => {
    const long = await api.t.app.inject({
      url: `/api/bo/getAllReportsSpecBK?id=${api.manager.id}&site=1&dateDebut=2024-01-01&dateFin=2026-01-01`,
      headers: api.manager.headers,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'MaxReportDays' });
    const outside = await api.t.app.inject({
      url: `/api/bo/getAllReportsSpecBK?id=${api.lyon.id}&site=1&dateDebut=2026-11-01&dateFin=2026-11-10`,
      headers: api.lyon.headers,
    });
    expect(outside.statusCode).toBe(403);
    const bad = await api.t.app.inject({
      url: `/api/bo/getAllReportsSpecBK?id=${api.lyon.id}&site=2&dateDebut=2026-11-10&dateFin=2026-11-01`,
      headers: api.lyon.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BadRequest' });
  });
});

describe('GET bo/getAllReportsSpecBK under PDF saturation', () => {
  const archiveUrl = () =>
    `/api/bo/getAllReportsSpecBK?id=${api.manager.id}&site=1&dateDebut=2026-11-01&dateFin=2026-11-10`;
  const getArchive = () => api.t.app.inject({ url: archiveUrl(), headers: api.manager.headers });
  const editions = async () =>
    Number(
      (await api.t.database.pool.query<{ n: string }>('SELECT count(*) AS n FROM report_editions')).rows[0]!
        .n,
    );

  it('is complete when every other PDF slot is taken while it is written', async () => {
    const calm = await unzip((await getArchive()).rawPayload);
    const expected = [...calm.keys()].sort();
    expect(expected.filter((n) => n.endsWith('.pdf')).length).toBeGreaterThan(1);
    let done = false;
    const archive = getArchive().finally(() => {
      done = true;
    });
    // Once the archive is under way, keep every other slot taken until it is written, as a burst
    // of PDFs would: each slot given back is taken again at once.
    while (pdfPoolState().inFlight === 0) await new Promise((r) => setImmediate(r));
    const held: PdfSlot[] = [];
    let refusedMeanwhile = 0;
    try {
      while (!done) {
        while (pdfPoolState().inFlight < PDF_MAX_IN_FLIGHT) held.push(takePdfSlot());
        if (refusedMeanwhile === 0) {
          const other = await api.get(
            api.manager.headers,
            `bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&format=PDF&language=en` +
              '&dateDebut=2026-11-01&dateFin=2026-11-10&sites=1',
          );
          if (other.statusCode === 503) refusedMeanwhile++;
        }
        await new Promise((r) => setImmediate(r));
      }
      // The pool was saturated indeed: another PDF was refused while the archive was written.
      expect(refusedMeanwhile).toBe(1);
      const res = await archive;
      expect(res.statusCode).toBe(200);
      const entries = await unzip(res.rawPayload);
      expect(entries.get('README.txt')!.toString('utf8')).not.toContain('ServerBusy');
      expect([...entries.keys()].sort()).toEqual(expected);
      for (const [name, pdf] of entries) {
        if (name.endsWith('.pdf')) expect(pdf.subarray(-8).toString('latin1'), name).toContain('%%EOF');
      }
    } finally {
      for (const slot of held) slot.release();
    }
    expect(pdfPoolState()).toEqual({ inFlight: 0, queued: 0 });
  });

  it('is refused as a whole, 503 ServerBusy with Retry-After and no edition, when no slot is free', async () => {
    const held: PdfSlot[] = Array.from({ length: PDF_MAX_IN_FLIGHT }, () => takePdfSlot());
    try {
      await editionsWritten();
      const before = await editions();
      const res = await getArchive();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const seconds = Number(res.headers['retry-after']);
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 30, String(seconds)).toBe(true);
      expect(ApiErrorSchema.strict().parse(res.json())).toEqual({
        code: 'ServerBusy',
        message: expect.any(String),
        details: { retryAfterSeconds: seconds },
      });
      await editionsWritten();
      expect(await editions()).toBe(before);
    } finally {
      for (const slot of held) slot.release();
    }
    expect(pdfPoolState().inFlight).toBe(0);
    expect((await getArchive()).statusCode).toBe(200);
  });
});
