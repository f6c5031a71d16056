/**
 * A favourite keeps the sort and the family filter of /rapports, end to end: the client's own
 * code saves the selection (bo/favoris/save), reads it back (bo/favoris), applies it, and builds
 * bo/getReport from what was applied, against the real API server on a small demo chain. A family
 * the period does not have stays in the favourite and the report finds nothing for it, instead of
 * widening to every family.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupementsAnswerSchema, ResultsChoicesAnswerSchema } from '../../src/contract/exports.ts';
import { type Dataset, DatasetAnswerSchema } from '../../src/contract/reports.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import type { ReportShaping } from '../../src/client/selection/selection-state.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type ClientCore, connectClient, disconnectClient } from './against-server.ts';
import { shapedReportInput } from './favourite-fixtures.ts';

const CLASS = 'RapportVentesFamille';
/** A family no demo site sells. */
const GONE = 'Famille retirée de la carte';

let t: TestApp;
let siteIds: number[];
let dates: { from: string; to: string };

type Modules = ClientCore & {
  queries: typeof import('../../src/client/features/favourites/favourite-queries.ts');
  mapping: typeof import('../../src/client/features/favourites/favourite-selection.ts');
  request: typeof import('../../src/client/lib/report-request.ts');
};
let m: Modules;

beforeAll(async () => {
  t = await createTestApp();
  await generateDemoChain(t.database.pool, { seed: 4, now: new Date('2026-10-14T21:30:00Z'), days: 3 });
  siteIds = (await t.database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id')).rows.map(
    (r) => r.id,
  );
  const span = await t.database.pool.query<{ from: string; to: string }>(
    'SELECT min(fiscal_date)::text AS from, max(fiscal_date)::text AS to FROM tickets',
  );
  dates = span.rows[0]!;
  await t.createUser({ login: 'gerant', password: 'Comptoir-2026!', droits: ['RAPPORTS'], allSites: true });
  m = {
    ...(await connectClient(t)),
    queries: await import('../../src/client/features/favourites/favourite-queries.ts'),
    mapping: await import('../../src/client/features/favourites/favourite-selection.ts'),
    request: await import('../../src/client/lib/report-request.ts'),
  };
  await m.session.signIn('gerant', 'Comptoir-2026!');
}, 120_000);

afterAll(() => disconnectClient(t));

/** Saves the selection with `shaping` as a favourite, reads it back from the list and applies it. */
async function roundTrip(shaping: ReportShaping, libelle: string) {
  const report = {
    className: CLASS,
    localisedTitle: 'Ventes par famille',
    typeRapport: 'Daily' as const,
    format: 'PDF' as const,
  };
  const built = m.mapping.favouriteFromSelection(
    {
      restaurantIds: [],
      groupId: null,
      terminals: [],
      sellers: [],
      period: { kind: 'custom', debut: display(dates.from), fin: display(dates.to) },
      trancheHoraire: false,
      heureDebut: '12:00',
      heureFin: '23:00',
      report: { className: CLASS, typeRapport: 'Daily', format: 'PDF' },
      shaping,
    },
    report,
    libelle,
  );
  if (!built.ok) throw new Error(built.messageId);
  const saved = await m.queries.saveFavourite(built.body);
  await m.queryClient.invalidateQueries({ queryKey: m.queries.favouriteQueries.all() });
  const list = await m.queryClient.fetchQuery(m.queries.favouriteQueries.list(m.session.session.user!.id));
  const listed = list.favoris.find((f) => f.id === saved.id);
  if (!listed) throw new Error('saved favourite not listed');
  const applied = m.mapping.selectionFromFavourite(listed, siteIds, []);
  if (!applied.ok) throw new Error(applied.code);
  return { favourite: listed, selection: applied.selection };
}

function display(wire: string): string {
  const [y, mo, d] = wire.split('-');
  return `${d}/${mo}/${y}`;
}

/** bo/getReport (JSON) as /rapports builds it from `shaping`. */
function runReport(shaping: ReportShaping): Promise<Dataset> {
  const params = m.request.buildReportParams(
    shapedReportInput(shaping, {
      userId: m.session.session.user!.id,
      className: CLASS,
      range: { dateDebut: dates.from, dateFin: dates.to },
      siteIds,
    }),
  );
  return m.http.getJson('bo/getReport', DatasetAnswerSchema, params);
}

describe('a favourite with the sort and filter of the reports screen', () => {
  it('comes back as the same sort and filter, which the server accepts and applies', async () => {
    const userId = m.session.session.user!.id;
    const choices = await m.http.getJson('bo/getResultsChoices', ResultsChoicesAnswerSchema, {
      id: userId,
      RapportGeneralClassName: CLASS,
      language: 'fr',
    });
    expect(choices.tris.map((c) => c.value)).toContain('netSales');
    expect(choices.filtres.map((c) => c.value)).toContain('FAMILLE');
    const present = await m.http.getJson('bo/getGroupements', GroupementsAnswerSchema, {
      id: userId,
      rapportGeneralClassName: CLASS,
      filtre: 'FAMILLE',
      dateDebut: dates.from,
      dateFin: dates.to,
      language: 'fr',
    });
    const kept = present.groupements.slice(0, 2).map((g) => g.value);
    expect(kept).toHaveLength(2);

    const shaping: ReportShaping = {
      className: CLASS,
      sortKey: 'netSales',
      descending: true,
      groupBy: null,
      filtre: 'FAMILLE',
      filterValues: [...kept, GONE],
    };
    const { favourite, selection } = await roundTrip(shaping, 'Deux familles par CA');
    expect(favourite).toMatchObject({
      tri: 'netSales:desc',
      isFilters: true,
      filtre: 'FAMILLE',
      condition: [...kept, GONE],
    });
    expect(selection.shaping).toEqual(shaping);

    const dataset = await runReport(selection.shaping);
    expect(dataset.rows.length).toBeGreaterThan(0);
    expect(new Set(dataset.rows.map((r) => r.family))).toEqual(new Set(kept));
    const sales = dataset.rows.map((r) => Number(r.netSales));
    expect(sales).toEqual([...sales].sort((a, b) => b - a));
    // The family the period lacks changes nothing for the others.
    const withoutGone = await runReport({ ...selection.shaping, filterValues: kept });
    expect({ rows: withoutGone.rows, totals: withoutGone.totals }).toEqual({
      rows: dataset.rows,
      totals: dataset.totals,
    });
  });

  it('keeps a family the period does not have: the report then finds nothing, not every family', async () => {
    const shaping: ReportShaping = {
      className: CLASS,
      sortKey: null,
      descending: false,
      groupBy: null,
      filtre: 'FAMILLE',
      filterValues: [GONE],
    };
    const { selection } = await roundTrip(shaping, 'Famille retirée');
    expect(selection.shaping.filterValues).toEqual([GONE]);
    const dataset = await runReport(selection.shaping);
    expect(dataset.rows).toEqual([]);
    const unfiltered = await runReport({ ...selection.shaping, filtre: null, filterValues: [] });
    expect(unfiltered.rows.length).toBeGreaterThan(0);
  });
});
