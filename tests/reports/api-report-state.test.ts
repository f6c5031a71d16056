/**
 * The single-site and POST variants of bo/getReport, empty reports (CheckReportParam), the report
 * in state (bo/getResultsData, NoReportInState), bo/getResultsChoices, bo/getGroupements and the
 * editions behind bo/rapport/metrics — through the real app on the test chain.
 */
import { describe, expect, it } from 'vitest';
import type { ResultsChoicesAnswer } from '../../src/contract/exports.ts';
import type { ReportClassInfo } from '../../src/contract/reports.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { LYON, MANAGER } from '../helpers/report-users.ts';
import { type ChainTicket, expectedPeriodRows, expectedSalesRows, loadChain, SELLERS } from './chain.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-state',
  users: { manager: MANAGER, lyon: LYON },
  load: async (database) => ({ tickets: await loadChain(database) }),
});

const PERIOD = 'dateDebut=2026-11-01&dateFin=2026-11-10';

function netOf(siteIds: number[], keep?: (k: ChainTicket) => boolean): number {
  return expectedPeriodRows(api.tickets, siteIds, keep).reduce((s, r) => s + r.netSales, 0);
}

describe('GET bo/getReportSite (single-site variant)', () => {
  it('answers the report of the one restaurantId', async () => {
    const res = await api.get(
      api.manager.headers,
      `bo/getReportSite?id=${api.manager.id}&rapportClassName=RapportVentes&format=JSON&${PERIOD}&restaurantId=2`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = datasetAnswer(res);
    expect(data.sites).toEqual([{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }]);
    expect(data.totals.netSales).toBe(netOf([2]));
  });

  it('answers 400 multiSitesTooMuch for two sites, NoSitesSelected for none, 403 outside the scope', async () => {
    const two = await api.get(
      api.manager.headers,
      `bo/getReportSite?id=${api.manager.id}&rapportClassName=RapportVentes&format=JSON&${PERIOD}&restaurantId=1&sites[]=2`,
    );
    expect(two.statusCode).toBe(400);
    expect(two.json()).toMatchObject({ code: 'multiSitesTooMuch' });
    const none = await api.get(
      api.manager.headers,
      `bo/getReportSite?id=${api.manager.id}&rapportClassName=RapportVentes&format=JSON&${PERIOD}`,
    );
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'NoSitesSelected' });
    const outside = await api.get(
      api.lyon.headers,
      `bo/getReportSite?id=${api.lyon.id}&rapportClassName=RapportVentes&format=JSON&${PERIOD}&restaurantId=1`,
    );
    expect(outside.statusCode).toBe(403);
  });
});

describe('POST bo/getReport', () => {
  it('takes tpv, vendeurs (a comma inside a code kept), datefiscales, trainingMode and tri from the body', async () => {
    const res = await api.post(api.manager.headers, 'bo/getReport', {
      id: api.manager.id,
      rapportClassName: 'RapportVentes',
      format: 'JSON',
      language: 'en',
      sites: [1],
      tpv: [1, 3],
      vendeurs: ['Dupont, Marie', 'S4'],
      datefiscales: ['2026-11-04', '2026-11-06'],
      trainingMode: true,
      tri: 'netSales:desc',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = datasetAnswer(res);
    const keep = (k: ChainTicket) =>
      k.siteId === 1 &&
      (k.fiscalDate === '2026-11-04' || k.fiscalDate === '2026-11-06') &&
      k.terminalId !== 2 &&
      (k.sellerCode === 'Dupont, Marie' || k.sellerCode === 'S4');
    const want = expectedSalesRows(api.tickets.filter(keep)).sort((a, b) => b.netSales - a.netSales);
    expect(data.rows.map((r) => [r.fiscalDate, r.netSales])).toEqual(
      want.map((r) => [r.fiscalDate, r.netSales]),
    );
    expect(data.title).toBe('Sales');
  });

  it('accepts vendeurs as the encoded text of the GET', async () => {
    const res = await api.post(api.manager.headers, 'bo/getReport', {
      id: api.manager.id,
      rapportClassName: 'RapportVentes',
      format: 'JSON',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
      sites: [2],
      vendeurs: 'Dupont{{comma}} Marie',
    });
    expect(datasetAnswer(res).totals.netSales).toBe(netOf([2], (k) => k.sellerCode === 'Dupont, Marie'));
  });
});

describe('empty reports', () => {
  it('JSON answers the empty dataset; PDF, CSV and XLSX answer 400 CheckReportParam', async () => {
    const base = `bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&dateDebut=2026-10-01&dateFin=2026-10-05&sites[]=1`;
    const json = await api.get(api.manager.headers, `${base}&format=JSON`);
    expect(json.statusCode).toBe(200);
    expect(datasetAnswer(json).rows).toEqual([]);
    const listed = await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&mine=true&limit=1`);
    expect(listed.json().editions[0]).toMatchObject({ format: 'JSON', status: 'EMPTY', rows: 0 });
    for (const format of ['PDF', 'CSV', 'XLSX']) {
      const res = await api.get(api.manager.headers, `${base}&format=${format}`);
      expect(res.statusCode, format).toBe(400);
      expect(res.json()).toMatchObject({ code: 'CheckReportParam' });
    }
  });
});

describe('GET bo/getResultsData (the report in state)', () => {
  it('answers 409 NoReportInState before the user generated any report', async () => {
    const res = await api.get(api.lyon.headers, `bo/getResultsData?id=${api.lyon.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NoReportInState' });
  });

  it("answers the user's last report again, in the language asked, or as a PDF", async () => {
    const first = await api.get(
      api.lyon.headers,
      `bo/getReport?id=${api.lyon.id}&rapportClassName=RapportVentes&format=CSV&language=fr&${PERIOD}&tri=tickets:desc`,
    );
    expect(first.statusCode).toBe(200);
    const en = await api.get(api.lyon.headers, `bo/getResultsData?id=${api.lyon.id}&language=en`);
    expect(en.statusCode, en.body).toBe(200);
    const data = datasetAnswer(en);
    expect(data.title).toBe('Sales');
    expect(data.sites).toEqual([{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }]);
    expect(data.totals.netSales).toBe(netOf([2]));
    const counts = data.rows.map((r) => r.tickets as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const pdf = await api.get(api.lyon.headers, `bo/getResultsData?id=${api.lyon.id}&format=PDF`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers 403 for another user id', async () => {
    const res = await api.get(api.lyon.headers, `bo/getResultsData?id=${api.manager.id}`);
    expect(res.statusCode).toBe(403);
  });
});

describe('GET bo/getResultsChoices', () => {
  it('lists variants, formats, maximum days, operations, filtres, tris and regroupements with labels', async () => {
    const res = await api.get(
      api.manager.headers,
      `bo/getResultsChoices?id=${api.manager.id}&RapportGeneralClassName=RapportVentes&language=de`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<ResultsChoicesAnswer>();
    expect(c).toMatchObject({
      className: 'RapportVentes',
      localisedTitle: 'Umsatz',
      maxDays: 400,
      formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
    });
    expect(c.variants).toEqual([
      { value: 'Daily', label: expect.any(String) },
      { value: 'Graph', label: expect.any(String) },
    ]);
    expect(c.operations.map((o) => o.value)).toEqual(['VENTE', 'TOUTES']);
    expect(c.operations[0]!.label).toBe('Verkäufe');
    expect(c.filtres.map((f) => f.value)).toEqual(
      expect.arrayContaining(['SITE', 'CAISSE', 'VENDEUR', 'DATE']),
    );
    expect(c.filtres.find((f) => f.value === 'CAISSE')!.label).toBe('Kasse');
    expect(c.tris.map((f) => f.value)).toEqual(expect.arrayContaining(['fiscalDate', 'netSales', 'tickets']));
    expect(c.regroupements.map((f) => f.value)).toEqual(expect.arrayContaining(['SITE', 'DATE']));
  });

  it('offers FAMILLE for the family report and no CAISSE for losses (not ticket-based)', async () => {
    const family = await api.get(
      api.manager.headers,
      `bo/getResultsChoices?id=${api.manager.id}&RapportGeneralClassName=RapportVentesFamille`,
    );
    expect(family.json<ResultsChoicesAnswer>().filtres.map((f) => f.value)).toContain('FAMILLE');
    const losses = await api.get(
      api.manager.headers,
      `bo/getResultsChoices?id=${api.manager.id}&RapportGeneralClassName=RapportPertes`,
    );
    expect(losses.json<ResultsChoicesAnswer>().filtres.map((f) => f.value)).not.toContain('CAISSE');
  });

  it('answers every class of the registry', async () => {
    const metrics = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}`);
    for (const e of metrics.json<{ editions: ReportClassInfo[] }>().editions) {
      const res = await api.get(
        api.manager.headers,
        `bo/getResultsChoices?id=${api.manager.id}&RapportGeneralClassName=${e.className}&language=en`,
      );
      expect(res.statusCode, `${e.className}: ${res.body}`).toBe(200);
      expect(res.json<ResultsChoicesAnswer>().tris.length).toBeGreaterThan(0);
    }
  });

  it('answers 400 ErrorUnknownRap for an unknown class', async () => {
    const res = await api.get(
      api.manager.headers,
      `bo/getResultsChoices?id=${api.manager.id}&RapportGeneralClassName=RapportInconnu`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ErrorUnknownRap' });
  });
});

describe('GET bo/getGroupements', () => {
  const url = (id: number, filtre: string, extra = '') =>
    `bo/getGroupements?id=${id}&rapportGeneralClassName=RapportVentes&filtre=${filtre}&${PERIOD}${extra}`;

  it('lists the sellers and terminals present in the data of a site and period', async () => {
    const sellers = await api.get(api.manager.headers, url(api.manager.id, 'VENDEUR', '&restaurantId=1'));
    expect(sellers.statusCode, sellers.body).toBe(200);
    expect(sellers.json().groupements.map((g: { value: string }) => g.value)).toEqual([...SELLERS].sort());
    const terminals = await api.get(api.manager.headers, url(api.manager.id, 'CAISSE', '&restaurantId=1'));
    expect(terminals.json().groupements).toEqual([
      { value: '1', label: '1 – Caisse 1' },
      { value: '2', label: '2 – Caisse 2' },
      { value: '3', label: '3 – Caisse 3' },
    ]);
  });

  it("lists only the caller's sites, and the dates with tickets", async () => {
    const sites = await api.get(api.lyon.headers, url(api.lyon.id, 'SITE'));
    expect(sites.json().groupements).toEqual([{ value: '2', label: 'Lyon Part-Dieu' }]);
    const dates = await api.get(
      api.lyon.headers,
      `bo/getGroupements?id=${api.lyon.id}&rapportGeneralClassName=RapportVentes&filtre=DATE&dateDebut=2026-11-09&dateFin=2026-11-20`,
    );
    expect(dates.json().groupements).toEqual([
      { value: '2026-11-09', label: '09/11/2026' },
      { value: '2026-11-10', label: '10/11/2026' },
      { value: '2026-11-11', label: '11/11/2026' },
    ]);
  });

  it('answers 403 for a site outside the scope, 400 for a filtre the class lacks, MaxReportDays for a long period', async () => {
    const outside = await api.get(api.lyon.headers, url(api.lyon.id, 'VENDEUR', '&restaurantId=1'));
    expect(outside.statusCode).toBe(403);
    const family = await api.get(api.manager.headers, url(api.manager.id, 'FAMILLE'));
    expect(family.statusCode).toBe(400);
    expect(family.json()).toMatchObject({ code: 'BadRequest' });
    const long = await api.get(
      api.manager.headers,
      `bo/getGroupements?id=${api.manager.id}&rapportGeneralClassName=RapportVentes&filtre=SITE&dateDebut=2024-01-01&dateFin=2026-01-01`,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: 400 } });
  });
});

describe('GET bo/rapport/metrics editions', () => {
  it('counts the reports the user generated per class and says when last', async () => {
    const before = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}`);
    const sales = (r: typeof before) =>
      r.json<{ editions: ReportClassInfo[] }>().editions.find((e) => e.className === 'RapportVentes')!;
    const n = sales(before).generated!;
    const pdf = await api.get(
      api.manager.headers,
      `bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&format=PDF&${PERIOD}&sites[]=1`,
    );
    expect(pdf.statusCode).toBe(200);
    const after = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}`);
    expect(sales(after).generated).toBe(n + 1);
    expect(Date.parse(sales(after).lastGeneratedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const lyonView = await api.get(api.lyon.headers, `bo/rapport/metrics?id=${api.lyon.id}`);
    expect(sales(lyonView).generated).toBe(1); // the CSV of the report-in-state test, not the manager's
  });
});
