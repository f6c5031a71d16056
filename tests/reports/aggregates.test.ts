/**
 * The per-day aggregates (aggregates.ts, schema-aggregates.ts) against the tickets they sum up:
 * on ten days of the generated demo chain (staff meals at no charge, corrected lines,
 * cancellations with negative covers and payments, split payments, a late bar whose day starts
 * at 05:00, training tickets on the 1st), every report family that reads the aggregates answers
 * exactly the dataset its tickets query answers, and a refresh keeps the aggregates in step with
 * tickets added, removed or loaded twice.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { BREAKDOWN_TABLES, refreshDailySales } from '../../src/server/db/aggregates.ts';
import {
  readsAggregates,
  readsHourAggregates,
  withRawReads,
} from '../../src/server/reports/aggregate-reads.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { type RawReportInput, resolveReport } from '../../src/server/reports/request.ts';
import { runReport } from '../../src/server/reports/run.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { input } from './sales-analyses/chain.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sites: number[];
let from: string;
let to: string;

/** Every class reading the aggregates, with the variants it has. */
const FAMILIES: Array<[string, 'Daily' | 'Cumulative']> = [
  ['RapportVentes', 'Daily'],
  ['RapportVentesHoraire', 'Daily'],
  ['RapportVentesTranche', 'Daily'],
  ['RapportVentesFamille', 'Daily'],
  ['RapportVentesCaisse', 'Daily'],
  ['RapportVentesVendeur', 'Daily'],
  ['RapportVentesPaiement', 'Daily'],
  ['RapportVentesTva', 'Daily'],
  ['RapportVentesCouverts', 'Daily'],
  ['RapportVentesComparaison', 'Daily'],
  ['RapportVentesComparaison', 'Cumulative'],
  ['RapportFinance', 'Daily'],
  ['RapportTva', 'Daily'],
  ['RapportZ', 'Daily'],
  ['RapportAnnulations', 'Daily'],
  ['RapportCorrections', 'Daily'],
];

const BREAKDOWNS = ['daily_sales', ...BREAKDOWN_TABLES];

beforeAll(async () => {
  database = await createTestDatabase();
  // 2026-10-24..2026-11-02: two weekends, the 1st of the month (training tickets).
  await generateDemoChain(database.pool, { seed: 11, now: new Date('2026-11-02T22:30:00Z'), days: 10 });
  sites = (await database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id')).rows.map(
    (r) => r.id,
  );
  const range = await database.pool.query<{ from: string; to: string }>(
    'SELECT min(fiscal_date)::text AS from, max(fiscal_date)::text AS to FROM tickets',
  );
  ({ from, to } = range.rows[0]!);
});
afterAll(async () => {
  await database?.close();
});

async function bothPaths(
  className: string,
  overrides: Partial<RawReportInput> = {},
): Promise<{ aggregated: Dataset; raw: Dataset }> {
  const resolved = await resolveReport(
    input(className, { sites, dateDebut: from, dateFin: to, ...overrides }),
    sites,
    database,
  );
  expect(readsAggregates(resolved.request)).toBe(true);
  const aggregated = await runReport(resolved, database);
  const raw = await withRawReads(() => runReport(resolved, database));
  return { aggregated, raw };
}

/** Every aggregate table's rows, in key order, as text (so numeric and bigint compare exactly). */
async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of BREAKDOWNS) {
    const { rows } = await database.pool.query<{ r: string }>(
      `SELECT t::text AS r FROM ${table} t ORDER BY 1`,
    );
    out[table] = rows.map((x) => x.r);
  }
  return out;
}

describe('report families read from the per-day aggregates', () => {
  it('covers a chain with the cases the figures must count right', async () => {
    const { rows } = await database.pool.query<{ training: number; corrected: number; cancelled: number }>(
      `SELECT (SELECT count(*) FROM tickets WHERE training_mode)::int AS training,
              (SELECT count(*) FROM ticket_lines WHERE corrected)::int AS corrected,
              (SELECT count(*) FROM tickets WHERE kind = 'CANCELLATION' AND covers < 0)::int AS cancelled`,
    );
    expect(rows[0]!.training).toBeGreaterThan(0);
    expect(rows[0]!.corrected).toBeGreaterThan(0);
    expect(rows[0]!.cancelled).toBeGreaterThan(0);
    expect(from).toBe('2026-10-24');
  });

  for (const [className, variant] of FAMILIES) {
    it(`answers ${className} (${variant}) exactly as its tickets query does`, async () => {
      const { aggregated, raw } = await bothPaths(className, { typeRapport: variant });
      expect(aggregated.rows.length).toBeGreaterThan(0);
      expect(aggregated).toEqual(raw);
    });
  }

  it('answers a list of fiscal dates (datefiscales[]) exactly as the tickets do', async () => {
    const datefiscales = [from, '2026-10-27', '2026-11-01'];
    for (const [className, variant] of FAMILIES) {
      const { aggregated, raw } = await bothPaths(className, { typeRapport: variant, datefiscales });
      expect(aggregated, className).toEqual(raw);
    }
  });

  it('answers a single site exactly as the tickets do', async () => {
    for (const [className, variant] of FAMILIES) {
      const { aggregated, raw } = await bothPaths(className, { typeRapport: variant, sites: [sites[1]!] });
      expect(aggregated, className).toEqual(raw);
    }
  });

  it('answers an hour range on whole hours from the per-hour aggregate, as the tickets do', async () => {
    for (const [heureDebut, heureFin] of [
      ['12:00', '23:00'],
      ['22:00', '03:00'],
      ['07:00', '07:00'],
    ]) {
      for (const className of [
        'RapportVentes',
        'RapportVentesHoraire',
        'RapportVentesTranche',
        'RapportVentesComparaison',
      ]) {
        const resolved = await resolveReport(
          input(className, {
            sites,
            dateDebut: from,
            dateFin: to,
            trancheHoraire: true,
            heureDebut,
            heureFin,
          }),
          sites,
          database,
        );
        expect(readsHourAggregates(resolved.request)).toBe(true);
        const aggregated = await runReport(resolved, database);
        const raw = await withRawReads(() => runReport(resolved, database));
        expect(aggregated.rows.length, `${className} ${heureDebut}–${heureFin}`).toBeGreaterThan(0);
        expect(aggregated, `${className} ${heureDebut}–${heureFin}`).toEqual(raw);
      }
    }
    const halfHour = await resolveReport(
      input('RapportVentes', {
        sites,
        dateDebut: from,
        dateFin: to,
        trancheHoraire: true,
        heureDebut: '11:30',
        heureFin: '14:00',
      }),
      sites,
      database,
    );
    expect(readsHourAggregates(halfHour.request)).toBe(false);
  });

  it('keeps the tickets path when a filter goes below the day', async () => {
    for (const overrides of [
      { tpv: [1] },
      { vendeurs: ['V01'] },
      { trainingMode: true },
      { trancheHoraire: true },
    ]) {
      const resolved = await resolveReport(
        input('RapportVentesFamille', { sites, dateDebut: from, dateFin: to, ...overrides }),
        sites,
        database,
      );
      expect(readsAggregates(resolved.request)).toBe(false);
    }
  });
});

describe('refreshDailySales keeps the aggregates in step with the tickets', () => {
  it('leaves the same rows when run again on unchanged tickets (a re-import)', async () => {
    const before = await snapshot();
    for (const site of sites) await refreshDailySales(database.pool, site, from, to);
    expect(await snapshot()).toEqual(before);
  });

  it('gave a database of sales loaded before daily_corrections existed the rows a refresh gives', async () => {
    const before = (await snapshot()).daily_corrections!;
    expect(before.length).toBeGreaterThan(0);
    const migration = await fs.readFile(
      new URL('../../src/server/db/migrations/0008_daily_corrections.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').find((s) => s.includes('INSERT INTO'));
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM daily_corrections');
      await client.query(backfill!);
      const { rows } = await client.query<{ r: string }>(
        'SELECT t::text AS r FROM daily_corrections t ORDER BY 1',
      );
      expect(rows.map((x) => x.r)).toEqual(before);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('counts tickets without terminal, seller or family, and drops a day left without tickets', async () => {
    const site = sites[0]!;
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      // A ticket of unknown terminal and seller whose only line has no family.
      await client.query(
        `UPDATE tickets SET terminal_id = NULL, seller_code = NULL
          WHERE site_id = $1 AND ticket_id = (SELECT min(ticket_id) FROM tickets WHERE site_id = $1 AND fiscal_date = $2 AND kind = 'SALE')`,
        [site, to],
      );
      await client.query(
        `UPDATE ticket_lines SET family = NULL
          WHERE site_id = $1 AND ticket_id = (SELECT min(ticket_id) FROM tickets WHERE site_id = $1 AND fiscal_date = $2 AND kind = 'SALE')`,
        [site, to],
      );
      // The first day of the site emptied.
      for (const table of ['ticket_lines', 'payments']) {
        await client.query(
          `DELETE FROM ${table} x USING tickets t
            WHERE x.site_id = t.site_id AND x.ticket_id = t.ticket_id AND t.site_id = $1 AND t.fiscal_date = $2`,
          [site, from],
        );
      }
      await client.query('DELETE FROM tickets WHERE site_id = $1 AND fiscal_date = $2', [site, from]);
      await refreshDailySales(client, site, from, to);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    for (const table of BREAKDOWNS) {
      const { rows } = await database.pool.query(
        `SELECT 1 FROM ${table} WHERE site_id = $1 AND fiscal_date = $2`,
        [site, from],
      );
      expect(rows, table).toEqual([]);
    }
    const nulls = await database.pool.query<{ t: number; s: number; f: number }>(
      `SELECT (SELECT count(*) FROM daily_terminal_sales WHERE site_id = $1 AND terminal_id IS NULL)::int AS t,
              (SELECT count(*) FROM daily_seller_sales WHERE site_id = $1 AND seller_code IS NULL)::int AS s,
              (SELECT count(*) FROM daily_family_sales
                WHERE site_id = $1 AND family IS NULL AND fiscal_date = $2)::int AS f`,
      // The demo's discount lines have no family either (demo/anomalies.ts), on many days: the
      // family check looks at the edited day only.
      [site, to],
    );
    expect(nulls.rows[0]).toEqual({ t: 1, s: 1, f: 1 });
    for (const [className, variant] of FAMILIES) {
      const { aggregated, raw } = await bothPaths(className, { typeRapport: variant });
      expect(aggregated, className).toEqual(raw);
    }
  });
});
