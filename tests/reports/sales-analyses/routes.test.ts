import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../../src/server/reports/render/pdf.ts';
import type { AuthHeaders } from '../../helpers/app.ts';
import { setUpReportApp } from '../../helpers/report-app.ts';
import { FR_RENDER_OPTIONS } from '../../helpers/report-datasets.ts';
import { LYON, MANAGER } from '../../helpers/report-users.ts';
import { pdfPagesText } from '../pdf-text.ts';
import { input, loadChain } from './chain.ts';
import { byDayPart, byTerminal, FR_DAY_PARTS, selectTickets } from './expected.ts';
import { datasetAnswer } from '../../helpers/dataset-answer.ts';

const PERIOD = 'dateDebut=2026-11-01&dateFin=2026-11-10';

const api = setUpReportApp({
  password: 'Rapp0rts!-secret',
  users: { manager: MANAGER, lyon: LYON },
  load: async (database) => ({ tickets: await loadChain(database) }),
});

function getReport(headers: AuthHeaders, id: number, className: string, query: string) {
  return api.get(headers, `bo/getReport?id=${id}&rapportClassName=${className}&${query}`);
}

describe('GET bo/getReport for the sales analyses', () => {
  it('downloads sales by day part as a French CSV whose figures are those of the tickets', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      'RapportVentesTranche',
      `${PERIOD}&format=CSV&sites[]=1&sites[]=2`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ventes_par_moment_2026-11-01_2026-11-10.csv"',
    );
    const records: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, delimiter: ';' });
    expect(records[0]).toEqual([
      'Moment de la journée',
      'Horaires',
      'Tickets',
      'CA TTC',
      'CA HT',
      'Ticket moyen',
      'Part',
    ]);
    const expected = byDayPart(selectTickets(api.tickets, input('RapportVentesTranche')));
    expect(records.slice(1, -1).map((r) => r[0])).toEqual(FR_DAY_PARTS.map(([label]) => label));
    const euros = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');
    expect(records.slice(1, -1).map((r) => r[3])).toEqual(
      expected.rows.map((r) => euros(r.netSales as number)),
    );
    expect(records.at(-1)!.slice(0, 4)).toEqual([
      'Total',
      '',
      String(expected.totals.tickets),
      euros(expected.totals.netSales as number),
    ]);
    expect(records.at(-1)![6]).toBe('100,00');
  });

  it('downloads sales by day part as a PDF with its translated file name', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      'RapportVentesTranche',
      `${PERIOD}&format=PDF&language=en&sites[]=1&sites[]=2`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sales_by_time_of_day_2026-11-01_2026-11-10.pdf"',
    );
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The same dataset, written uncompressed, reads back with its title, day parts and shares.
    const json = await getReport(
      api.manager.headers,
      api.manager.id,
      'RapportVentesTranche',
      `${PERIOD}&format=JSON&language=en&sites[]=1&sites[]=2`,
    );
    const dataset = datasetAnswer(json);
    const page = pdfPagesText(await renderPdf(dataset, { ...FR_RENDER_OPTIONS, language: 'en' }, false))[0]!;
    // Long cells wrap ("Late- night peak"), so only unbroken words are looked for.
    for (const text of ['Sales by time of day', 'Late-', 'Afternoon', 'Share', '100.0%']) {
      expect(page).toContain(text);
    }
  });

  it("keeps a site-scoped user to the site's own terminals", async () => {
    const res = await getReport(
      api.lyon.headers,
      api.lyon.id,
      'RapportVentesCaisse',
      `${PERIOD}&format=JSON`,
    );
    expect(res.statusCode).toBe(200);
    const d = datasetAnswer(res);
    expect(d.rows).toEqual(
      byTerminal(selectTickets(api.tickets, input('RapportVentesCaisse', { sites: [2] }))).rows,
    );
    expect(new Set(d.rows.map((r) => r.siteId))).toEqual(new Set([2]));
    const outside = await getReport(
      api.lyon.headers,
      api.lyon.id,
      'RapportVentesCaisse',
      `${PERIOD}&format=JSON&sites[]=1`,
    );
    expect(outside.statusCode).toBe(403);
  });

  it('lists the analyses in bo/rapport/metrics with their titles', async () => {
    const res = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}&language=de`);
    const editions = res.json<{ editions: Array<{ className: string; localisedTitle: string }> }>().editions;
    expect(editions).toContainEqual(
      expect.objectContaining({
        className: 'RapportVentesComparaison',
        localisedTitle: 'Umsatz im Vorjahresvergleich',
      }),
    );
    expect(editions).toContainEqual(
      expect.objectContaining({ className: 'RapportVentesHoraire', localisedTitle: 'Umsatz nach Uhrzeit' }),
    );
  });
});
