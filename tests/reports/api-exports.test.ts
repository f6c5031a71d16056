/**
 * GET exports/status, exports/list and exports/download through the real app: the state of a
 * fiscal date per site (tickets, last load, reports covering it), the editions a user may see,
 * and downloading one again.
 */
import { describe, expect, it } from 'vitest';
import type { EditionsAnswer, ExportStatusAnswer } from '../../src/contract/exports.ts';
import { recordDataLoad } from '../../src/server/reports/editions.ts';
import type { AuthHeaders } from '../helpers/app.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { LYON, MANAGER } from '../helpers/report-users.ts';
import { loadChain } from './chain.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-exports',
  users: {
    manager: MANAGER,
    lyon: LYON,
    cashier: { login: 'cashier', droits: ['TICKETS'], allSites: true },
  },
  load: async (database) => ({ tickets: await loadChain(database) }),
});

async function status(headers: AuthHeaders, date: string): Promise<ExportStatusAnswer> {
  const res = await api.get(headers, `exports/status?dateFiscale=${date}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ExportStatusAnswer>();
}

describe('GET exports/status', () => {
  it('counts the tickets and net sales of the date per site, training mode left out; no report yet', async () => {
    const answer = await status(api.manager.headers, '2026-11-03');
    expect(answer.dateFiscale).toBe('2026-11-03');
    expect(answer.sites.map((s) => s.libelle)).toEqual(['London Soho', 'Lyon Part-Dieu', 'Paris Opéra']);
    for (const line of answer.sites) {
      const mine = api.tickets.filter(
        (k) => k.siteId === line.restaurantId && k.fiscalDate === '2026-11-03' && !k.trainingMode,
      );
      expect(line).toMatchObject({
        tickets: mine.length,
        netCents: mine.reduce((s, k) => s + k.totalCents, 0),
        reports: 0,
        lastReportAt: null,
        lastLoadAt: null,
        state: 'RECEIVED',
      });
      expect(Date.parse(line.firstTicketAt!)).toBeLessThanOrEqual(Date.parse(line.lastTicketAt!));
    }
    expect(answer.sites.find((s) => s.restaurantId === 3)!.currency).toBe('GBP');
  });

  it('says REPORTED once a report covering the date and site was generated, and only there', async () => {
    const pdf = await api.get(
      api.manager.headers,
      `bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&format=PDF&dateDebut=2026-11-02&dateFin=2026-11-04&sites[]=1`,
    );
    expect(pdf.statusCode).toBe(200);
    const explicit = await api.get(
      api.manager.headers,
      `bo/getReport?id=${api.manager.id}&rapportClassName=RapportVentes&format=JSON&datefiscales[]=2026-11-01&datefiscales[]=2026-11-05&sites[]=2`,
    );
    expect(explicit.statusCode).toBe(200);
    const answer = await status(api.manager.headers, '2026-11-03');
    const bySite = new Map(answer.sites.map((s) => [s.restaurantId, s]));
    expect(bySite.get(1)).toMatchObject({ reports: 1, state: 'REPORTED' });
    expect(bySite.get(1)!.lastReportAt).not.toBeNull();
    // Site 2's report holds 1 and 5 November, not the 3rd in between.
    expect(bySite.get(2)).toMatchObject({ reports: 0, state: 'RECEIVED' });
    expect(
      (await status(api.manager.headers, '2026-11-05')).sites.find((s) => s.restaurantId === 2),
    ).toMatchObject({
      reports: 1,
    });
  });

  it('names the last load covering the date', async () => {
    await recordDataLoad(api.t.database.pool, {
      siteId: 2,
      source: 'file:api.lyon.csv',
      firstFiscalDate: '2026-11-01',
      lastFiscalDate: '2026-11-10',
      tickets: 120,
    });
    await recordDataLoad(api.t.database.pool, {
      siteId: 2,
      source: 'file:lyon-2.csv',
      firstFiscalDate: '2026-11-11',
      lastFiscalDate: '2026-11-11',
      tickets: 1,
    });
    const line = (await status(api.lyon.headers, '2026-11-03')).sites[0]!;
    expect(line).toMatchObject({ restaurantId: 2, lastLoadSource: 'file:api.lyon.csv' });
    expect(line.lastLoadAt).not.toBeNull();
  });

  it("lists only the caller's sites; a date without tickets is NO_DATA", async () => {
    const answer = await status(api.lyon.headers, '2026-10-15');
    expect(answer.sites).toEqual([
      expect.objectContaining({
        restaurantId: 2,
        tickets: 0,
        netCents: 0,
        firstTicketAt: null,
        state: 'NO_DATA',
      }),
    ]);
  });

  it('defaults to today, answers 400 for a bad date and 403 without the RAPPORTS right', async () => {
    const today = await api.get(api.lyon.headers, 'exports/status');
    expect(today.statusCode).toBe(200);
    expect(today.json<ExportStatusAnswer>().dateFiscale).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bad = await api.get(api.lyon.headers, 'exports/status?dateFiscale=2026-13-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BadRequest' });
    const refused = await api.get(api.cashier.headers, 'exports/status?dateFiscale=2026-11-03');
    expect(refused.statusCode).toBe(403);
  });
});

describe('GET exports/list', () => {
  it('lists the editions newest first with title, period, sites, format, size, status and author', async () => {
    const csv = await api.get(
      api.lyon.headers,
      `bo/getReport?id=${api.lyon.id}&rapportClassName=RapportVentes&format=CSV&language=en&dateDebut=2026-11-01&dateFin=2026-11-10`,
    );
    expect(csv.statusCode).toBe(200);
    const empty = await api.get(
      api.lyon.headers,
      `bo/getReport?id=${api.lyon.id}&rapportClassName=RapportVentes&format=PDF&dateDebut=2026-10-01&dateFin=2026-10-02`,
    );
    expect(empty.json()).toMatchObject({ code: 'CheckReportParam' });
    // A CSV streams: its size is stored once the last byte left, just after the answer ended.
    let editions: EditionsAnswer['editions'] = [];
    for (let i = 0; i < 50; i++) {
      const res = await api.get(api.lyon.headers, `exports/list?id=${api.lyon.id}&language=en`);
      expect(res.statusCode, res.body).toBe(200);
      editions = res.json<EditionsAnswer>().editions;
      if (editions[1]?.bytes !== null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // Lyon sees its own two and the manager's JSON report of Lyon, not the manager's Paris PDF.
    expect(editions.map((e) => [e.login, e.format, e.status])).toEqual([
      ['lyon', 'PDF', 'EMPTY'],
      ['lyon', 'CSV', 'OK'],
      ['manager', 'JSON', 'OK'],
    ]);
    expect(editions[1]).toMatchObject({
      className: 'RapportVentes',
      localisedTitle: 'Sales',
      variant: 'Daily',
      language: 'en',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
      fiscalDates: null,
      sites: [{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }],
      bytes: csv.rawPayload.length,
    });
    expect(editions[2]!.fiscalDates).toEqual(['2026-11-01', '2026-11-05']);
  });

  it("keeps the caller's own with mine=true, and pages with limit/offset", async () => {
    const mine = await api.get(api.lyon.headers, `exports/list?id=${api.lyon.id}&mine=true`);
    expect(mine.json<EditionsAnswer>().editions.every((e) => e.login === 'lyon')).toBe(true);
    const page1 = await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&limit=2`);
    const page2 = await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&limit=2&offset=2`);
    expect(page1.json<EditionsAnswer>().more).toBe(true);
    expect(page1.json<EditionsAnswer>().editions).toHaveLength(2);
    expect(page2.json<EditionsAnswer>().editions[0]!.id).toBeLessThan(
      page1.json<EditionsAnswer>().editions[1]!.id,
    );
  });
});

describe('editions of streamed reports', () => {
  it('a CSV read through a cursor is recorded with its size once sent, its row count unknown', async () => {
    const csv = await api.get(
      api.lyon.headers,
      `bo/getReport?id=${api.lyon.id}&rapportClassName=RapportTickets&format=CSV&dateDebut=2026-11-01&dateFin=2026-11-03`,
    );
    expect(csv.statusCode).toBe(200);
    let edition: EditionsAnswer['editions'][number] | undefined;
    for (let i = 0; i < 50; i++) {
      edition = (
        await api.get(api.lyon.headers, `exports/list?id=${api.lyon.id}&mine=true&limit=1`)
      ).json<EditionsAnswer>().editions[0];
      if (edition?.bytes !== null) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(edition).toMatchObject({
      className: 'RapportTickets',
      format: 'CSV',
      rows: null,
      bytes: csv.rawPayload.length,
    });
  });
});

describe('GET exports/download', () => {
  it('sends an edition again in its format, or in the format asked', async () => {
    const { editions } = (
      await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&mine=true`)
    ).json<EditionsAnswer>();
    const pdfEdition = editions.find((e) => e.format === 'PDF')!;
    const again = await api.get(
      api.manager.headers,
      `exports/download?id=${api.manager.id}&edition=${pdfEdition.id}`,
    );
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe('application/pdf');
    expect(again.headers['content-disposition']).toBe(
      'attachment; filename="ventes_2026-11-02_2026-11-04.pdf"',
    );
    const jsonEdition = editions.find((e) => e.format === 'JSON')!;
    const asCsv = await api.get(
      api.manager.headers,
      `exports/download?id=${api.manager.id}&edition=${jsonEdition.id}&format=CSV`,
    );
    expect(asCsv.statusCode).toBe(200);
    expect(asCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const after = (
      await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&mine=true`)
    ).json<EditionsAnswer>();
    expect(after.editions[0]).toMatchObject({ format: 'CSV', fiscalDates: ['2026-11-01', '2026-11-05'] });
  });

  it('answers 404 for an edition outside the scope or unknown', async () => {
    const { editions } = (
      await api.get(api.manager.headers, `exports/list?id=${api.manager.id}&mine=true`)
    ).json<EditionsAnswer>();
    const paris = editions.find((e) => e.sites.some((s) => s.restaurantId === 1))!;
    const res = await api.get(api.lyon.headers, `exports/download?id=${api.lyon.id}&edition=${paris.id}`);
    expect(res.statusCode).toBe(404);
    const unknown = await api.get(api.lyon.headers, `exports/download?id=${api.lyon.id}&edition=999999`);
    expect(unknown.statusCode).toBe(404);
  });
});
