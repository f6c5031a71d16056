/**
 * One rule for every date and time the interface shows, in every language (SPEC.md §9, issue #20
 * item 5): dates DD/MM/YYYY, times 24-hour HH:mm. The catalogues never format a date themselves
 * (no ICU `date`/`time` argument, whose order and clock would follow the language); the client's
 * code formats instants only through `displayInstant` (src/contract/dates.ts) and fiscal dates
 * through `formatDate`, never through Intl's or react-intl's date formats.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  isDateElement,
  isTimeElement,
  type MessageFormatElement,
  parse,
} from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { displayInstant } from '../../src/contract/dates.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('displayInstant', () => {
  it('shows DD/MM/YYYY and a 24-hour time, whatever the language', () => {
    expect(displayInstant(new Date(2026, 10, 26, 13, 59))).toEqual({ date: '26/11/2026', time: '13:59' });
    expect(displayInstant(new Date(2026, 0, 5, 1, 7).getTime())).toEqual({
      date: '05/01/2026',
      time: '01:07',
    });
  });
});

/** The elements of `ast`, nested ones (plural, select, tags) included. */
function elements(ast: MessageFormatElement[]): MessageFormatElement[] {
  return ast.flatMap((e) => {
    const nested =
      'options' in e
        ? Object.values(e.options).flatMap((o) => elements(o.value))
        : 'children' in e
          ? elements(e.children)
          : [];
    return [e, ...nested];
  });
}

describe('the catalogues', () => {
  for (const language of ['fr', 'en', 'de']) {
    const catalogue = JSON.parse(
      fs.readFileSync(path.join(root, 'i18n', `${language}.json`), 'utf8'),
    ) as Record<string, string>;
    it(`${language}: no message formats a date or a time itself`, () => {
      const formatting = Object.entries(catalogue)
        .filter(([, message]) => elements(parse(message)).some((e) => isDateElement(e) || isTimeElement(e)))
        .map(([id]) => id);
      expect(formatting).toEqual([]);
    });

    it(`${language}: date-bearing messages show the date and time they are given as they are`, () => {
      const { date, time } = displayInstant(new Date(2026, 10, 26, 13, 59));
      const bearing = Object.entries(catalogue).filter(([, m]) => /\{(date|time)\}/.test(m));
      expect(bearing.length).toBeGreaterThan(10);
      for (const [id, message] of bearing) {
        const shown = message.replaceAll('{date}', date).replaceAll('{time}', time);
        if (message.includes('{date}')) expect(shown, id).toContain('26/11/2026');
        if (message.includes('{time}')) expect(shown, id).toMatch(/13:59(?!\s?[AP]M)/);
      }
    });
  }
});

describe('the client code', () => {
  it("formats no date through Intl's or react-intl's date formats", () => {
    const dir = path.join(root, 'src', 'client');
    const found = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `src/client/${f}:${i + 1}`, line }))
          .filter(({ line }) =>
            /intl\.format(Date|Time|DateTimeRange)\(|<Formatted(Date|Time)\b|toLocale(Date|Time)?String\(|Intl\.DateTimeFormat/.test(
              line,
            ),
          )
          .map(({ where, line }) => `${where}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});
