import { describe, expect, it } from 'vitest';
import { decodeSellers, encodeSellers, SELLER_COMMA_MARKER } from '../../src/contract/reports.ts';
import { toSearchParams } from '../../src/client/lib/http.ts';
import {
  buildReportParams,
  precheckReport,
  type ReportRequestInput,
} from '../../src/client/lib/report-request.ts';

const base: ReportRequestInput = {
  userId: 7,
  className: 'RapportVentes',
  typeRapport: 'Daily',
  format: 'PDF',
  language: 'de',
  range: { dateDebut: '2024-05-01', dateFin: '2024-05-15' },
  siteIds: [3, 1],
  terminalKeys: [],
  sellerKeys: [],
  trancheHoraire: false,
  heureDebut: '12:00',
  heureFin: '23:00',
};

describe('bo/getReport parameters', () => {
  it('sends every parameter of SPEC.md §7 under its wire name, sites as repeated sites[]', () => {
    const query = toSearchParams(buildReportParams(base)).toString();
    expect(query).toBe(
      'id=7&rapportClassName=RapportVentes&typeRapport=Daily&dateDebut=2024-05-01&dateFin=2024-05-15' +
        '&operation=VENTE&format=PDF&sites%5B%5D=3&sites%5B%5D=1&trancheHoraire=false&heureDebut=12%3A00' +
        '&heureFin=23%3A00&language=de',
    );
  });

  it('sends chosen terminals as tpv[] numbers, once each even when two sites share a number', () => {
    const params = toSearchParams(buildReportParams({ ...base, terminalKeys: ['1:2', '3:2', '3:5'] }));
    expect(params.getAll('tpv[]')).toEqual(['2', '5']);
  });

  it('sends chosen sellers as comma-joined codes with the marker standing for a comma inside one', () => {
    const params = toSearchParams(buildReportParams({ ...base, sellerKeys: ['1:DUPONT, Jean', '3:S:12'] }));
    expect(params.get('vendeurs')).toBe(`DUPONT${SELLER_COMMA_MARKER} Jean,S:12`);
  });

  it('sends the hour range with trancheHoraire on', () => {
    const params = toSearchParams(
      buildReportParams({ ...base, trancheHoraire: true, heureDebut: '18:00', heureFin: '02:00' }),
    );
    expect([params.get('trancheHoraire'), params.get('heureDebut'), params.get('heureFin')]).toEqual([
      'true',
      '18:00',
      '02:00',
    ]);
  });
});

describe('sort and grouping', () => {
  it('sends tri as the column key, with :desc when descending, and regroupement when chosen', () => {
    const params = toSearchParams(
      buildReportParams({ ...base, sortKey: 'netSales', sortDescending: true, groupBy: 'SITE' }),
    );
    expect([params.get('tri'), params.get('regroupement')]).toEqual(['netSales:desc', 'SITE']);
    const ascending = toSearchParams(
      buildReportParams({ ...base, sortKey: 'fiscalDate', sortDescending: false }),
    );
    expect([ascending.get('tri'), ascending.has('regroupement')]).toEqual(['fiscalDate', false]);
  });

  it('sends a filter as isFilters, filtre and repeated condition[] values, and nothing without a value', () => {
    const params = toSearchParams(
      buildReportParams({ ...base, filter: { filtre: 'FAMILLE', values: ['Boissons', 'Plats'] } }),
    );
    expect([params.get('isFilters'), params.get('filtre'), params.getAll('condition[]')]).toEqual([
      'true',
      'FAMILLE',
      ['Boissons', 'Plats'],
    ]);
    const none = toSearchParams(buildReportParams({ ...base, filter: { filtre: 'FAMILLE', values: [] } }));
    expect([none.has('isFilters'), none.has('filtre'), none.has('condition[]')]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('leaves both out when nothing is chosen', () => {
    const params = toSearchParams(buildReportParams({ ...base, sortKey: null, groupBy: null }));
    expect([params.has('tri'), params.has('regroupement')]).toEqual([false, false]);
  });
});

describe('seller comma marker', () => {
  it('round-trips seller names holding commas', () => {
    const names = ['Martin, Paul', 'Zoé', 'A,B,C'];
    const text = encodeSellers(names);
    expect(text.split(',')).toHaveLength(3);
    expect(decodeSellers(text)).toEqual(names);
    expect(decodeSellers('')).toEqual([]);
  });
});

describe('checks before calling the server', () => {
  const range = { dateDebut: '2024-01-01', dateFin: '2024-01-31' };
  it('asks for a report, then a site, then a period within the class maximum', () => {
    expect(precheckReport({ className: null, siteIds: [1], range, maxDays: 400 })).toEqual({
      code: 'NoReportInState',
    });
    expect(precheckReport({ className: 'RapportVentes', siteIds: [], range, maxDays: 400 })).toEqual({
      code: 'NoSitesSelected',
    });
    expect(precheckReport({ className: 'RapportVentes', siteIds: [1], range, maxDays: 30 })).toEqual({
      code: 'MaxReportDays',
      values: { maxDays: 30 },
    });
    expect(precheckReport({ className: 'RapportVentes', siteIds: [1], range, maxDays: 31 })).toBeNull();
  });
});

describe('operation, separate days, training mode and one site (issue #32 B)', () => {
  it('sends the chosen operation, VENTE when none is chosen', () => {
    expect(toSearchParams(buildReportParams(base)).get('operation')).toBe('VENTE');
    expect(toSearchParams(buildReportParams({ ...base, operation: 'ANNULATION' })).get('operation')).toBe(
      'ANNULATION',
    );
  });

  it('sends separate days as datefiscales[] in place of dateDebut and dateFin', () => {
    const params = toSearchParams(
      buildReportParams({ ...base, fiscalDates: ['2024-05-01', '2024-05-08', '2024-05-15'] }),
    );
    expect(params.getAll('datefiscales[]')).toEqual(['2024-05-01', '2024-05-08', '2024-05-15']);
    expect(params.has('dateDebut')).toBe(false);
    expect(params.has('dateFin')).toBe(false);
  });

  it('sends trainingMode=true only while training mode is on', () => {
    expect(toSearchParams(buildReportParams(base)).has('trainingMode')).toBe(false);
    expect(toSearchParams(buildReportParams({ ...base, trainingMode: true })).get('trainingMode')).toBe(
      'true',
    );
  });

  it('refuses more than one site where one is allowed (multiSitesTooMuch), before the server', () => {
    const input = { className: 'RapportVentes', range: base.range, maxDays: 31 };
    expect(precheckReport({ ...input, siteIds: [1, 2], oneSite: true })).toEqual({
      code: 'multiSitesTooMuch',
    });
    expect(precheckReport({ ...input, siteIds: [1], oneSite: true })).toBeNull();
  });

  it('bounds separate days by their number, not by the span from the first to the last', () => {
    const input = { className: 'RapportVentes', siteIds: [1], maxDays: 2 };
    const far = { dateDebut: '2024-01-01', dateFin: '2024-06-01' };
    expect(precheckReport({ ...input, range: far, fiscalDates: ['2024-01-01', '2024-06-01'] })).toBeNull();
    expect(
      precheckReport({ ...input, range: far, fiscalDates: ['2024-01-01', '2024-03-01', '2024-06-01'] }),
    ).toEqual({ code: 'MaxReportDays', values: { maxDays: 2 } });
  });
});
