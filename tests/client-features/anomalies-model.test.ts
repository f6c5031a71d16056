/**
 * The pure rules of /anomalies (features/anomalies/anomalies.ts): the default period, when the
 * shared selection's period is too short, how each measure reads in each language, and the
 * drill-down's search into /tickets.
 */
import { describe, expect, it } from 'vitest';
import type { Anomaly } from '../../src/contract/anomalies.ts';
import {
  applyAnomalyLink,
  buildAnomalyParams,
  defaultAnomalyPeriod,
  explanationValues,
  formatMeasure,
  isSingleDay,
  ticketLinkSearch,
} from '../../src/client/features/anomalies/anomalies.ts';
import { parseTicketLink } from '../../src/client/features/tickets/ticket-link.ts';
import { selection } from '../../src/client/selection/selection-state.ts';

const anomaly: Anomaly = {
  siteId: 4,
  site: 'Lyon',
  currency: 'EUR',
  kind: 'seller',
  key: 'V02',
  name: 'Bruno',
  measure: 'cancellations',
  value: 4.237,
  peerMedian: 1,
  peerScope: 'site',
  peers: 6,
  historyMedian: 1.06,
  historyWeeks: 8,
  zPeer: 6.1,
  zHistory: 5.2,
  severity: 5.2,
  tickets: 800,
  events: 34,
};
const range = { dateDebut: '2026-03-02', dateFin: '2026-03-29' };

describe('/anomalies rules', () => {
  it('starts from the 28 days ending yesterday, and replaces only a single-day period', () => {
    expect(defaultAnomalyPeriod(new Date(2026, 2, 30, 10))).toEqual({
      kind: 'custom',
      debut: '02/03/2026',
      fin: '29/03/2026',
    });
    expect(isSingleDay({ kind: 'code', code: 'D' })).toBe(true);
    expect(isSingleDay({ kind: 'code', code: 'D-1' })).toBe(true);
    expect(isSingleDay({ kind: 'code', code: 'M-1' })).toBe(false);
    expect(isSingleDay({ kind: 'custom', debut: '05/03/2026', fin: '05/03/2026' })).toBe(true);
    expect(isSingleDay({ kind: 'custom', debut: '01/03/2026', fin: '05/03/2026' })).toBe(false);
  });

  it('asks for the sites comma-separated with the period', () => {
    expect(buildAnomalyParams({ userId: 3, siteIds: [1, 4], range })).toEqual({
      id: 3,
      sites: '1,4',
      ...range,
    });
  });

  it('reads rates with one decimal, shares as percent and cash as money, in the user’s language', () => {
    expect(explanationValues(anomaly, 'fr')).toEqual({
      value: '4,2',
      peerMedian: '1,0',
      historyMedian: '1,1',
    });
    expect(explanationValues(anomaly, 'en').value).toBe('4.2');
    expect(formatMeasure('discountShare', 3.25, 'EUR', 'de')).toMatch(/^3,3\s?%$/);
    expect(formatMeasure('cashVariance', 2488.8, 'EUR', 'fr')).toMatch(/^24,89\s€$/);
  });

  it('drills down to the seller or the terminal, the period and the matching criterion', () => {
    expect(ticketLinkSearch(anomaly, range)).toEqual({
      site: 4,
      vendeur: 'V02',
      ...range,
      critere: 'cancellations',
    });
    expect(
      ticketLinkSearch({ ...anomaly, kind: 'terminal', key: '3', measure: 'cashVariance' }, range),
    ).toEqual({
      site: 4,
      caisse: 3,
      ...range,
      critere: 'cashed',
    });
    expect(ticketLinkSearch({ ...anomaly, measure: 'discounts' }, range)).toEqual({
      site: 4,
      vendeur: 'V02',
      ...range,
    });
  });

  it('/tickets reads what a link says and drops what it cannot read', () => {
    expect(parseTicketLink({ site: 4, vendeur: 'V02', ...range, critere: 'cancellations' })).toEqual({
      site: 4,
      vendeur: 'V02',
      ...range,
      critere: 'cancellations',
    });
    expect(
      parseTicketLink({
        site: '4',
        caisse: '3',
        dateDebut: '2026-03-29',
        dateFin: '2026-03-02',
        critere: 'x',
      }),
    ).toEqual({
      site: 4,
      caisse: 3,
    });
    expect(
      parseTicketLink({ site: -1, caisse: 99999999999, dateDebut: '2026-02-30', dateFin: '2026-03-02' }),
    ).toEqual({});
  });
});

describe('a link into /anomalies (the new-anomaly alert mail)', () => {
  it('chooses the site and period of the link, and leaves the selection alone when it is unreadable', () => {
    expect(applyAnomalyLink({ site: '3', dateDebut: '2026-02-25', dateFin: '2026-03-24' })).toBe(true);
    expect(selection.restaurantIds).toEqual([3]);
    expect(selection.groupId).toBeNull();
    expect(selection.period).toEqual({ kind: 'custom', debut: '25/02/2026', fin: '24/03/2026' });
    for (const bad of [
      {},
      { site: 'x', dateDebut: '2026-02-25', dateFin: '2026-03-24' },
      { site: '3', dateDebut: '2026-03-25', dateFin: '2026-03-24' },
      { site: '3', dateDebut: '2026-02-30', dateFin: '2026-03-24' },
    ]) {
      expect(applyAnomalyLink(bad)).toBe(false);
    }
    expect(selection.restaurantIds).toEqual([3]);
  });
});
