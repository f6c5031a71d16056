/**
 * The Graph variant (issue #4: "the Graph variant puts a chart in the PDF"): the chart drawn
 * from the dataset (src/contract/report-chart.ts) sits above the table in the PDF, with its axis
 * titles and ticks as text, and the table is still there; the sales families offer Graph; a
 * Daily PDF has no chart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportChart } from '../../src/contract/report-chart.ts';
import type { Dataset } from '../../src/contract/reports.ts';
import { renderPdf } from '../../src/server/reports/render/pdf.ts';
import { closePdfPool, renderPdfInWorker } from '../../src/server/reports/render/pdf-pool.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { FR_RENDER_OPTIONS as OPTIONS, salesReport } from '../helpers/report-datasets.ts';
import { loadChain } from './chain.ts';
import { pdfPagesText } from './pdf-text.ts';

/** Ten days of two sites: the chart sums both sites per day. */
function salesByDay(variant: Dataset['variant']): Dataset {
  const rows = Array.from({ length: 20 }, (_, i) => ({
    fiscalDate: `2026-11-${String(1 + Math.floor(i / 2)).padStart(2, '0')}`,
    siteId: 1 + (i % 2),
    site: `Site ${1 + (i % 2)}`,
    tickets: 100 + i,
    netSales: 150_000 + i * 10_000,
  }));
  return salesReport({
    variant,
    dateDebut: '2026-11-01',
    dateFin: '2026-11-10',
    sites: [
      { restaurantId: 1, libelle: 'Site 1' },
      { restaurantId: 2, libelle: 'Site 2' },
    ],
    rows,
    totals: { fiscalDate: null, siteId: null, site: null, tickets: 2290, netSales: 4_900_000 },
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await closePdfPool();
  await t?.close();
});

describe('Graph variant', () => {
  it('draws one point per day, both sites summed, in date order', () => {
    const chart = reportChart(salesByDay('Graph'))!;
    expect(chart).toMatchObject({ kind: 'line', xKey: 'fiscalDate', yKey: 'netSales', yType: 'money' });
    expect(chart.points).toHaveLength(10);
    expect(chart.points[0]).toEqual({ x: '2026-11-01', y: 150_000 + 160_000 });
    expect(chart.points.map((p) => p.x)).toEqual([...chart.points.map((p) => p.x)].sort());
  });

  it('puts the chart, with its axis titles and ticks, above the table in the PDF', async () => {
    const [page] = pdfPagesText(await renderPdf(salesByDay('Graph'), OPTIONS, false));
    // Axis: day ticks (DD/MM) and money ticks; axis titles are the columns' labels.
    expect(page).toMatch(/01\/11 .*02\/11/);
    expect(page).toMatch(/\d €/);
    const chartStart = page!.indexOf('01/11 ');
    const tableHeader = page!.indexOf('Date fiscale N° site Site Tickets CA TTC');
    expect(chartStart).toBeGreaterThan(page!.indexOf('Généré le'));
    expect(tableHeader).toBeGreaterThan(chartStart);
    const chartText = page!.slice(page!.indexOf('Généré le'), tableHeader);
    expect(chartText).toContain('Date fiscale');
    expect(chartText).toContain('CA TTC');
    // The table is all there, totals included.
    expect(page).toContain('01/11/2026 1 Site 1 100 1 500,00 €');
    expect(page).toContain('10/11/2026 2 Site 2 119 3 400,00 €');
    expect(page).toMatch(/Total 2 290 49 000,00 €/);
    expect(page).toContain('Ventes — Graphique');
  });

  it('draws the same chart through the worker pool, and none for the Daily variant', async () => {
    const graph = await renderPdfInWorker(salesByDay('Graph'), OPTIONS);
    const daily = await renderPdfInWorker(salesByDay('Daily'), OPTIONS);
    // The chart adds its vector drawing and texts: the Graph PDF is clearly larger.
    expect(graph.length).toBeGreaterThan(daily.length + 2_000);
    const [dailyPage] = pdfPagesText(await renderPdf(salesByDay('Daily'), OPTIONS, false));
    expect(dailyPage).not.toMatch(/01\/11 02\/11/);
  });

  it('is offered by the sales families and answered by bo/getReport as a PDF with its chart', async () => {
    await loadChain(t.database);
    const id = await t.createUser({
      login: 'graphe',
      password: 'Graph-Variant-2026!',
      droits: ['RAPPORTS'],
      allSites: true,
    });
    const headers = await t.signIn('graphe', 'Graph-Variant-2026!');
    const metrics = await t.app.inject({ url: `/api/bo/rapport/metrics?id=${id}`, headers });
    const variants = new Map(
      metrics
        .json<{ editions: Array<{ className: string; variants: string[] }> }>()
        .editions.map((e) => [e.className, e.variants]),
    );
    for (const name of [
      'RapportVentes',
      'RapportVentesTranche',
      'RapportVentesFamille',
      'RapportVentesVendeur',
    ]) {
      expect(variants.get(name), name).toContain('Graph');
    }
    const res = await t.app.inject({
      url: `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&typeRapport=Graph&format=PDF&dateDebut=2026-11-01&dateFin=2026-11-10&sites[]=1&sites[]=2`,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const daily = await t.app.inject({
      url: `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&typeRapport=Daily&format=PDF&dateDebut=2026-11-01&dateFin=2026-11-10&sites[]=1&sites[]=2`,
      headers,
    });
    expect(res.rawPayload.length).toBeGreaterThan(daily.rawPayload.length + 2_000);
  });
});
