/**
 * How a report's edition (src/server/reports/editions.ts) is written: in the background of the
 * answer, in one statement whose commit alone skips the WAL flush — so the setting never leaks
 * into the pool's connections that later write fiscal data — and without failing a report that
 * was already computed when the write fails. Real app, real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { insertOneSite } from '../helpers/chain.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { editionsWritten } from '../../src/server/reports/editions.ts';

const api = setUpReportApp({
  password: 'Editi0ns!-written',
  users: { gerant: { login: 'gerant', droits: ['RAPPORTS'], allSites: true } },
  load: async ({ pool }) => {
    await insertOneSite(pool, 'Editions SAS', 'Comptoir Bastille');
    await pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                            training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
       VALUES (1, 1, '2026-11-02', '2026-11-02 12:30+01', 1, 'V001', 'SALE', false, false, 2, 2450, 2227, 223, 'test', '1')`,
    );
    return {};
  },
});

const report = (className = 'RapportTickets') =>
  api.get(
    api.gerant.headers,
    `bo/getReport?id=${api.gerant.id}&rapportClassName=${className}&format=JSON&language=fr&dateDebut=2026-11-01&dateFin=2026-11-03`,
  );

describe('report editions', () => {
  it('are in the history as soon as the report is answered (bo/getResultsData right after)', async () => {
    const res = await report();
    expect(res.statusCode, res.body).toBe(200);
    const state = await api.get(api.gerant.headers, `bo/getResultsData?id=${api.gerant.id}`);
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ className: 'RapportTickets' });
  });

  it('leave synchronous_commit on for every connection of the pool after the write', async () => {
    for (let i = 0; i < 5; i++) expect((await report()).statusCode).toBe(200);
    // The writes go on after the answers (editions.ts inBackground): let them land first.
    await editionsWritten();
    // Take every connection the pool has, so the one that wrote the editions is among them.
    const { pool } = api.t.database;
    const clients = await Promise.all(Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
        expect(rows[0]!.synchronous_commit).toBe('on');
      }
    } finally {
      for (const client of clients) client.release();
    }
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM report_editions WHERE user_id = $1 AND class_name = 'RapportTickets'`,
      [api.gerant.id],
    );
    expect(rows[0]!.n).toBe(6);
  });

  it('that cannot be written do not fail the report, and the history simply lacks them', async () => {
    const { pool } = api.t.database;
    await pool.query(`CREATE FUNCTION refuse_edition() RETURNS trigger LANGUAGE plpgsql AS
                        $$ BEGIN RAISE EXCEPTION 'editions refused by the test'; END $$`);
    await pool.query(
      'CREATE TRIGGER refuse_edition BEFORE INSERT ON report_editions FOR EACH ROW EXECUTE FUNCTION refuse_edition()',
    );
    try {
      const res = await report('RapportVentes');
      expect(res.statusCode, res.body).toBe(200);
      const state = await api.get(api.gerant.headers, `bo/getResultsData?id=${api.gerant.id}`);
      expect(state.statusCode, state.body).toBe(200);
      // Still the last edition that could be written.
      expect(state.json()).toMatchObject({ className: 'RapportTickets' });
    } finally {
      await pool.query('DROP TRIGGER refuse_edition ON report_editions');
    }
  });
});
