/**
 * One-line descriptions of a favourite for lists and pickers (sites, period, report, format),
 * in the interface language. Sites and groups are named from the reference data the user can
 * see; ids they cannot see any more are counted, never shown.
 */
import type { IntlShape } from 'react-intl';
import type { Regroupement, Site } from '../../../contract/api.ts';
import type { Favourite } from '../../../contract/favourites.ts';
import { formatDate } from '../../lib/format.ts';

/** How many site names a summary spells out before it says "and N more". */
const NAMED_SITES = 3;

/** "Every site", "Every site of group Nord", "Paris, Lyon" or "Paris, Lyon, Lille and 4 more". */
export function describeSites(
  intl: IntlShape,
  favourite: Favourite,
  sites: readonly Site[],
  groups: readonly Regroupement[],
): string {
  if (favourite.lSites.length === 0) {
    const group = groups.find((g) => g.id === favourite.groupement);
    return group
      ? intl.formatMessage({ id: 'favourites.sites.allInGroup' }, { group: group.raisonSociale })
      : intl.formatMessage({ id: 'favourites.sites.all' });
  }
  const names = favourite.lSites
    .map((id) => sites.find((s) => s.restaurantId === id)?.libelle)
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => a.localeCompare(b));
  if (names.length === 0) return intl.formatMessage({ id: 'favourites.sites.outOfScope' });
  if (names.length <= NAMED_SITES) return intl.formatList(names, { type: 'conjunction' });
  return intl.formatMessage(
    { id: 'favourites.sites.more' },
    { names: names.slice(0, NAMED_SITES).join(', '), count: names.length - NAMED_SITES },
  );
}

/** "Previous week" for a code (it stays relative), "From 01/03/2026 to 31/03/2026" for dates. */
export function describePeriod(intl: IntlShape, favourite: Favourite): string {
  if (favourite.periode !== null) return intl.formatMessage({ id: `period.${favourite.periode}` });
  const start = formatDate(favourite.dateDebut ?? '');
  const end = formatDate(favourite.dateFin ?? '');
  return start === end
    ? intl.formatMessage({ id: 'selection.period.oneDay' }, { date: start })
    : intl.formatMessage({ id: 'selection.period.range' }, { start, end });
}

/**
 * The report's title: today's title in the interface language when the report list is known,
 * else the title saved with the favourite; the variant follows when it is not the daily one.
 */
export function describeReport(
  intl: IntlShape,
  favourite: Favourite,
  titles: ReadonlyMap<string, string>,
): string {
  const title =
    titles.get(favourite.typeRapport.className) ||
    favourite.typeRapport.localisedTitle ||
    favourite.typeRapport.className;
  if (favourite.type === 'Daily') return title;
  return `${title} · ${intl.formatMessage({ id: `report.variant.${favourite.type}` })}`;
}

/** The format as /rapports names it ("Excel (XLSX)"); JSON reads as PDF, as it opens. */
export function describeFormat(intl: IntlShape, favourite: Favourite): string {
  const format = favourite.format === 'JSON' ? 'PDF' : favourite.format;
  return intl.formatMessage({ id: `reports.format.${format}` });
}
