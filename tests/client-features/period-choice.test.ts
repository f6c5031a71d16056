import { describe, expect, it } from 'vitest';
import { PERIOD_CODES } from '../../src/contract/periods.ts';
import {
  resolvePeriodChoice,
  tidyTypedDate,
  tidyTypedTime,
  toCustomChoice,
  validateHours,
} from '../../src/client/selection/period.ts';

// Wednesday 15 May 2024, a day with a previous month of 30 days and a leap year behind it.
const today = new Date(2024, 4, 15);

describe('period choice → dateDebut/dateFin', () => {
  it('resolves each of the 14 period codes to wire dates relative to today', () => {
    const ranges = Object.fromEntries(
      PERIOD_CODES.map((code) => {
        const r = resolvePeriodChoice({ kind: 'code', code }, today);
        if (!r.ok) throw new Error(`code ${code} did not resolve`);
        return [code, `${r.range.dateDebut}..${r.range.dateFin}`];
      }),
    );
    expect(ranges).toEqual({
      D: '2024-05-15..2024-05-15',
      'D-1': '2024-05-14..2024-05-14',
      'D-2': '2024-05-13..2024-05-13',
      'D-3': '2024-05-12..2024-05-12',
      W: '2024-05-13..2024-05-15',
      'W-1': '2024-05-06..2024-05-12',
      'W-2': '2024-04-29..2024-05-05',
      M: '2024-05-01..2024-05-15',
      'M-1': '2024-04-01..2024-04-30',
      'M-2': '2024-03-01..2024-03-31',
      '6M': '2023-11-16..2024-05-15',
      Y: '2024-01-01..2024-05-15',
      'Y-1': '2023-01-01..2023-12-31',
      'D-365': '2023-05-17..2024-05-15',
    });
  });

  it('turns typed DD/MM/YYYY custom dates into YYYY-MM-DD, single-digit days and months included', () => {
    expect(resolvePeriodChoice({ kind: 'custom', debut: '1/3/2024', fin: '31/03/2024' }, today)).toEqual({
      ok: true,
      range: { dateDebut: '2024-03-01', dateFin: '2024-03-31' },
    });
  });

  it('accepts a one-day custom period (start equals end)', () => {
    const r = resolvePeriodChoice({ kind: 'custom', debut: '29/02/2024', fin: '29/02/2024' });
    expect(r).toEqual({ ok: true, range: { dateDebut: '2024-02-29', dateFin: '2024-02-29' } });
  });
});

describe('custom period validation', () => {
  it('refuses a start after the end and leaves the typed text untouched', () => {
    const choice = { kind: 'custom', debut: '20/05/2024', fin: '10/05/2024' } as const;
    expect(resolvePeriodChoice(choice)).toEqual({ ok: false, errors: { range: 'startAfterEnd' } });
    expect(choice).toEqual({ kind: 'custom', debut: '20/05/2024', fin: '10/05/2024' });
  });

  it('names the field holding a date that does not exist or is not DD/MM/YYYY', () => {
    expect(resolvePeriodChoice({ kind: 'custom', debut: '31/02/2024', fin: '01/03/2024' })).toEqual({
      ok: false,
      errors: { debut: 'badDate' },
    });
    expect(resolvePeriodChoice({ kind: 'custom', debut: '01/03/2024', fin: '2024-03-05' })).toEqual({
      ok: false,
      errors: { fin: 'badDate' },
    });
    expect(resolvePeriodChoice({ kind: 'custom', debut: '', fin: 'demain' })).toEqual({
      ok: false,
      errors: { debut: 'required', fin: 'badDate' },
    });
  });

  it('starts custom dates from the range of the code that was chosen', () => {
    expect(toCustomChoice({ kind: 'code', code: 'M-1' }, today)).toEqual({
      kind: 'custom',
      debut: '01/04/2024',
      fin: '30/04/2024',
    });
  });

  it('checks hours as HH:mm and allows a range running past midnight', () => {
    expect(validateHours('12:00', '23:00')).toEqual({});
    expect(validateHours('18:00', '02:00')).toEqual({});
    expect(validateHours('24:00', '9h')).toEqual({ heureDebut: 'badTime', heureFin: 'badTime' });
  });
});

describe('tidying typed dates and times', () => {
  it('turns the usual ways of typing a date into DD/MM/YYYY and leaves anything else alone', () => {
    expect(tidyTypedDate('31.01.2025')).toBe('31/01/2025');
    expect(tidyTypedDate('1-2-2025')).toBe('01/02/2025');
    expect(tidyTypedDate('31012025')).toBe('31/01/2025');
    expect(tidyTypedDate(' 05/06/2025 ')).toBe('05/06/2025');
    expect(tidyTypedDate('31/01/25')).toBe('31/01/25');
    expect(tidyTypedDate('demain')).toBe('demain');
  });

  it('turns 9, 9h30, 9.30 and 0930 into HH:mm and leaves impossible times alone', () => {
    expect(['9', '9h', '9h30', '9.30', '0930', '930', '21:05'].map(tidyTypedTime)).toEqual([
      '09:00',
      '09:00',
      '09:30',
      '09:30',
      '09:30',
      '09:30',
      '21:05',
    ]);
    expect(tidyTypedTime('25:00')).toBe('25:00');
    expect(tidyTypedTime('midi')).toBe('midi');
  });
});
