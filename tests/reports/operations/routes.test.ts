import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../../src/server/reports/render/pdf.ts';
import type { AuthHeaders } from '../../helpers/app.ts';
import { setUpReportApp } from '../../helpers/report-app.ts';
import { FR_RENDER_OPTIONS } from '../../helpers/report-datasets.ts';
import { LYON, MANAGER } from '../../helpers/report-users.ts';
import { pdfPagesText } from '../pdf-text.ts';
import { loadFixture } from './fixture.ts';
import { datasetAnswer } from '../../helpers/dataset-answer.ts';

const api = setUpReportApp({
  password: 'Rapp0rts!-secret',
  users: { manager: MANAGER, lyon: LYON },
  load: loadFixture,
});

const PERIOD = 'dateDebut=2026-11-01&dateFin=2026-11-05';

function getReport(headers: AuthHeaders, id: number, query: string) {
  return api.get(headers, `bo/getReport?id=${id}&${query}`);
}

describe('operations and finance classes through bo/getReport', () => {
  it('are listed by bo/rapport/metrics with their titles and maximum days', async () => {
    const res = await api.get(api.manager.headers, `bo/rapport/metrics?id=${api.manager.id}&language=de`);
    const editions = res.json<{
      editions: Array<{ className: string; localisedTitle: string; maxDays: number }>;
    }>().editions;
    const byName = new Map(editions.map((e) => [e.className, e]));
    for (const name of [
      'RapportTickets',
      'RapportAnnulations',
      'RapportCorrections',
      'RapportPertes',
      'RapportFinance',
      'RapportTva',
      'RapportZ',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get('RapportZ')).toMatchObject({
      localisedTitle: 'Z-Bericht (Tagesabschluss)',
      maxDays: 31,
    });
    expect(byName.get('RapportTickets')?.maxDays).toBe(31);
  });

  it('downloads the cancellations as a French CSV whose totals match the tickets', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `rapportClassName=RapportAnnulations&${PERIOD}&format=CSV&sites[]=1&sites[]=2`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="annulations_2026-11-01_2026-11-05.csv"',
    );
    const records: string[][] = parse(res.rawPayload.toString('utf8'), { bom: true, delimiter: ';' });
    expect(records[0]).toEqual([
      'Date fiscale',
      'N° site',
      'Site',
      'Lignes annulées avant encaissement',
      'Articles annulés avant encaissement',
      'Montant annulé avant encaissement',
      'Tickets annulés après encaissement',
      'Montant annulé après encaissement',
    ]);
    const cancelled = api.tickets.filter(
      (k) => [1, 2].includes(k.siteId) && !k.trainingMode && k.kind === 'CANCELLATION',
    );
    const last = records.at(-1)!;
    expect(last[0]).toBe('Total');
    expect(last[6]).toBe(String(cancelled.length));
    expect(last[7]).toBe((-cancelled.reduce((s, k) => s + k.total, 0) / 100).toFixed(2).replace('.', ','));
  });

  it('downloads the cancellations as a PDF with its translated file name', async () => {
    const res = await getReport(
      api.manager.headers,
      api.manager.id,
      `rapportClassName=RapportAnnulations&${PERIOD}&format=PDF&language=en&sites[]=1`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="cancellations_2026-11-01_2026-11-05.pdf"',
    );
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('prints the Z report in a PDF as the till does, one line per item', async () => {
    const res = await getReport(
      api.lyon.headers,
      api.lyon.id,
      `rapportClassName=RapportZ&dateDebut=2026-11-03&dateFin=2026-11-03&format=JSON`,
    );
    expect(res.statusCode).toBe(200);
    const dataset = datasetAnswer(res);
    expect(dataset.sites).toEqual([{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }]);
    const pdf = await renderPdf(dataset, FR_RENDER_OPTIONS, false);
    const text = pdfPagesText(pdf).join(' ');
    for (const item of [
      'Tickets (CA TTC)',
      'Total TVA',
      'Annulations après encaissement',
      'Premier ticket',
      'Dernier ticket',
    ]) {
      expect(text).toContain(item);
    }
  });

  it('answers 403 for a site outside the scope and 400 MaxReportDays past a class maximum', async () => {
    const outside = await getReport(
      api.lyon.headers,
      api.lyon.id,
      `rapportClassName=RapportCorrections&${PERIOD}&format=JSON&sites[]=1`,
    );
    expect(outside.statusCode).toBe(403);
    const long = await getReport(
      api.manager.headers,
      api.manager.id,
      'rapportClassName=RapportZ&dateDebut=2026-10-01&dateFin=2026-11-05&format=JSON',
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: 31 } });
  });
});
