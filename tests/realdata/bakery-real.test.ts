/**
 * The Korean bakery (wide format: one row per ticket, one column per product holding its
 * quantity; prices in a separate list; KRW, a currency without minor unit): imported through
 * docs/mappings/korean-bakery.json, then every report family it can feed is compared with
 * figures melted and priced here from the raw files (expected.ts). Amounts are whole won
 * (stored, like every amount, in hundredths: 4,800 KRW = 480,000), VAT 10 % taken out in whole
 * won per line.
 *
 * The file's own `total` column is not what is proven: it disagrees with quantity × list price
 * on most tickets (by 1,200–3,000 KRW; the list's prices are not those of every sale), and the
 * line-level price list is the only pricing a per-product report can use.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { assemble, bakeryLines, FILES, REPO, requireFiles } from './expected.ts';
import { type ProvenSet, proveDistributions, proveFamilies, proveFiscalDates } from './families.ts';
import { reportingApp } from './report-api.ts';

let app: Awaited<ReturnType<typeof reportingApp>>;
let bakery: ProvenSet;
let raw: Awaited<ReturnType<typeof bakeryLines>>;
let imported: Awaited<ReturnType<typeof importSalesFile>>;

beforeAll(async () => {
  requireFiles(FILES.bakery, FILES.bakeryPrices);
  app = await reportingApp();
  raw = await bakeryLines();
  imported = await importSalesFile(app.t.database.pool, {
    file: FILES.bakery,
    mapping: path.join(REPO, 'docs/mappings/korean-bakery.json'),
    site: 'Bakery Chuncheon',
  });
  bakery = {
    site: { id: imported.siteId, name: 'Bakery Chuncheon' },
    currency: 'KRW',
    rate: 0.1,
    ...assemble(raw.lines, { vatPercent: 10n, step: 100n }),
  };
});
afterAll(async () => {
  await app?.t.close();
});

describe('report families on the Korean bakery file (wide, KRW)', () => {
  it('imports one ticket per row holding a product, one line per product bought, in whole won', async () => {
    // PROVENANCE.txt: 2,654 rows; 233 rows hold only an order id and 2 only a time: no sale.
    expect(raw).toMatchObject({ rows: 2_654, emptyRows: 235 });
    expect(imported).toMatchObject({
      linesRead: 2_654,
      ticketsInserted: 2_419,
      linesInserted: raw.lines.length,
    });
    expect(bakery.tickets).toHaveLength(2_419);
    const { rows } = await app.t.database.pool.query(
      `SELECT count(*)::int AS n FROM ticket_lines WHERE site_id = $1 AND (amount_cents % 100 <> 0 OR amount_excl_cents % 100 <> 0)`,
      [imported.siteId],
    );
    expect(rows[0].n).toBe(0);
  });

  proveFamilies(
    'bakery',
    () => bakery,
    () => app.report,
    { dailyToo: true },
  );
  proveFiscalDates(
    'bakery',
    () => bakery,
    () => app.report,
  );
  proveDistributions(
    'bakery',
    () => bakery,
    () => app.distribution,
  );
});
