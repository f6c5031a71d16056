/**
 * Server-side messages and formats for documents (DESIGN.md §6): report titles, column labels,
 * PDF headings, CSV/XLSX labels come from the same `i18n/{fr,en,de}.json` catalogues as the
 * screens, through `@formatjs/intl`, in the request's `language` (SPEC.md §9: fr default).
 *
 * Guarantees: one intl object per language, built once and cached; a message id missing from a
 * catalogue throws (a document never shows a raw key); dates always show `DD/MM/YYYY`
 * (SPEC.md §9) whatever the language, money uses the currency with `Intl`.
 */
import { TZDate } from '@date-fns/tz';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { format } from 'date-fns/format';
import de from '../../i18n/de.json' with { type: 'json' };
import en from '../../i18n/en.json' with { type: 'json' };
import fr from '../../i18n/fr.json' with { type: 'json' };
import { wireToDisplay } from '../contract/dates.ts';
import type { Language } from '../contract/reports.ts';

const CATALOGUES: Record<Language, Record<string, string>> = { fr, en, de };

/** BCP 47 locale used for number and money formats of each language. */
export const LOCALES: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB', de: 'de-DE' };

/** Thrown when a document asks for a message the catalogue lacks (a bug, caught by the tests). */
export class MissingMessageError extends Error {}

const cache = createIntlCache();
const intls = new Map<Language, IntlShape<string>>();

/** The cached `@formatjs/intl` object of `language`. */
export function intlFor(language: Language): IntlShape<string> {
  let intl = intls.get(language);
  if (!intl) {
    intl = createIntl(
      {
        locale: LOCALES[language],
        defaultLocale: 'fr-FR',
        messages: CATALOGUES[language],
        // Missing ids are reported by `message()` itself; formatting errors must not be silent.
        onError: (err) => {
          if (err.code !== 'MISSING_TRANSLATION') throw err;
        },
      },
      cache,
    );
    intls.set(language, intl);
  }
  return intl;
}

/**
 * Messages without values, formatted once per language and id: reports label every row (a loss
 * type, a ticket kind), and formatting through @formatjs costs microseconds a call (its memoiser
 * serialises the arguments), a millisecond over a few hundred rows.
 */
const plainMessages: Record<Language, Map<string, string>> = { fr: new Map(), en: new Map(), de: new Map() };

/**
 * The message `id` of `language`, with ICU `values` substituted.
 * @throws MissingMessageError when the catalogue has no such id.
 */
export function message(language: Language, id: string, values?: Record<string, string | number>): string {
  if (values === undefined) {
    const known = plainMessages[language].get(id);
    if (known !== undefined) return known;
  }
  if (!(id in CATALOGUES[language])) throw new MissingMessageError(`i18n/${language}.json has no "${id}"`);
  const text = intlFor(language).formatMessage({ id }, values);
  if (values === undefined) plainMessages[language].set(id, text);
  return text;
}

/** True when the catalogue of `language` holds `id`. */
export function hasMessage(language: Language, id: string): boolean {
  return id in CATALOGUES[language];
}

/** `value` in the language's number format (`1 234,5` in fr), with exactly `decimals` decimals when given. */
export function formatNumber(language: Language, value: number, decimals?: number): string {
  return intlFor(language).formatNumber(
    value,
    decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
  );
}

/** `cents` (integer cents) as money of ISO 4217 `currency` in the language's format (`1 234,56 €` in fr). */
export function formatMoney(language: Language, cents: number, currency: string): string {
  return intlFor(language).formatNumber(cents / 100, { style: 'currency', currency });
}

/** A fraction as a percentage (`0.2` → `20,0 %` in fr), one decimal. */
export function formatPercent(language: Language, fraction: number): string {
  return intlFor(language).formatNumber(fraction, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
}

/** Wire date `YYYY-MM-DD` → `DD/MM/YYYY` (SPEC.md §9, every language). */
export function formatDate(wireDate: string): string {
  return wireToDisplay(wireDate);
}

/** An instant as `{ date: 'DD/MM/YYYY', time: 'HH:mm' }` in IANA `timeZone` (e.g. a document's generated-at). */
export function formatInstant(instant: Date, timeZone: string): { date: string; time: string } {
  const local = new TZDate(instant.getTime(), timeZone);
  return { date: format(local, 'dd/MM/yyyy'), time: format(local, 'HH:mm') };
}

/**
 * Money as currency units with exactly two decimals and the language's decimal separator, no
 * grouping and no symbol (`-1234,50` in fr/de, `-1234.50` in en): the form spreadsheet programs
 * read back as a number from CSV. Integer arithmetic, so no float rounding.
 */
export function formatCentsPlain(language: Language, cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const units = Math.trunc(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}${units}${decimalSeparator(language)}${rest}`;
}

/** The decimal separator of `language` in documents: `,` in fr and de, `.` in en. */
export function decimalSeparator(language: Language): string {
  return language === 'en' ? '.' : ',';
}
