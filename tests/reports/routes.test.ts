import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/server/errors.ts';
import { resolveReport } from '../../src/server/reports/request.ts';
import { salesReport } from '../../src/server/reports/sales.ts';
import type { AuthHeaders } from '../helpers/app.ts';
import { localMinute } from '../helpers/chain.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { LYON, MANAGER } from '../helpers/report-users.ts';
import { expectedPeriodRows, loadChain, salesInput } from './chain.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-secret',
  users: {
    manager: MANAGER,
    lyon: LYON,
    noRights: { login: 'cashier', droits: ['TICKETS'], allSites: true },
    nowhere: { login: 'nowhere', droits: ['RAPPORTS'] },
  },
  load: async (database) => ({ tickets: await loadChain(database) }),
});

const PERIOD = 'dateDebut=2026-11-01&dateFin=2026-11-10';

function getReport(headers: AuthHeaders, id: number, query: string) {
  return api.get(headers, `bo/getReport?id=${id}&rapportClassName=RapportVentes&${query}`);
}

describe('GET bo/rapport/metrics', () => {
  it('lists the sales report with its title in the request language (fr by default)', async () => {
    const fr = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}`);
    expect(fr.statusCode).toBe(200);
    // The sales report comes first; the other classes of the registry follow it.
    expect(fr.json().editions[0]).toEqual({
      className: 'RapportVentes',
      localisedTitle: 'Ventes',
      variants: ['Daily', 'Graph'],
      formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
      maxDays: 400,
      generated: 0,
      lastGeneratedAt: null,
    });
    const de = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}&language=de`);
    expect(de.json().editions[0].localisedTitle).toBe('Umsatz');
  });

  it('answers 403 Forbidden without the RAPPORTS right', async () => {
    const res = await api.get(api.noRights.headers, `bo/rapport/metrics?id=${api.noRights.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('Forbidden');
  });
});

describe('GET bo/getReport', () => {
  it('answers the JSON dataset with the figures of the tickets, for sites[]= and sites= alike', async () => {
    const bracket = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&sites[]=2`,
    );
    const repeated = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites=1&sites=2`,
    );
    const comma = await getReport(api.manager.headers, api.manager.id, `${PERIOD}&format=JSON&sites=1,2`);
    expect(bracket.statusCode).toBe(200);
    const d = datasetAnswer(bracket);
    expect(d.rows).toEqual(expectedPeriodRows(api.tickets, [1, 2]));
    expect(datasetAnswer(repeated).rows).toEqual(d.rows);
    expect(datasetAnswer(comma).rows).toEqual(d.rows);
    const single = await getReport(api.manager.headers, api.manager.id, `${PERIOD}&format=JSON&sites[]=2`);
    expect(datasetAnswer(single).rows).toEqual(expectedPeriodRows(api.tickets, [2]));
    expect(bracket.headers['content-type']).toMatch(/^application\/json/);
    expect(bracket.headers['content-length']).toBe(String(bracket.rawPayload.length));
  });

  it('uses every site of the scope when no site is given', async () => {
    const res = await getReport(api.lyon.headers, api.lyon.id, `${PERIOD}&format=JSON`);
    expect(res.statusCode).toBe(200);
    expect(datasetAnswer(res).rows).toEqual(expectedPeriodRows(api.tickets, [2]));
  });

  it('downloads a PDF with its translated file name and length', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=PDF&sites[]=1&sites[]=2`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ventes_2026-11-01_2026-11-10.pdf"',
    );
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('downloads a CSV in English with the English file name and conventions', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=CSV&language=en&sites[]=1`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="sales_2026-11-01_2026-11-10.csv"');
    const records: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, delimiter: ',' });
    expect(records[0]![4]).toBe('Net sales incl. VAT');
    const total = expectedPeriodRows(api.tickets, [1]).reduce((a, r) => a + r.netSales, 0);
    expect(records.at(-1)![4]).toBe((total / 100).toFixed(2));
  });

  it('downloads an XLSX in German', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=XLSX&language=de&sites[]=1`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="umsatz_2026-11-01_2026-11-10.xlsx"',
    );
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(res.rawPayload).buffer);
    // The column header comes under the heading block: title, chain, sites, period, currency, generated-at, blank.
    expect(workbook.worksheets[0]!.getRow(8).getCell(5).value).toBe('Umsatz brutto');
  });

  it('applies the hour range, terminals and sellers of the query (a comma in a seller travels as the marker)', async () => {
    const hours = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&trancheHoraire=true&heureDebut=12:00&heureFin=23:00`,
    );
    expect(datasetAnswer(hours).rows).toEqual(
      expectedPeriodRows(api.tickets, [1], (k) => localMinute(k) >= 720 && localMinute(k) < 1380),
    );
    const terminals = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&tpv[]=1&tpv[]=3`,
    );
    expect(datasetAnswer(terminals).rows).toEqual(
      expectedPeriodRows(api.tickets, [1], (k) => k.terminalId !== 2),
    );
    const sellers = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&vendeurs=${encodeURIComponent('Dupont{{comma}} Marie,S1')}`,
    );
    expect(datasetAnswer(sellers).rows).toEqual(
      expectedPeriodRows(api.tickets, [1], (k) => k.sellerCode === 'Dupont, Marie' || k.sellerCode === 'S1'),
    );
    const training = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&trainingMode=true`,
    );
    expect(datasetAnswer(training).totals.netSales).toBe(
      api.tickets
        .filter((k) => k.siteId === 1 && k.fiscalDate <= '2026-11-10')
        .reduce((a, k) => a + k.totalCents, 0),
    );
  });

  it('answers explicit fiscal dates given as datefiscales[]', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      'format=JSON&sites[]=2&datefiscales[]=2026-11-03&datefiscales[]=2026-11-05',
    );
    expect(res.statusCode).toBe(200);
    expect(datasetAnswer(res).rows.map((r) => r.fiscalDate)).toEqual(['2026-11-03', '2026-11-05']);
  });

  it('answers 400 ErrorUnknownRap for an unknown class', async () => {
    const res = await api.get(
      api.manager.headers,
      `bo/getReport?id=${api.manager.id}&rapportClassName=RapportInconnu&${PERIOD}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ErrorUnknownRap');
  });

  it("answers 403 Forbidden for a site outside the user's scope", async () => {
    const res = await getReport(api.lyon.headers, api.lyon.id, `${PERIOD}&format=JSON&sites[]=1&sites[]=2`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('Forbidden');
  });

  it('answers 400 NoSitesSelected when the user has no site', async () => {
    const res = await getReport(api.nowhere.headers, api.nowhere.id, `${PERIOD}&format=JSON`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('NoSitesSelected');
  });

  it('answers 400 MaxReportDays with the maximum for a period too long', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      'dateDebut=2025-01-01&dateFin=2026-02-05&format=JSON&sites[]=1',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: 400 } });
    const fits = await getReport(
      api.manager.headers,
      api.manager.id,
      'dateDebut=2025-01-01&dateFin=2026-02-04&format=JSON&sites[]=1',
    );
    expect(fits.statusCode).toBe(200);
  });

  it('answers 400 BadRequest for dateFin before dateDebut, a bad date, a missing period or a bad hour', async () => {
    for (const q of [
      'dateDebut=2026-11-10&dateFin=2026-11-01',
      'dateDebut=2026-02-30&dateFin=2026-03-01',
      'dateDebut=01/11/2026&dateFin=2026-11-10',
      '',
      `${PERIOD}&trancheHoraire=true&heureDebut=25:00`,
      `${PERIOD}&sites[]=abc`,
      `${PERIOD}&operation=ANNULATION`,
      `${PERIOD}&typeRapport=Cumulative`,
    ]) {
      const res = await getReport(api.manager.headers, api.manager.id, `${q}&format=JSON`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe('BadRequest');
    }
  });

  it('answers 400 mixedCurrencies for sites trading in different currencies', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `${PERIOD}&format=JSON&sites[]=1&sites[]=3`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'mixedCurrencies', details: { currencies: ['EUR', 'GBP'] } });
  });

  it("answers 403 Forbidden without the RAPPORTS right, and for another user's id", async () => {
    const res = await getReport(api.noRights.headers, api.noRights.id, `${PERIOD}&format=JSON`);
    expect(res.statusCode).toBe(403);
    const other = await getReport(api.lyon.headers, api.manager.id, `${PERIOD}&format=JSON`);
    expect(other.statusCode).toBe(403);
  });

  it('answers 401 without a session', async () => {
    const res = await getReport(
      { 'x-requested-with': 'XMLHttpRequest' },
      api.manager.id,
      `${PERIOD}&format=JSON`,
    );
    expect(res.statusCode).toBe(401);
  });
});

describe('POST bo/getReport', () => {
  it('answers the same report from a JSON body', async () => {
    const res = await api.post(api.manager.headers, 'bo/getReport', {
      id: api.manager.id,
      rapportClassName: 'RapportVentes',
      typeRapport: 'Daily',
      operation: 'VENTE',
      trancheHoraire: false,
      format: 'PDF',
      language: 'en',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
      sites: [1, 2],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="sales_2026-11-01_2026-11-10.pdf"');
    const json = await api.post(api.manager.headers, 'bo/getReport', {
      id: api.manager.id,
      rapportClassName: 'RapportVentes',
      format: 'JSON',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
      sites: [2],
    });
    expect(datasetAnswer(json).rows).toEqual(expectedPeriodRows(api.tickets, [2]));
  });

  it('answers 403 without the RAPPORTS right and 400 for an unknown class', async () => {
    const denied = await api.post(api.noRights.headers, 'bo/getReport', {
      id: api.noRights.id,
      rapportClassName: 'RapportVentes',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
    });
    expect(denied.statusCode).toBe(403);
    const unknown = await api.post(api.manager.headers, 'bo/getReport', {
      id: api.manager.id,
      rapportClassName: 'Nope',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
    });
    expect(unknown.json().code).toBe('ErrorUnknownRap');
  });
});

describe('format rules', () => {
  it('answers notAPdf for a class without PDF, BadRequest for another missing format', async () => {
    const csvOnly = { ...salesReport, formats: ['CSV', 'JSON'] as const };
    const findClass = (name: string) => (name === 'RapportVentes' ? csvOnly : undefined);
    const pdf = await resolveReport(salesInput({ format: 'PDF' }), [1, 2], api.t.database, {
      findClass,
    }).catch((e: unknown) => e);
    expect(pdf).toBeInstanceOf(DomainError);
    expect(pdf).toMatchObject({ kind: 'invalid', code: 'notAPdf' });
    const xlsx = await resolveReport(salesInput({ format: 'XLSX' }), [1, 2], api.t.database, {
      findClass,
    }).catch((e: unknown) => e);
    expect(xlsx).toMatchObject({ kind: 'invalid', code: 'BadRequest' });
  });
});
