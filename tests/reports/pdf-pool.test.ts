import { afterAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { closePdfPool, renderPdfInWorker } from '../../src/server/reports/render/pdf-pool.ts';
import { FR_RENDER_OPTIONS as OPTIONS, salesReport } from '../helpers/report-datasets.ts';

/** A year of daily rows for six sites, as large as the demo chain's biggest sales report. */
function bigDataset(): Dataset {
  const rows = Array.from({ length: 2190 }, (_, i) => ({
    fiscalDate: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    siteId: 1 + (i % 6),
    site: `Site ${1 + (i % 6)}`,
    tickets: 100 + i,
    netSales: 123_456 + i,
  }));
  return salesReport({
    variant: 'Daily',
    dateDebut: '2026-01-01',
    dateFin: '2026-12-31',
    sites: [{ restaurantId: 1, libelle: 'Site 1' }],
    rows,
    totals: { fiscalDate: null, siteId: null, site: null, tickets: 1, netSales: 1 },
  });
}

afterAll(async () => {
  await closePdfPool();
});

describe('PDF worker pool', () => {
  it('lays a large PDF out off the event loop: timers keep firing while it renders', async () => {
    // Warm the worker up first, so the measure covers the layout and not the module loading.
    await renderPdfInWorker({ ...bigDataset(), rows: [] }, OPTIONS);
    let last = performance.now();
    let worstGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const pdf = await renderPdfInWorker(bigDataset(), OPTIONS);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(100_000);
    // Rendered on this thread, the whole layout would be one gap as long as `took`.
    expect(worstGap).toBeLessThan(took / 3);
  });
});
