/**
 * Streamed CSV and XLSX (DESIGN.md §6 "Large outputs stream"): the tickets report read through
 * a cursor and written as it comes gives exactly the file the whole dataset gives, through the
 * renderers and through bo/getReport; an abandoned stream gives its connection back.
 */
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset, Language } from '../../src/contract/reports.ts';
import { CURSOR_BATCH } from '../../src/server/reports/dataset.ts';
import { renderCsv } from '../../src/server/reports/render/csv.ts';
import { renderReport } from '../../src/server/reports/render/index.ts';
import { isStreamed } from '../../src/server/reports/render/streamed.ts';
import { renderXlsx } from '../../src/server/reports/render/xlsx.ts';
import { type RawReportInput, resolveReport } from '../../src/server/reports/request.ts';
import { renderOptionsFor, runReport } from '../../src/server/reports/run.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { fxInput, loadFixture } from './operations/fixture.ts';

/** More tickets than two cursor batches on site 1, so the stream really comes in parts. */
const BULK = 2 * CURSOR_BATCH + 517;
const NOW = new Date('2026-11-21T10:00:00Z');

const PASSWORD = 'Flux-Stream-2026!';
let t: TestApp;
let database: TestApp['database'];

beforeAll(async () => {
  t = await createTestApp();
  database = t.database;
  await loadFixture(database);
  // Bulk tickets over the fixture's dates, each with one payment, numbered apart from the fixture's.
  await database.pool.query(
    `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                          training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
     SELECT 1, 1000000 + g, d, (d + time '09:00' + (g % 600) * interval '1 minute') AT TIME ZONE 'Europe/Paris',
            1 + g % 3, 'S' || (1 + g % 3), CASE WHEN g % 40 = 0 THEN 'CANCELLATION' ELSE 'SALE' END, false, false,
            NULL, 350 + (g * 7919) % 9000, 300 + (g * 7919) % 8000, 50 + g % 1000, 'bulk', 'B' || g
       FROM generate_series(0, $1::int - 1) g, LATERAL (SELECT DATE '2026-11-01' + g % 5 AS d) x`,
    [BULK],
  );
  await database.pool.query(
    `INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents)
     SELECT site_id, ticket_id, 1, (ARRAY['CASH', 'CARD', 'MEAL_VOUCHER'])[1 + ticket_id % 3], total_cents
       FROM tickets WHERE source = 'bulk'`,
  );
});
afterAll(async () => {
  await t?.close();
});

async function resolved(format: 'CSV' | 'XLSX' | 'JSON', overrides: Partial<RawReportInput> = {}) {
  return resolveReport({ ...fxInput('RapportTickets', overrides), format }, [1, 2, 3], database, {
    now: NOW,
  });
}

/** The whole dataset, read at once (the JSON path), for comparison. */
async function wholeDataset(language: Language): Promise<Dataset> {
  return runReport(await resolved('JSON', { language }), database);
}

async function idleConnectionsSettled(): Promise<void> {
  for (let i = 0; i < 50 && database.pool.idleCount < database.pool.totalCount; i++)
    await new Promise((r) => setTimeout(r, 20));
}

describe('Streamed CSV and XLSX', () => {
  for (const language of ['fr', 'en'] as const) {
    it(`writes the same CSV as the whole dataset, rows and totals, in ${language}`, async () => {
      const whole = await wholeDataset(language);
      expect(whole.rows.length).toBeGreaterThan(BULK);
      const report = await resolved('CSV', { language });
      const streamed = await runReport(report, database);
      expect(isStreamed(streamed)).toBe(true);
      // Only the first batch is in memory before the file is written.
      expect(streamed.rows).toHaveLength(CURSOR_BATCH);
      const body = await renderReport(streamed, 'CSV', renderOptionsFor(report, 'Comptoir'));
      expect(body.kind).toBe('stream');
      const csv = (await buffer(body.data as NodeJS.ReadableStream)).toString('utf8');
      const expected = (await buffer(renderCsv(whole, language))).toString('utf8');
      expect(csv).toBe(expected);
      expect(csv.split('\r\n').length).toBe(whole.rows.length + 3); // header, rows, totals, final CRLF
      await idleConnectionsSettled();
      expect(database.pool.idleCount).toBe(database.pool.totalCount);
    });
  }

  it('writes an XLSX with the same cells as the one built in memory', async () => {
    const whole = await wholeDataset('de');
    const report = await resolved('XLSX', { language: 'de' });
    const streamed = await runReport(report, database);
    const body = await renderReport(streamed, 'XLSX', renderOptionsFor(report, 'Comptoir'));
    expect(body.kind).toBe('stream');
    const read = async (data: Buffer) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(data as unknown as ArrayBuffer);
      const sheet = wb.worksheets[0]!;
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { name: sheet.name, rows, moneyFormat: sheet.getColumn(9).numFmt ?? sheet.getCell(2, 9).numFmt };
    };
    const got = await read(await buffer(body.data as NodeJS.ReadableStream));
    const want = await read(await renderXlsx(whole, renderOptionsFor(report, 'Comptoir')));
    expect(got.name).toBe(want.name);
    expect(got.rows).toHaveLength(whole.rows.length + 2 + 6); // + title, 4 heading lines, blank
    expect(got.rows).toEqual(want.rows);
    expect(got.moneyFormat).toBe(want.moneyFormat);
  });

  it('gives the connection back when the answer is abandoned halfway', async () => {
    const report = await resolved('CSV');
    const streamed = await runReport(report, database);
    const body = await renderReport(streamed, 'CSV', renderOptionsFor(report, 'Comptoir'));
    const data = body.data as NodeJS.ReadableStream & { destroy(): void };
    // Read a little, then walk away as a closed connection would.
    await new Promise<void>((resolve) => data.once('data', () => resolve()));
    data.destroy();
    await idleConnectionsSettled();
    expect(database.pool.idleCount).toBe(database.pool.totalCount);
  });

  it('streams through bo/getReport: the CSV download equals the whole dataset rendered', async () => {
    const id = await t.createUser({
      login: 'flux',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    const headers = await t.signIn('flux', PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getReport?id=${id}&rapportClassName=RapportTickets&format=CSV&language=fr&dateDebut=2026-11-01&dateFin=2026-11-05&sites[]=1&sites[]=2`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    const expected = (await buffer(renderCsv(await wholeDataset('fr'), 'fr'))).toString('utf8');
    expect(res.rawPayload.toString('utf8')).toBe(expected);
  });
});
