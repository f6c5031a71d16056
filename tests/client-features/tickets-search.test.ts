import { describe, expect, it } from 'vitest';
import { TICKET_SEARCH_MAX_DAYS } from '../../src/contract/tickets.ts';
import {
  buildTicketSearchParams,
  pageCount,
  parseAmount,
  precheckTicketSearch,
  readAmounts,
  splitLocal,
  type TicketSearchInput,
} from '../../src/client/features/tickets/ticket-search.ts';
import { toSearchParams } from '../../src/client/lib/http.ts';

describe('amounts typed on /tickets', () => {
  it.each([
    ['12', 1200],
    ['12,5', 1250],
    ['12.50', 1250],
    ['0,05', 5],
    ['12,', 1200],
    [',5', 50],
    ['1 234,56', 123456],
    ['1\u202f234,56', 123456],
    ["1'234.56", 123456],
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['1.234.567', 123456700],
    ['-8,90', -890],
    ['−8,90', -890],
    ['12,50 €', 1250],
    ['£ 7.5', 750],
  ])('reads "%s" as %i cents', (text, cents) => {
    expect(parseAmount(text)).toEqual({ ok: true, cents });
  });

  it('reads an empty field as no bound', () => {
    expect(parseAmount('')).toEqual({ ok: true, cents: null });
    expect(parseAmount('   ')).toEqual({ ok: true, cents: null });
  });

  it.each(['abc', '12,5x', '1,2,3,4', '1.2.3', '12.34,56,7', ',', '-', '1,23.45.6', '12-5', '9999999999999'])(
    'refuses "%s"',
    (text) => {
      expect(parseAmount(text)).toEqual({ ok: false, error: 'badAmount' });
    },
  );

  it('refuses more than two decimals rather than guessing a thousands mark', () => {
    expect(parseAmount('1.234')).toEqual({ ok: false, error: 'tooManyDecimals' });
    expect(parseAmount('12,505')).toEqual({ ok: false, error: 'tooManyDecimals' });
  });

  it('says which field is wrong, and when the minimum is above the maximum', () => {
    expect(readAmounts('abc', '10')).toEqual({
      errors: { amountMin: 'badAmount' },
      minCents: null,
      maxCents: 1000,
    });
    expect(readAmounts('20', '10,5')).toEqual({
      errors: { amountRange: 'minAboveMax' },
      minCents: 2000,
      maxCents: 1050,
    });
    expect(readAmounts('', '')).toEqual({ errors: {}, minCents: null, maxCents: null });
  });
});

const base: TicketSearchInput = {
  userId: 4,
  range: { dateDebut: '2026-10-01', dateFin: '2026-10-31' },
  siteIds: [2, 5],
  terminalKeys: [],
  sellerKeys: [],
  hours: null,
  minCents: null,
  maxCents: null,
  criteria: [],
  page: 1,
};

describe('bo/tickets/search parameters', () => {
  it('sends the period, the sites as sites[] and the page, and leaves every unset filter out', () => {
    expect(toSearchParams(buildTicketSearchParams(base)).toString()).toBe(
      'id=4&dateDebut=2026-10-01&dateFin=2026-10-31&sites%5B%5D=2&sites%5B%5D=5&page=1&pageSize=50',
    );
  });

  it('sends terminals as tpv[] numbers, sellers comma-joined, hours, amounts in cents and criteria as criteres[]', () => {
    const query = toSearchParams(
      buildTicketSearchParams({
        ...base,
        terminalKeys: ['2:1', '5:1', '5:3'],
        sellerKeys: ['2:V01', '5:Dupont, Marie'],
        hours: { heureDebut: '11:30', heureFin: '14:00' },
        minCents: -500,
        maxCents: 2550,
        criteria: ['corrections', 'cancellations', 'corrections'],
        page: 3,
        pageSize: 20,
      }),
    );
    expect(query.getAll('tpv[]')).toEqual(['1', '3']);
    expect(query.get('vendeurs')).toBe('V01,Dupont{{comma}} Marie');
    expect(query.get('heureDebut')).toBe('11:30');
    expect(query.get('heureFin')).toBe('14:00');
    expect(query.get('montantMin')).toBe('-500');
    expect(query.get('montantMax')).toBe('2550');
    expect(query.getAll('criteres[]')).toEqual(['corrections', 'cancellations']);
    expect(query.get('page')).toBe('3');
    expect(query.get('pageSize')).toBe('20');
  });

  it('keeps a zero amount bound (zero is a bound, not "no bound")', () => {
    const query = toSearchParams(buildTicketSearchParams({ ...base, minCents: 0, maxCents: 0 }));
    expect(query.get('montantMin')).toBe('0');
    expect(query.get('montantMax')).toBe('0');
  });

  it('stops a search without site or over the maximum period before calling the server', () => {
    expect(precheckTicketSearch({ siteIds: [], range: base.range })).toEqual({ code: 'NoSitesSelected' });
    expect(
      precheckTicketSearch({ siteIds: [1], range: { dateDebut: '2026-01-01', dateFin: '2026-12-31' } }),
    ).toEqual({ code: 'MaxReportDays', values: { maxDays: TICKET_SEARCH_MAX_DAYS } });
    expect(precheckTicketSearch({ siteIds: [1], range: base.range })).toBeNull();
  });

  it('counts pages (at least one) and splits the site clock into date and time', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
    expect(splitLocal('2026-10-03T21:07:59')).toEqual({ date: '2026-10-03', time: '21:07' });
  });
});
