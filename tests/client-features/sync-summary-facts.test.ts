/**
 * /sync's facts of a write waiting on the device (issue #32 D.4): the site by its name, the date
 * DD/MM/YYYY, the terminal by its label and the amount as money, as on every other screen.
 */
import { describe, expect, it } from 'vitest';
import { summaryFacts } from '../../src/client/features/sync/summary-facts.ts';

const ctx = {
  sites: [{ restaurantId: 1, libelle: 'Le Comptoir Lyon Bellecour' }],
  terminals: [{ restaurantId: 1, caisses: [{ id: 2, libelle: 'Bar' }] }],
  currency: 'EUR',
  locale: 'fr',
};

describe('the facts /sync shows of a queued write', () => {
  it('names the site and terminal, shows the date DD/MM/YYYY and the amount as money', () => {
    const facts = summaryFacts({ site: 1, date: '2026-12-07', terminal: 2, amount: '25.40' }, ctx);
    expect(facts.map((f) => [f.key, f.value.replace(/\s/g, ' ')])).toEqual([
      ['site', 'Le Comptoir Lyon Bellecour'],
      ['date', '07/12/2026'],
      ['terminal', 'Bar'],
      ['amount', '25,40 €'],
    ]);
  });

  it('shows a value the device cannot name as it was stored', () => {
    const facts = summaryFacts({ site: 9, terminal: 4, seller: 'Jean' }, ctx);
    expect(facts.map((f) => f.value)).toEqual(['9', '4', 'Jean']);
  });
});
