/**
 * Offline copies of read-only answers outlive an update of the app (IndexedDB,
 * lib/outbox/offline-copy-store.ts): an answer kept by the version before decision 0028 has no
 * `soFar` (GET bo/home/ventes) and no `netSoFarCents` / `until` (GET bo/bi/tracker). The schemas
 * the screens read them with must still accept them, as answers without those figures, rather
 * than fail and show nothing offline.
 */
import { describe, expect, it } from 'vitest';
import { BiTrackerAnswerSchema } from '../../src/contract/bi.ts';
import { HomeSalesAnswerSchema } from '../../src/contract/home.ts';

const day = (fiscalDate: string) => ({
  fiscalDate,
  tickets: 2,
  netSales: 3000,
  covers: 2,
  averageTicket: 1500,
});

describe('answers kept by the version before like-for-like comparisons', () => {
  it('the home sales card reads one without soFar as a day compared whole', () => {
    const earlier = {
      data: {
        currency: 'EUR',
        days: [day('2026-11-25'), day('2026-11-26')],
        lastYear: day('2025-11-27'),
        forecastCents: null,
        dayParts: [],
      },
    };
    expect(HomeSalesAnswerSchema.parse(earlier).data.soFar).toBeNull();
  });

  it('the tracker reads one without netSoFarCents and until', () => {
    const earlier = {
      data: {
        currency: 'EUR',
        refreshedAt: '2026-11-26T10:00:00.000Z',
        sites: [
          {
            siteId: 1,
            libelle: 'Paris',
            fiscalDate: '2026-11-26',
            hours: [],
            netCents: 4000,
            lastYearSameTimeCents: 1500,
            lastYearDayCents: 9000,
            forecastCents: null,
            rank: 1,
          },
        ],
      },
    };
    expect(BiTrackerAnswerSchema.parse(earlier).data.sites[0]).toMatchObject({
      netSoFarCents: null,
      until: null,
    });
  });
});
