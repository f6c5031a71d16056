/**
 * Maven "Pizza Place Sales" (four related files, 2015): imported through the joined mapping
 * docs/mappings/maven-pizza.json (order lines → orders for the time, → pizzas for the price,
 * → pizza types for the family), then every report family it can feed is compared to the cent
 * with figures joined and computed here from the raw files (expected.ts) — the only data set
 * with product families. Its mapping takes VAT at 10 % (the data carries no tax), so the VAT
 * figures also prove a rate other than the other files' 20 %.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { assemble, FILES, pizzaLines, REPO, requireFiles } from './expected.ts';
import {
  type ProvenSet,
  proveDistributions,
  proveFamilies,
  proveFiscalDates,
  withinHours,
} from './families.ts';
import { reportingApp } from './report-api.ts';

let app: Awaited<ReturnType<typeof reportingApp>>;
let pizza: ProvenSet;
let imported: Awaited<ReturnType<typeof importSalesFile>>;

beforeAll(async () => {
  requireFiles(FILES.pizzaDetails, FILES.pizzaOrders, FILES.pizzas, FILES.pizzaTypes);
  app = await reportingApp();
  const raw = await pizzaLines();
  imported = await importSalesFile(app.t.database.pool, {
    file: FILES.pizzaDetails,
    mapping: path.join(REPO, 'docs/mappings/maven-pizza.json'),
    site: 'Maven Pizza',
  });
  pizza = {
    site: { id: imported.siteId, name: 'Maven Pizza' },
    currency: 'USD',
    rate: 0.1,
    ...assemble(raw, { vatPercent: 10n }),
  };
});
afterAll(async () => {
  await app?.t.close();
});

describe('report families on the Maven pizza files', () => {
  it('imports every order line, one ticket per order, with the revenue PROVENANCE.txt states', () => {
    expect(imported).toMatchObject({ linesRead: 48_620, linesInserted: 48_620, ticketsInserted: 21_350 });
    expect(pizza.tickets).toHaveLength(21_350);
    // PROVENANCE.txt: sum(quantity × price) = 817,860.05.
    expect(pizza.tickets.reduce((s, t) => s + t.net, 0n)).toBe(81_786_005n);
    expect(new Set(pizza.lines.map((l) => l.family))).toEqual(
      new Set(['Chicken', 'Classic', 'Supreme', 'Veggie']),
    );
  });

  proveFamilies(
    'pizza',
    () => pizza,
    () => app.report,
    { dailyToo: true },
  );
  proveFiscalDates(
    'pizza',
    () => pizza,
    () => app.report,
  );
  proveDistributions(
    'pizza',
    () => pizza,
    () => app.distribution,
  );
});

describe('report families on the Maven pizza files, lunch only (trancheHoraire 11:00–15:00)', () => {
  const lunch = '&trancheHoraire=true&heureDebut=11:00&heureFin=15:00';
  proveFamilies(
    'pizza 11:00–15:00',
    () => withinHours(pizza, '11:00', '15:00'),
    () => app.report,
    { dailyToo: true, extra: lunch },
  );
});
