/**
 * Display helpers of the exports list: sizes, periods, sites and the format an edition is
 * downloaded again in.
 */
import { describe, expect, it } from 'vitest';
import {
  downloadFormat,
  editionPeriod,
  editionSites,
  formatBytes,
} from '../../src/client/features/exports/export-queries.ts';

describe('exports list helpers', () => {
  it('shows sizes in decimal units in the interface language, a dash when unknown', () => {
    // Intl puts no-break spaces (narrow ones in French) between number and unit.
    const size = (bytes: number, locale: string) => formatBytes(bytes, locale).replace(/\s/gu, ' ');
    expect(size(812, 'fr')).toBe('812 o');
    expect(size(14_230, 'en')).toBe('14.2 kB');
    expect(size(3_100_000, 'fr')).toBe('3,1 Mo');
    expect(size(3_100_000, 'de')).toBe('3,1 MB');
    expect(formatBytes(null, 'fr')).toBe('–');
  });

  it('shows one day, a range, or the explicit fiscal dates, DD/MM/YYYY', () => {
    expect(editionPeriod({ dateDebut: '2026-11-03', dateFin: '2026-11-03', fiscalDates: null })).toBe(
      '03/11/2026',
    );
    expect(editionPeriod({ dateDebut: '2026-11-01', dateFin: '2026-11-10', fiscalDates: null })).toBe(
      '01/11/2026 – 10/11/2026',
    );
    expect(
      editionPeriod({
        dateDebut: '2026-11-01',
        dateFin: '2026-11-05',
        fiscalDates: ['2026-11-01', '2026-11-05'],
      }),
    ).toBe('01/11/2026, 05/11/2026');
  });

  it('names up to three sites, then counts the others', () => {
    const sites = ['Paris', 'Lyon', 'Lille', 'Nantes', 'Brest'].map((libelle, i) => ({
      restaurantId: i + 1,
      libelle,
    }));
    expect(editionSites({ sites: sites.slice(0, 3) })).toBe('Paris, Lyon, Lille');
    expect(editionSites({ sites })).toBe('Paris, Lyon, Lille +2');
  });

  it('downloads a screen preview (JSON) again as a PDF, any other edition in its own format', () => {
    expect(downloadFormat({ format: 'JSON' })).toBe('PDF');
    expect(downloadFormat({ format: 'CSV' })).toBe('CSV');
    expect(downloadFormat({ format: 'XLSX' })).toBe('XLSX');
  });
});
