/**
 * The demo events' dates (src/server/demo/events.ts) for any `now`: the past ones inside the 13
 * months the demo chain covers, the yearly ones at their latest occurrence before today, some
 * always to come in the next 30 days; and the volume factor they give a site's day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoEvents, eventFactor, parisDay } from '../../src/server/demo/events.ts';
import { demoFiscalDates } from '../../src/server/demo/generate.ts';

const DAY_MS = 86_400_000;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

describe('demo events dated from now', () => {
  it('lie in the demo’s 13 months or the next 30 days, yearly ones before today, some to come', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2024-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }),
        (now) => {
          const today = dateOf(parisDay(now));
          const { from } = demoFiscalDates(now, '00:00');
          const in30 = dateOf(parisDay(now) + 30);
          const dated = demoEvents(now);
          for (const e of dated) {
            expect(e.dateDebut <= e.dateFin).toBe(true);
            expect(e.dateDebut >= from, `${e.designation} from ${e.dateDebut}, demo from ${from}`).toBe(true);
            expect(e.dateFin <= in30).toBe(true);
            if ('month' in e.when) {
              expect(e.dateFin < today).toBe(true);
              expect(Number(e.dateDebut.slice(5, 7))).toBe(e.when.month);
            }
          }
          expect(dated.filter((e) => e.dateFin < today).length).toBeGreaterThanOrEqual(6);
          expect(dated.filter((e) => e.dateDebut > today).length).toBeGreaterThanOrEqual(4);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('multiply a site’s volume by (1 ± rate) on their days only, and multiply together where they overlap', () => {
    const now = new Date('2026-03-18T14:37:00Z');
    const dated = demoEvents(now);
    const roadworks = dated.find((e) => e.typeEvenement === 'ROADWORKS' && e.dateFin < '2026-03-18')!;
    expect(eventFactor(dated, roadworks.sites[0]!, roadworks.firstDay)).toBeCloseTo(0.65);
    expect(eventFactor(dated, roadworks.sites[0]!, roadworks.lastDay)).toBeCloseTo(0.65);
    expect(eventFactor(dated, roadworks.sites[0]!, roadworks.lastDay + 1)).toBe(1);
    expect(eventFactor(dated, 5, roadworks.firstDay)).toBe(1);
    const overlap = [{ ...roadworks, typeImpact: 'Positive' as const, tauxImpact: 20 }, roadworks];
    expect(eventFactor(overlap, roadworks.sites[0]!, roadworks.firstDay)).toBeCloseTo(1.2 * 0.65);
  });
});
