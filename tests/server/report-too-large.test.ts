/**
 * A report of a streaming class (the tickets) read whole — JSON for the screen, PDF, or a
 * sorted CSV — stops at MAX_ROWS_READ_WHOLE rows (by format) with 400 ReportTooLarge and gives its
 * connection back, while the plain CSV of the same period streams every row. Real app, real
 * PostgreSQL, 50,001+ generated tickets.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ROWS_READ_WHOLE } from '../../src/server/reports/run.ts';
import { insertOneSite } from '../helpers/chain.ts';
import { setUpReportApp } from '../helpers/report-app.ts';

const TICKETS = MAX_ROWS_READ_WHOLE.JSON + 500;
const api = setUpReportApp({
  password: 'TooL4rge!-report',
  users: { gerant: { login: 'gerant', droits: ['RAPPORTS'], allSites: true } },
  load: async ({ pool }) => {
    await insertOneSite(pool, 'Grande SAS', 'Comptoir Gare du Nord');
    await pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                            training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
       SELECT 1, g, date '2026-11-01' + (g % 10)::int, timestamptz '2026-11-01 08:00+01' + (g % 10) * interval '1 day',
              1 + g % 3, 'V001', 'SALE', false, false, NULL, 500 + g % 700, 455 + g % 640, 45 + g % 60, 'test', g::text
         FROM generate_series(1, $1::int) g`,
      [TICKETS],
    );
    return {};
  },
  timeout: 120_000,
});

const url = (format: string, extra = '') =>
  `bo/getReport?id=${api.gerant.id}&rapportClassName=RapportTickets&format=${format}&language=de` +
  `&dateDebut=2026-11-01&dateFin=2026-11-10${extra}`;

describe('a report too large to read whole', () => {
  it.each([
    ['JSON', ''],
    ['PDF', ''],
    ['CSV sorted by amount', '&tri=amount:desc'],
  ])('answers 400 ReportTooLarge with the limit for %s', async (_name, extra) => {
    const format = _name.split(' ')[0]!;
    const res = await api.get(api.gerant.headers, url(format, extra));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'ReportTooLarge',
      details: { maxRows: MAX_ROWS_READ_WHOLE[format as 'PDF'] },
    });
    // The cursor's connection went back to the pool.
    const { pool } = api.t.database;
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('still streams as a plain CSV, every ticket', async () => {
    const res = await api.get(api.gerant.headers, url('CSV'));
    expect(res.statusCode).toBe(200);
    // Header, one line per ticket, totals, final CRLF.
    expect(res.body.split('\r\n').length).toBe(TICKETS + 3);
  });
});
