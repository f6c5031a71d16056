/**
 * The client features against the real API server (Fastify app on a fresh PostgreSQL database,
 * listening on a loopback port): what the pickers and /rapports send is what the server reads,
 * and what it answers is what the screens expect. Node's fetch; IndexedDB from fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../server/fixtures.ts';
import { seedChain } from '../server/fixtures.ts';
import { refreshDailyBreakdowns } from '../../src/server/db/aggregates.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type ClientCore, connectClient, disconnectClient } from './against-server.ts';

let t: TestApp;
let chain: Chain;
let userId: number;

// Loaded after the server listens: lib/http reads the API base when it is first imported.
type Modules = ClientCore & {
  load: typeof import('../../src/client/selection/load-reference-data.ts');
  ref: typeof import('../../src/client/selection/reference-queries.ts');
  scope: typeof import('../../src/client/selection/site-scope.ts');
  period: typeof import('../../src/client/selection/period.ts');
  request: typeof import('../../src/client/lib/report-request.ts');
  reports: typeof import('../../src/client/features/reports/report-queries.ts');
  home: typeof import('../../src/client/features/home/home-queries.ts');
};
let m: Modules;

beforeAll(async () => {
  t = await createTestApp();
  chain = await seedChain(t.database.pool);
  userId = await t.createUser({
    login: 'gerant',
    password: 'Comptoir-2026!',
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon],
    codeExploitant: 'EX1',
  });
  m = {
    ...(await connectClient(t)),
    load: await import('../../src/client/selection/load-reference-data.ts'),
    ref: await import('../../src/client/selection/reference-queries.ts'),
    scope: await import('../../src/client/selection/site-scope.ts'),
    period: await import('../../src/client/selection/period.ts'),
    request: await import('../../src/client/lib/report-request.ts'),
    reports: await import('../../src/client/features/reports/report-queries.ts'),
    home: await import('../../src/client/features/home/home-queries.ts'),
  };
  await m.session.signIn('gerant', 'Comptoir-2026!');
  await m.load.loadReferenceData();
});

afterAll(() => disconnectClient(t));

/** Parameters of a sales report over 1–2 March 2026 for the user's sites (none chosen = all). */
function salesParams(overrides: Partial<Parameters<Modules['request']['buildReportParams']>[0]> = {}) {
  const sites = m.queryClient.getQueryData(m.ref.referenceQueries.sites().queryKey) ?? [];
  const groups = m.queryClient.getQueryData(m.ref.referenceQueries.groups().queryKey) ?? [];
  const resolved = m.period.resolvePeriodChoice({ kind: 'custom', debut: '01/03/2026', fin: '02/03/2026' });
  if (!resolved.ok) throw new Error('period did not resolve');
  return m.request.buildReportParams({
    userId,
    className: 'RapportVentes',
    typeRapport: 'Daily',
    format: 'PDF',
    language: 'fr',
    range: resolved.range,
    siteIds: m.scope.effectiveSiteIds({ restaurantIds: [], groupId: null }, sites, groups),
    terminalKeys: [],
    sellerKeys: [],
    trancheHoraire: false,
    heureDebut: '12:00',
    heureFin: '23:00',
    ...overrides,
  });
}

describe('client features against the real server', () => {
  it('loads only the sites of the user scope, and none chosen stands for both', () => {
    const sites = m.queryClient.getQueryData(m.ref.referenceQueries.sites().queryKey) ?? [];
    expect(m.scope.visibleSites(sites).map((s) => s.libelle)).toEqual(['Lyon', 'Paris']);
    const terminals = m.queryClient.getQueryData(m.ref.referenceQueries.terminals().queryKey) ?? [];
    const paris = terminals.find((s) => s.restaurantId === chain.sites.paris);
    expect(paris?.caisses.map((c) => c.id).sort()).toEqual([1, 2]);
  });

  it('shows on screen the dataset of the sales report with the totals of both sites', async () => {
    const dataset = await m.queryClient.fetchQuery(m.reports.reportQueries.preview(salesParams()));
    expect(dataset.className).toBe('RapportVentes');
    expect(dataset.sites.map((s) => s.libelle).sort()).toEqual(['Lyon', 'Paris']);
    expect(dataset.totals.netSales).toBe(15000 + 30050 + 5000);
    expect(dataset.totals.tickets).toBe(35);
  });

  it('downloads the CSV with its file name and reports progress up to the end', async () => {
    const fractions: (number | null)[] = [];
    const { blob, filename } = await m.http.download('bo/getReport', salesParams({ format: 'CSV' }), (f) =>
      fractions.push(f),
    );
    expect(filename).toMatch(/\.csv$/);
    const text = await blob.text();
    expect(text).toContain('Paris');
    expect(text).toContain('Lyon');
    expect(fractions.at(-1)).toBe(1);
  });

  it('is understood by the server with terminals, sellers and an hour range chosen', async () => {
    const params = salesParams({
      terminalKeys: [`${chain.sites.paris}:1`],
      sellerKeys: [`${chain.sites.paris}:01`, `${chain.sites.lyon}:07`],
      trancheHoraire: true,
      heureDebut: '18:00',
      heureFin: '02:00',
    });
    const dataset = await m.queryClient.fetchQuery(m.reports.reportQueries.preview(params));
    expect(dataset.className).toBe('RapportVentes');
  });

  it('offers the sort columns and groupings the server reads, and gets the rows sorted and grouped', async () => {
    const choices = await m.queryClient.fetchQuery(
      m.reports.reportQueries.choices(userId, 'RapportVentes', 'fr'),
    );
    expect(choices.tris.map((c) => c.value)).toContain('netSales');
    expect(choices.regroupements.map((c) => c.value)).toContain('SITE');
    const sorted = await m.queryClient.fetchQuery(
      m.reports.reportQueries.preview(salesParams({ sortKey: 'netSales', sortDescending: true })),
    );
    const net = sorted.rows.map((r) => r.netSales as number);
    expect(net).toEqual([...net].sort((a, b) => b - a));
    const grouped = await m.queryClient.fetchQuery(
      m.reports.reportQueries.preview(salesParams({ groupBy: 'SITE' })),
    );
    expect(grouped.rows).toHaveLength(2);
    expect(grouped.totals.netSales).toBe(15000 + 30050 + 5000);
  });

  it('offers the families present in the period as filter values and keeps only the chosen one', async () => {
    // Two tickets with lines of two families at Paris on 1 March, and their per-day breakdowns
    // (the fixture's chain has daily totals only).
    const { pool } = t.database;
    const paris = chain.sites.paris;
    for (const [ticketId, family, cents] of [
      [9001, 'Boissons', 450],
      [9002, 'Plats', 1800],
    ] as const) {
      await pool.query(
        `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, total_cents, total_excl_cents, tax_cents, source, source_ref)
         VALUES ($1, $2, '2026-03-01', '2026-03-01T12:00:00+01:00', $3, $3, 0, 'test', $4)`,
        [paris, ticketId, cents, String(ticketId)],
      );
      await pool.query(
        `INSERT INTO ticket_lines (site_id, ticket_id, line_no, article, family, quantity, unit_price_cents, amount_cents,
                                   vat_rate, amount_excl_cents, tax_cents)
         VALUES ($1, $2, 1, 'Article', $3, 1, $4, $4, 0, $4, 0)`,
        [paris, ticketId, family, cents],
      );
    }
    await refreshDailyBreakdowns(pool, paris, '2026-03-01', '2026-03-01');
    const range = { dateDebut: '2026-03-01', dateFin: '2026-03-02' };
    const { groupements: families } = await m.queryClient.fetchQuery(
      m.reports.reportQueries.groupements(userId, 'RapportVentesFamille', 'FAMILLE', range, 'fr'),
    );
    expect(families.map((f) => f.value)).toEqual(['Boissons', 'Plats']);
    const kept = families[1]!;
    const all = await m.queryClient.fetchQuery(
      m.reports.reportQueries.preview(salesParams({ className: 'RapportVentesFamille' })),
    );
    const filtered = await m.queryClient.fetchQuery(
      m.reports.reportQueries.preview(
        salesParams({
          className: 'RapportVentesFamille',
          filter: { filtre: 'FAMILLE', values: [kept.value] },
        }),
      ),
    );
    expect(all.rows.map((r) => r.family).sort()).toEqual(['Boissons', 'Plats']);
    expect(filtered.rows.map((r) => r.family)).toEqual(['Plats']);
    expect(filtered.totals.netSales).toBe(1800);
  });

  it('gets the server refusal of a too long period as MaxReportDays with its maximum', async () => {
    const params = { ...salesParams(), dateDebut: '2020-01-01', dateFin: '2026-03-02' };
    const failure: unknown = await m.queryClient
      .fetchQuery(m.reports.reportQueries.preview(params))
      .catch((e: unknown) => e);
    if (!(failure instanceof m.http.ApiFailure))
      throw new Error(`expected an ApiFailure, got ${String(failure)}`);
    expect(failure.code).toBe('MaxReportDays');
    expect(failure.status).toBe(400);
    expect(typeof failure.details?.maxDays).toBe('number');
  });

  it('gets a refused download as a translated code too, not as a broken file', async () => {
    const params = { ...salesParams({ format: 'PDF' }), dateDebut: '2020-01-01', dateFin: '2026-03-02' };
    const failure: unknown = await m.http.download('bo/getReport', params, () => {}).catch((e: unknown) => e);
    if (!(failure instanceof m.http.ApiFailure))
      throw new Error(`expected an ApiFailure, got ${String(failure)}`);
    expect(failure.code).toBe('MaxReportDays');
  });

  it('reads yesterday and today on the home screen for the selected sites', async () => {
    const data = await m.queryClient.fetchQuery(
      m.home.homeQueries.sales({
        userId,
        siteIds: [chain.sites.paris, chain.sites.lyon],
        datePerso: '2026-03-02',
        exploitant: 'EX1',
      }),
    );
    expect(data.data.days).toEqual([
      { fiscalDate: '2026-03-01', tickets: 10, netSales: 15000, averageTicket: 1500, covers: 0 },
      { fiscalDate: '2026-03-02', tickets: 25, netSales: 35050, averageTicket: 1402, covers: 0 },
    ]);
  });
});
