/**
 * The period and report of a subscription run (subscriptions/report-input.ts): "yesterday" is the
 * day before the planned minute's local date in the subscription's zone; a year earlier moves the
 * whole range back; chosen sites the owner lost are dropped, and none left means no report at all.
 */
import { describe, expect, it } from 'vitest';
import { SubscriptionReportSchema } from '../../../src/contract/subscriptions.ts';
import {
  runPeriod,
  subscriptionInput,
  subscriptionTimeZone,
} from '../../../src/server/subscriptions/report-input.ts';

const at = (text: string) => new Date(text);

describe('runPeriod', () => {
  it('takes "today" in the subscription’s zone: 21:00 UTC on 2 March is already 3 March in Seoul', () => {
    const report = { periode: 'D-1' as const, anneePrecedente: false };
    expect(runPeriod(report, at('2026-03-02T21:00:00Z'), 'Asia/Seoul')).toEqual({
      dateDebut: '2026-03-02',
      dateFin: '2026-03-02',
    });
    expect(runPeriod(report, at('2026-03-02T21:00:00Z'), 'Europe/Paris')).toEqual({
      dateDebut: '2026-03-01',
      dateFin: '2026-03-01',
    });
  });

  it('moves the whole range a year back when asked (last month, last week, a 29 February)', () => {
    expect(
      runPeriod({ periode: 'M-1', anneePrecedente: true }, at('2026-12-07T05:00:00Z'), 'Europe/Paris'),
    ).toEqual({
      dateDebut: '2025-11-01',
      dateFin: '2025-11-30',
    });
    expect(
      runPeriod({ periode: 'W-1', anneePrecedente: false }, at('2026-12-07T05:00:00Z'), 'Europe/Paris'),
    ).toEqual({
      dateDebut: '2026-11-30',
      dateFin: '2026-12-06',
    });
    expect(
      runPeriod({ periode: 'D-1', anneePrecedente: true }, at('2028-03-01T05:00:00Z'), 'Europe/Paris'),
    ).toEqual({
      dateDebut: '2027-02-28',
      dateFin: '2027-02-28',
    });
  });
});

describe('subscriptionTimeZone', () => {
  it('is the sites’ one zone, else the chain’s', () => {
    expect(subscriptionTimeZone(['Asia/Seoul'])).toBe('Asia/Seoul');
    expect(subscriptionTimeZone(['Asia/Seoul', 'Europe/Paris'])).toBe('Europe/Paris');
    expect(subscriptionTimeZone([])).toBe('Europe/Paris');
  });
});

describe('subscriptionInput', () => {
  const period = { dateDebut: '2026-03-02', dateFin: '2026-03-02' };
  const report = SubscriptionReportSchema.parse({ lSites: [1, 2, 3], groupements: [7] });

  it('keeps the chosen sites still in the owner’s scope, with the group as bo/getReport’s filter', () => {
    expect(subscriptionInput(report, null, [2, 3, 9], period, 'XLSX', 'de')).toMatchObject({
      rapportClassName: 'RapportVentes',
      sites: [2, 3],
      format: 'XLSX',
      language: 'de',
      isFilters: true,
      filtre: 'GROUPE',
      condition: ['7'],
      ...period,
    });
  });

  it('gives no report when the owner lost every chosen site, rather than every site of the scope', () => {
    expect(subscriptionInput(report, null, [9], period, 'PDF', 'fr')).toBeNull();
    expect(subscriptionInput(SubscriptionReportSchema.parse({}), null, [], period, 'PDF', 'fr')).toBeNull();
    expect(
      subscriptionInput(SubscriptionReportSchema.parse({}), null, [9], period, 'PDF', 'fr')?.sites,
    ).toEqual([]);
  });
});
