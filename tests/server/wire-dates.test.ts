/**
 * Wire dates (src/contract/dates.ts, SPEC.md §9 `YYYY-MM-DD`): real calendar days only, read as
 * local midnight, whatever the process's time zone.
 */
import { describe, expect, it } from 'vitest';
import { daysInclusive, parseWireDate, toWireDate, wireToDisplay } from '../../src/contract/dates.ts';

describe('parseWireDate', () => {
  it('reads a day as local midnight', () => {
    const d = parseWireDate('2025-11-23');
    expect(d && [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([
      2025, 10, 23, 0, 0,
    ]);
    expect(toWireDate(d!)).toBe('2025-11-23');
  });

  it('accepts 29 February of a leap year only', () => {
    expect(parseWireDate('2024-02-29')).not.toBeNull();
    expect(parseWireDate('2023-02-29')).toBeNull();
  });

  it.each([
    '2025-02-30',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '0000-01-01',
    '2025-1-01',
    '25-01-01',
    '2025-01-01T00:00',
    ' 2025-01-01',
    '',
  ])('refuses %j', (text) => {
    expect(parseWireDate(text)).toBeNull();
  });

  it('feeds the display form and day counts', () => {
    expect(wireToDisplay('2025-03-09')).toBe('09/03/2025');
    expect(wireToDisplay('2025-02-30')).toBe('2025-02-30');
    expect(daysInclusive('2024-02-28', '2024-03-01')).toBe(3);
    expect(daysInclusive('2025-10-25', '2025-10-27')).toBe(3); // across the end of summer time
  });
});
