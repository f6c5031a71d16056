/**
 * The instants a recurrence rule fires at (subscriptions/occurrences.ts): each kind of rule, the
 * last day of the month, the two daylight-saving days of Europe/Paris, and other zones.
 */
import { describe, expect, it } from 'vitest';
import type { RuleFields } from '../../../src/contract/subscriptions.ts';
import { localDate, occurrencesBetween } from '../../../src/server/subscriptions/occurrences.ts';

const base: RuleFields = {
  libelle: 'r',
  type: 'DAILY',
  jours: [],
  jourDuMois: null,
  dernierJour: false,
  heure: 6,
  minute: 30,
  active: true,
};
const rule = (fields: Partial<RuleFields>): RuleFields => ({ ...base, ...fields });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const at = (text: string) => new Date(text);

describe('occurrencesBetween', () => {
  it('a daily rule fires once a day at its local time, in (from, to]', () => {
    const got = occurrencesBetween(
      rule({}),
      'Europe/Paris',
      at('2026-12-01T05:30:00Z'),
      at('2026-12-04T05:30:00Z'),
    );
    // 06:30 Paris in winter is 05:30 UTC; `from` itself is excluded, `to` included.
    expect(iso(got)).toEqual([
      '2026-12-02T05:30:00.000Z',
      '2026-12-03T05:30:00.000Z',
      '2026-12-04T05:30:00.000Z',
    ]);
  });

  it('weekdays skip Saturday and Sunday', () => {
    // 2026-12-07 is a Monday.
    const got = occurrencesBetween(
      rule({ type: 'WEEKDAYS', heure: 8, minute: 0 }),
      'Europe/Paris',
      at('2026-12-07T00:00:00Z'),
      at('2026-12-14T00:00:00Z'),
    );
    expect(got.map((d) => localDate(d, 'Europe/Paris'))).toEqual([
      '2026-12-07',
      '2026-12-08',
      '2026-12-09',
      '2026-12-10',
      '2026-12-11',
    ]);
  });

  it('a weekly rule fires on its chosen days only (Monday and Thursday)', () => {
    const got = occurrencesBetween(
      rule({ type: 'WEEKLY', jours: [1, 4], heure: 7, minute: 15 }),
      'Europe/Paris',
      at('2026-12-01T00:00:00Z'),
      at('2026-12-15T00:00:00Z'),
    );
    expect(iso(got)).toEqual([
      '2026-12-03T06:15:00.000Z',
      '2026-12-07T06:15:00.000Z',
      '2026-12-10T06:15:00.000Z',
      '2026-12-14T06:15:00.000Z',
    ]);
  });

  it('a monthly rule fires on its day of the month', () => {
    const got = occurrencesBetween(
      rule({ type: 'MONTHLY', jourDuMois: 5, heure: 9, minute: 0 }),
      'Europe/Paris',
      at('2026-01-01T00:00:00Z'),
      at('2026-04-30T00:00:00Z'),
    );
    // Summer time from 29 March: 09:00 Paris is 07:00 UTC in April.
    expect(iso(got)).toEqual([
      '2026-01-05T08:00:00.000Z',
      '2026-02-05T08:00:00.000Z',
      '2026-03-05T08:00:00.000Z',
      '2026-04-05T07:00:00.000Z',
    ]);
  });

  it('the last day of the month is the 28th or 29th of February (leap year 2028), then 31st, 30th', () => {
    const last = rule({ type: 'MONTHLY', dernierJour: true, heure: 23, minute: 0 });
    const paris = (from: string, to: string) =>
      occurrencesBetween(last, 'Europe/Paris', at(from), at(to)).map((d) => localDate(d, 'Europe/Paris'));
    expect(paris('2027-02-01T00:00:00Z', '2027-05-01T00:00:00Z')).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
    ]);
    expect(paris('2028-02-01T00:00:00Z', '2028-03-01T00:00:00Z')).toEqual(['2028-02-29']);
  });

  it('06:30 Europe/Paris fires once on both daylight-saving days, at 06:30 local', () => {
    const spring = occurrencesBetween(
      rule({}),
      'Europe/Paris',
      at('2026-03-28T12:00:00Z'),
      at('2026-03-30T12:00:00Z'),
    );
    // 28 March (winter, UTC+1) then 29 March (summer, UTC+2) and 30 March.
    expect(iso(spring)).toEqual(['2026-03-29T04:30:00.000Z', '2026-03-30T04:30:00.000Z']);
    const autumn = occurrencesBetween(
      rule({}),
      'Europe/Paris',
      at('2026-10-24T12:00:00Z'),
      at('2026-10-26T12:00:00Z'),
    );
    // 25 October (back to winter, UTC+1) and 26 October.
    expect(iso(autumn)).toEqual(['2026-10-25T05:30:00.000Z', '2026-10-26T05:30:00.000Z']);
  });

  it('02:30, skipped on the spring day, fires once at the next valid time (03:30 summer time)', () => {
    const got = occurrencesBetween(
      rule({ heure: 2, minute: 30 }),
      'Europe/Paris',
      at('2026-03-28T12:00:00Z'),
      at('2026-03-29T12:00:00Z'),
    );
    expect(iso(got)).toEqual(['2026-03-29T01:30:00.000Z']);
  });

  it('02:30, which happens twice on the autumn day, fires once', () => {
    const got = occurrencesBetween(
      rule({ heure: 2, minute: 30 }),
      'Europe/Paris',
      at('2026-10-24T12:00:00Z'),
      at('2026-10-25T12:00:00Z'),
    );
    expect(got).toHaveLength(1);
    expect(localDate(got[0]!, 'Europe/Paris')).toBe('2026-10-25');
  });

  it('a site in another zone fires at its own local time (New York, Seoul)', () => {
    const ny = occurrencesBetween(
      rule({ heure: 6, minute: 0 }),
      'America/New_York',
      at('2026-12-07T00:00:00Z'),
      at('2026-12-08T00:00:00Z'),
    );
    expect(iso(ny)).toEqual(['2026-12-07T11:00:00.000Z']);
    // New York changes clocks on 8 March 2026, not on Paris's 29 March.
    const nySpring = occurrencesBetween(
      rule({ heure: 6, minute: 0 }),
      'America/New_York',
      at('2026-03-08T00:00:00Z'),
      at('2026-03-09T00:00:00Z'),
    );
    expect(iso(nySpring)).toEqual(['2026-03-08T10:00:00.000Z']);
    // Seoul's 06:00 on 8 December is 21:00 UTC on 7 December.
    const seoul = occurrencesBetween(
      rule({ heure: 6, minute: 0 }),
      'Asia/Seoul',
      at('2026-12-07T12:00:00Z'),
      at('2026-12-08T12:00:00Z'),
    );
    expect(iso(seoul)).toEqual(['2026-12-07T21:00:00.000Z']);
  });

  it('an empty or inverted range gives nothing; an unknown zone throws', () => {
    expect(
      occurrencesBetween(rule({}), 'Europe/Paris', at('2026-12-02T00:00:00Z'), at('2026-12-01T00:00:00Z')),
    ).toEqual([]);
    expect(() =>
      occurrencesBetween(rule({}), 'Mars/Olympus', at('2026-12-01T00:00:00Z'), at('2026-12-02T00:00:00Z')),
    ).toThrow(RangeError);
  });

  it('a minute-long window holds the occurrence of that minute only (the queue asks every minute)', () => {
    const r = rule({ heure: 6, minute: 0 });
    expect(
      iso(occurrencesBetween(r, 'Europe/Paris', at('2026-12-07T04:59:00Z'), at('2026-12-07T05:00:00Z'))),
    ).toEqual(['2026-12-07T05:00:00.000Z']);
    expect(
      occurrencesBetween(r, 'Europe/Paris', at('2026-12-07T05:00:00Z'), at('2026-12-07T05:01:00Z')),
    ).toEqual([]);
  });
});
