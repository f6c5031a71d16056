/**
 * Bounded PDF work (issue #17 "Proof that stays", load bench bullet; decision record 0022): more
 * PDFs at once than the pool's slots get 503 ServerBusy with Retry-After in SPEC.md §8's shape,
 * the others valid PDFs; nothing stays queued afterwards and the next PDF is served. Real app,
 * real PostgreSQL, real worker threads.
 */
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/contract/errors.ts';
import {
  PDF_MAX_IN_FLIGHT,
  PdfBusyError,
  type PdfSlot,
  pdfPoolState,
  takePdfSlot,
} from '../../src/server/reports/render/pdf-pool.ts';
import { insertOneSite } from '../helpers/chain.ts';
import { setUpReportApp } from '../helpers/report-app.ts';

const api = setUpReportApp({
  password: 'Bus7-pdf-pool!',
  users: { gerant: { login: 'gerant', droits: ['RAPPORTS'], allSites: true } },
  load: async ({ pool }) => {
    await insertOneSite(pool, 'Chargée SAS', 'Comptoir Bellecour');
    await pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                            training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
       SELECT 1, g, date '2026-11-01' + (g % 10)::int, timestamptz '2026-11-01 08:00+01' + (g % 10) * interval '1 day',
              1 + g % 3, 'V001', 'SALE', false, false, NULL, 500 + g % 700, 455 + g % 640, 45 + g % 60, 'test', g::text
         FROM generate_series(1, 300) g`,
    );
    return {};
  },
});

const url = (format: string) =>
  `bo/getReport?id=${api.gerant.id}&rapportClassName=RapportTickets&format=${format}&language=fr` +
  `&dateDebut=2026-11-01&dateFin=2026-11-10`;

/** The answer is a whole PDF document. */
function expectPdf(res: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(res.rawPayload.subarray(-8).toString('latin1')).toContain('%%EOF');
}

describe('PDF work under saturation', () => {
  it('answers 503 ServerBusy with Retry-After beyond the slots, valid PDFs within them', async () => {
    const burst = 3 * PDF_MAX_IN_FLIGHT;
    const [csv, ...answers] = await Promise.all([
      api.get(api.gerant.headers, url('CSV')),
      ...Array.from({ length: burst }, () => api.get(api.gerant.headers, url('PDF'))),
    ]);
    const served = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 503);
    expect(served.length + refused.length, answers.map((r) => r.statusCode).join(' ')).toBe(burst);
    // The first worker takes about a second to start: every slot is taken long before any is free.
    expect(served.length).toBeGreaterThanOrEqual(PDF_MAX_IN_FLIGHT);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of served) expectPdf(res);
    for (const res of refused) {
      const seconds = Number(res.headers['retry-after']);
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 30, String(seconds)).toBe(true);
      const body = ApiErrorSchema.strict().parse(res.json());
      expect(body).toEqual({
        code: 'ServerBusy',
        message: expect.any(String),
        details: { retryAfterSeconds: seconds },
      });
    }
    // A CSV streams outside the PDF slots: served whatever the PDFs' load.
    expect(csv!.statusCode).toBe(200);
    expect(csv!.headers['content-type']).toMatch(/^text\/csv/);
    // Nothing left under way or queued, and the pool serves the next PDF.
    expect(pdfPoolState()).toEqual({ inFlight: 0, queued: 0 });
    expectPdf(await api.get(api.gerant.headers, url('PDF')));
    expect(pdfPoolState()).toEqual({ inFlight: 0, queued: 0 });
  });

  it('records no edition for a refused PDF', async () => {
    const { pool } = api.t.database;
    const count = async () =>
      Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM report_editions')).rows[0]!.n);
    const slots: PdfSlot[] = Array.from({ length: PDF_MAX_IN_FLIGHT }, () => takePdfSlot());
    try {
      // Editions are written in batches after the answer: wait until the earlier ones have landed.
      let before = -1;
      for (let now = await count(); now !== before; now = await count()) {
        before = now;
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(before).toBeGreaterThan(0);
      const res = await api.get(api.gerant.headers, url('PDF'));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'ServerBusy' });
      await new Promise((r) => setTimeout(r, 500));
      expect(await count()).toBe(before);
    } finally {
      for (const slot of slots) slot.release();
    }
    expectPdf(await api.get(api.gerant.headers, url('PDF')));
  });

  it('gives a slot back once only, and refuses with a bounded Retry-After when all are taken', () => {
    const slots: PdfSlot[] = Array.from({ length: PDF_MAX_IN_FLIGHT }, () => takePdfSlot());
    try {
      expect(pdfPoolState().inFlight).toBe(PDF_MAX_IN_FLIGHT);
      let refusal: unknown = null;
      try {
        takePdfSlot();
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(PdfBusyError);
      const seconds = (refusal as PdfBusyError).retryAfterSeconds;
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(30);
      slots[0]!.release();
      slots[0]!.release();
      expect(pdfPoolState().inFlight).toBe(PDF_MAX_IN_FLIGHT - 1);
      slots[0] = takePdfSlot();
    } finally {
      for (const slot of slots) slot.release();
    }
    expect(pdfPoolState().inFlight).toBe(0);
  });
});
