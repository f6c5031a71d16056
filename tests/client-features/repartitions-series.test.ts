import { describe, expect, it } from 'vitest';
import type { DistributionAnswer } from '../../src/contract/distributions.ts';
import {
  buildDistributionParams,
  distributionBars,
} from '../../src/client/features/analyses/distribution.ts';

const answer: DistributionAnswer = {
  typeRepartition: 'PAIEMENT',
  statut: 'TOUS',
  currency: 'EUR',
  dateDebut: '2026-11-01',
  dateFin: '2026-11-07',
  totalCents: 12_000,
  rows: [
    { key: 'CARD', label: 'Carte', tickets: 8, amountCents: 9_000, share: 0.75 },
    { key: 'CASH', label: 'Espèces', tickets: 3, amountCents: 3_333, share: 0.277_75 },
    { key: 'OTHER', label: 'Autre', tickets: 1, amountCents: -333, share: -0.027_75 },
  ],
};

describe('distribution request', () => {
  it('sends the effective sites comma-separated with the type, status, dates and language', () => {
    const params = buildDistributionParams({
      userId: 7,
      type: 'FAMILLE',
      status: 'VENTE',
      siteIds: [3, 12],
      range: { dateDebut: '2026-01-01', dateFin: '2026-01-31' },
      language: 'de',
    });
    expect(params).toEqual({
      id: 7,
      typeRepartition: 'FAMILLE',
      statut: 'VENTE',
      site: '3,12',
      dateDebut: '2026-01-01',
      dateFin: '2026-01-31',
      language: 'de',
    });
  });
});

describe('distribution bars', () => {
  it('keeps the server order and turns fractional shares into percent rounded to a tenth', () => {
    const bars = distributionBars(answer);
    expect(bars.map((b) => b.key)).toEqual(['CARD', 'CASH', 'OTHER']);
    expect(bars.map((b) => b.sharePercent)).toEqual([75, 27.8, -2.8]);
  });

  it('keeps tickets and amounts in cents as the server sent them, negative parts included', () => {
    const bars = distributionBars(answer);
    expect(bars[2]).toEqual({
      key: 'OTHER',
      label: 'Autre',
      tickets: 1,
      amountCents: -333,
      sharePercent: -2.8,
    });
  });

  it('puts the hours of the day back in clock order', () => {
    const hours = distributionBars({
      ...answer,
      typeRepartition: 'TRANCHE',
      rows: [
        { key: '12', label: '12:00–13:00', tickets: 40, amountCents: 60_000, share: 0.6 },
        { key: '19', label: '19:00–20:00', tickets: 20, amountCents: 30_000, share: 0.3 },
        { key: '08', label: '08:00–09:00', tickets: 15, amountCents: 10_000, share: 0.1 },
      ],
    });
    expect(hours.map((b) => b.key)).toEqual(['08', '12', '19']);
  });

  it('answers no bar for an empty period', () => {
    expect(distributionBars({ ...answer, rows: [], totalCents: 0 })).toEqual([]);
  });
});
