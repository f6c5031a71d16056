/**
 * The forecast on the real London takeaway export (issue #19): imported through the CSV import
 * as the other real-data checks do, then backtested on its last 8 weeks (each week forecast from
 * the data before it). Our forecast must beat the seasonal-naive one (same weekday last week) on
 * the same weeks by at least 10 %: WAPE ours ≤ 0.9 × WAPE naive.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastAnswerSchema } from '../../src/contract/forecast.ts';
import { compareWithNaive } from '../../src/server/forecast/compare.ts';
import { forecastSites } from '../../src/server/forecast/forecast.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { FILES, REPO, requireFiles } from './expected.ts';

describe('sales forecast on the London takeaway export', () => {
  let db: TestDatabase;
  let siteId: number;
  let lastDate: string;

  beforeAll(async () => {
    requireFiles(FILES.takeaway, FILES.takeawayPrices);
    db = await createTestDatabase();
    const result = await importSalesFile(db.pool, {
      file: FILES.takeaway,
      mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
      site: 'Takeaway London 1',
      company: 'London Takeaways',
    });
    siteId = result.siteId;
    const { rows } = await db.pool.query<{ last: string }>(
      'SELECT max(fiscal_date)::text AS last FROM daily_sales WHERE site_id = $1',
      [siteId],
    );
    lastDate = rows[0]!.last;
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Noon (London) of the day after the export's last day: "today" is the first day without data. */
  const dayAfterExport = () => new Date(`${nextDay(lastDate)}T11:00:00Z`);

  it('beats the seasonal-naive forecast on the last 8 weeks: WAPE ≤ 0.9 × naive', async () => {
    const { pooled } = await compareWithNaive(db.pool, [siteId], dayAfterExport());
    console.log(
      `London takeaway, last 8 weeks before ${nextDay(lastDate)}: WAPE ours ${pooled.ours?.toFixed(3)}, naive ${pooled.naive?.toFixed(3)}, ratio ${pooled.ratio?.toFixed(3)}, bias ${pooled.bias?.toFixed(3)}`,
    );
    expect(pooled.naive).toBeGreaterThan(0);
    expect(pooled.ours!).toBeLessThanOrEqual(0.9 * pooled.naive!);
  });

  it('answers the previsions shape for the week after the export, with the reliability measured', async () => {
    const from = nextDay(lastDate);
    const sites = await forecastSites(db.pool, {
      siteIds: [siteId],
      from,
      to: nextDay(nextDay(nextDay(from))),
      now: dayAfterExport(),
    });
    const parsed = ForecastAnswerSchema.parse({ data: { method: 'x', currency: 'GBP', sites } });
    const site = parsed.data.sites[0]!;
    expect(site.reliability.weeks).toBe(8);
    expect(site.reliability.wape).toBeGreaterThan(0);
    expect(site.days[0]!.actualCents).toBe(0);
    expect(site.days[1]!.actualCents).toBeNull();
    for (const d of site.days) {
      expect(d.forecastCents).toBeGreaterThan(0);
      expect(d.dayParts.reduce((s, p) => s + p.forecastCents, 0)).toBe(d.forecastCents);
    }
  });
});

/** The wire date after `date`. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
