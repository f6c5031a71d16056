/**
 * Labels of the explorer's keys in the request's language (bi/explore.ts): names of sites,
 * companies, groups, terminals and sellers read from the reference tables, day parts, weekdays
 * and payment methods from the catalogues, hours as `HH:00`, VAT rates as percentages. The
 * labels are made on the server so the screen, the CSV and the XLSX say the same thing.
 */
import type { BiDimension } from '../../contract/bi.ts';
import type { Language } from '../../contract/reports.ts';
import type { Queryable } from '../db/queryable.ts';
import { formatPercent, hasMessage, message } from '../i18n.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';
import type { BiSite } from './bi-sites.ts';

/** Names of the reference rows the keys point at. */
export interface LabelBook {
  language: Language;
  sites: Map<string, string>;
  companies: Map<string, string>;
  groups: Map<string, string>;
  /** `siteId:terminalId` → terminal label. */
  terminals: Map<string, string>;
  /** `siteId:sellerCode` → seller name. */
  sellers: Map<string, string>;
}

/** Reads the names the keys of `dimensions` need, for `sites`. */
export async function loadLabelBook(
  db: Queryable,
  sites: readonly BiSite[],
  dimensions: readonly BiDimension[],
  language: Language,
): Promise<LabelBook> {
  const ids = sites.map((s) => s.id);
  const pairs = async (sql: string, wanted: boolean) =>
    wanted
      ? new Map((await db.query<{ k: string; v: string }>(sql, [ids])).rows.map((r) => [r.k, r.v]))
      : new Map<string, string>();
  const [companies, groups, terminals, sellers] = await Promise.all([
    pairs(
      'SELECT DISTINCT c.id::text AS k, c.raison_sociale AS v FROM companies c JOIN sites s ON s.company_id = c.id WHERE s.id = ANY($1::int[])',
      dimensions.includes('COMPANY'),
    ),
    pairs(
      `SELECT DISTINCT g.id::text AS k, g.raison_sociale AS v
         FROM groups g JOIN ${GROUP_SITES_SQL} gs ON gs.group_id = g.id WHERE gs.site_id = ANY($1::int[])`,
      dimensions.includes('GROUP'),
    ),
    pairs(
      `SELECT site_id || ':' || terminal_id AS k, libelle AS v FROM terminals WHERE site_id = ANY($1::int[])`,
      dimensions.includes('TERMINAL'),
    ),
    pairs(
      `SELECT site_id || ':' || code AS k, nom AS v FROM sellers WHERE site_id = ANY($1::int[])`,
      dimensions.includes('SELLER'),
    ),
  ]);
  return {
    language,
    sites: new Map(sites.map((s) => [String(s.id), s.libelle])),
    companies,
    groups,
    terminals,
    sellers,
  };
}

/** `siteId:rest` split, with the site's name. */
function siteAndRest(book: LabelBook, key: string): { site: string; rest: string } {
  const at = key.indexOf(':');
  return { site: book.sites.get(key.slice(0, at)) ?? key.slice(0, at), rest: key.slice(at + 1) };
}

/** The label of `key` of `dimension`; a null key is "none" (`bi.none`). */
export function labelOf(book: LabelBook, dimension: BiDimension, key: string | null): string {
  const { language } = book;
  if (key === null) return message(language, 'bi.none');
  switch (dimension) {
    case 'SITE':
      return book.sites.get(key) ?? key;
    case 'COMPANY':
      return book.companies.get(key) ?? key;
    case 'GROUP':
      return book.groups.get(key) ?? key;
    case 'TERMINAL': {
      const { site, rest } = siteAndRest(book, key);
      return `${site} — ${book.terminals.get(key) ?? rest}`;
    }
    case 'SELLER': {
      const { site, rest } = siteAndRest(book, key);
      return `${book.sellers.get(key) ?? rest} (${site})`;
    }
    case 'DAY_PART':
      return message(language, `report.dayPart.${key}`);
    case 'WEEKDAY':
      return message(language, `bi.weekday.${key}`);
    case 'HOUR':
      return `${key.padStart(2, '0')}:00`;
    case 'PAYMENT':
      return hasMessage(language, `report.paymentMethod.${key}`)
        ? message(language, `report.paymentMethod.${key}`)
        : key;
    case 'VAT':
      return formatPercent(language, Number(key));
    case 'FAMILY':
      return key;
  }
}
