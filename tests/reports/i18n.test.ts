import { describe, expect, it } from 'vitest';
import { LANGUAGES, REPORT_VARIANTS } from '../../src/contract/reports.ts';
import {
  formatCentsPlain,
  formatDate,
  formatInstant,
  formatMoney,
  formatNumber,
  hasMessage,
  message,
  MissingMessageError,
} from '../../src/server/i18n.ts';
import { REPORT_CLASSES } from '../../src/server/reports/registry.ts';
import { SALES_COLUMN_KEYS } from '../helpers/report-datasets.ts';

const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('server-side messages', () => {
  it('reads the same catalogues as the screens, with ICU values, per language', () => {
    expect(message('fr', 'report.pdf.page', { page: 2, pages: 5 })).toBe('Page 2 / 5');
    expect(message('en', 'report.pdf.page', { page: 2, pages: 5 })).toBe('Page 2 of 5');
    expect(message('de', 'report.pdf.page', { page: 2, pages: 5 })).toBe('Seite 2 von 5');
    expect(message('de', 'error.MaxReportDays', { maxDays: 400 })).toContain('400');
  });

  it('refuses an id the catalogue lacks instead of printing the raw key', () => {
    expect(() => message('fr', 'report.nope')).toThrow(MissingMessageError);
  });

  it('has every message a report document uses in fr, en and de', () => {
    const ids = [
      'report.total',
      'report.pdf.chain',
      'report.pdf.sites',
      'report.pdf.period',
      'report.pdf.dates',
      'report.pdf.hours',
      'report.pdf.currency',
      'report.pdf.generatedAt',
      'report.pdf.page',
      'report.pdf.empty',
      'report.pdf.trainingMode',
      'error.mixedCurrencies',
      ...REPORT_VARIANTS.map((v) => `report.variant.${v}`),
      ...REPORT_CLASSES.flatMap((c) => [c.titleId, c.fileNameId]),
      ...SALES_COLUMN_KEYS.map((k) => `report.column.${k}`),
    ];
    for (const language of LANGUAGES) {
      expect(
        ids.filter((id) => !hasMessage(language, id)),
        language,
      ).toEqual([]);
    }
  });
});

describe('document formats', () => {
  it("writes money in the currency with each language's separators", () => {
    expect(spaces(formatMoney('fr', 123456, 'EUR'))).toBe('1 234,56 €');
    expect(formatMoney('en', 123456, 'EUR')).toBe('€1,234.56');
    expect(spaces(formatMoney('de', -123456, 'EUR'))).toBe('-1.234,56 €');
    expect(formatMoney('en', 5, 'GBP')).toBe('£0.05');
  });

  it('writes plain amounts for CSV with two decimals, exact for any whole number of cents', () => {
    expect(formatCentsPlain('fr', 123456)).toBe('1234,56');
    expect(formatCentsPlain('en', 123456)).toBe('1234.56');
    expect(formatCentsPlain('de', -5)).toBe('-0,05');
    expect(formatCentsPlain('fr', 100)).toBe('1,00');
    expect(formatCentsPlain('en', 900_719_925_474_099)).toBe('9007199254740.99');
  });

  it('groups numbers per language and shows dates DD/MM/YYYY in every language', () => {
    expect(spaces(formatNumber('fr', 12345))).toBe('12 345');
    expect(formatNumber('de', 12345.5, 2)).toBe('12.345,50');
    expect(formatDate('2026-11-01')).toBe('01/11/2026');
  });

  it("shows an instant in the site's clock, summer and winter time alike", () => {
    expect(formatInstant(new Date('2026-07-14T10:05:00Z'), 'Europe/Paris')).toEqual({
      date: '14/07/2026',
      time: '12:05',
    });
    expect(formatInstant(new Date('2026-12-31T23:30:00Z'), 'Europe/Paris')).toEqual({
      date: '01/01/2027',
      time: '00:30',
    });
    expect(formatInstant(new Date('2026-12-31T23:30:00Z'), 'Europe/London')).toEqual({
      date: '31/12/2026',
      time: '23:30',
    });
  });
});
