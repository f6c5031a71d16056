/**
 * Every report family the two real exports can feed (issue #4 point 7), proven on the London
 * takeaway (2015–2019, a price list joined on the item name) and on UCI Online Retail
 * (2010-12 → 2011-12, C-cancellations, returns, 3-decimal and negative prices): each file is
 * imported with its shipped mapping, then every family is asked through bo/getReport over the
 * whole span of the data and compared to the cent with figures computed from the raw file
 * (expected.ts). The daily sales report itself is proven in sales-report-real.test.ts.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { assemble, FILES, REPO, requireFiles, takeawayLines, uciLines } from './expected.ts';
import {
  type ProvenSet,
  proveDistributions,
  proveFamilies,
  proveFiscalDates,
  type ReportFn,
  withinHours,
} from './families.ts';
import { reportingApp } from './report-api.ts';

let app: Awaited<ReturnType<typeof reportingApp>>;
let takeaway: ProvenSet;
let uci: ProvenSet;

beforeAll(async () => {
  requireFiles(FILES.takeaway, FILES.takeawayPrices, FILES.uci);
  app = await reportingApp();
  const pool = app.t.database.pool;
  const [takeawayRaw, uciRaw] = await Promise.all([takeawayLines(), uciLines()]);
  const a = await importSalesFile(pool, {
    file: FILES.takeaway,
    mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
    site: 'Takeaway London 1',
  });
  takeaway = {
    site: { id: a.siteId, name: 'Takeaway London 1' },
    currency: 'GBP',
    rate: 0.2,
    ...assemble(takeawayRaw, { vatPercent: 20n }),
  };
  const b = await importSalesFile(pool, {
    file: FILES.uci,
    mapping: path.join(REPO, 'docs/mappings/uci-online-retail.json'),
    site: 'UCI Online Retail',
  });
  uci = {
    site: { id: b.siteId, name: 'UCI Online Retail' },
    currency: 'GBP',
    rate: 0.2,
    ...assemble(uciRaw, { cancelPrefix: 'C', vatPercent: 20n }),
  };
});
afterAll(async () => {
  await app?.t.close();
});

const report: () => ReportFn = () => app.report;

describe('report families on the London takeaway file', () => {
  proveFamilies('takeaway', () => takeaway, report);
  proveFiscalDates('takeaway', () => takeaway, report);
  proveDistributions(
    'takeaway',
    () => takeaway,
    () => app.distribution,
  );
});

describe('report families on the UCI Online Retail file', () => {
  proveFamilies('UCI', () => uci, report, { cancellationsToo: true });
  proveFiscalDates('UCI', () => uci, report);
  proveDistributions(
    'UCI',
    () => uci,
    () => app.distribution,
  );
});

describe('report families on the UCI Online Retail file, afternoons only (trancheHoraire 12:30–17:00)', () => {
  const afternoon = '&trancheHoraire=true&heureDebut=12:30&heureFin=17:00';
  proveFamilies('UCI 12:30–17:00', () => withinHours(uci, '12:30', '17:00'), report, {
    cancellationsToo: true,
    extra: afternoon,
  });
});

describe('report families on the London takeaway file, late evenings only (trancheHoraire 21:30–01:00, past midnight)', () => {
  const late = '&trancheHoraire=true&heureDebut=21:30&heureFin=01:00';
  proveFamilies('takeaway 21:30–01:00', () => withinHours(takeaway, '21:30', '01:00'), report, {
    dailyToo: true,
    extra: late,
  });
});
