/**
 * One-line descriptions of a favourite for lists and pickers (sites, period, report, format,
 * sort, grouping, filter), in the interface language. Sites and groups are named from the
 * reference data the user can see; ids they cannot see any more are counted, never shown.
 * Columns are named from the class's bo/getResultsChoices when known, else by their key.
 */
import type { IntlShape } from 'react-intl';
import type { Regroupement, Site } from '../../../contract/api.ts';
import type { Choice, ResultsChoicesAnswer } from '../../../contract/exports.ts';
import { BI_FAVOURITE_CLASS, type Favourite } from '../../../contract/favourites.ts';
import { formatDate } from '../../lib/format.ts';
import { describeFilterValue } from '../../lib/report-filter-values.ts';

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
  if (favourite.typeRapport.className === BI_FAVOURITE_CLASS) return intl.formatMessage({ id: 'bi.title' });
  const title =
    titles.get(favourite.typeRapport.className) ||
    favourite.typeRapport.localisedTitle ||
    favourite.typeRapport.className;
  if (favourite.type === 'Daily') return title;
  return `${title} · ${intl.formatMessage({ id: `report.variant.${favourite.type}` })}`;
}

/**
 * A BI favourite's view: "Discounts by Seller and Weekday, compared with: Previous period"; null
 * for a report favourite.
 */
export function describeBiView(intl: IntlShape, favourite: Favourite): string | null {
  const { bi } = favourite;
  if (!bi) return null;
  const dimensions = [bi.dimension1, bi.dimension2]
    .filter((d) => d !== null)
    .map((d) => intl.formatMessage({ id: `bi.dimension.${d}` }));
  const values = {
    measure: intl.formatMessage({ id: `bi.measure.${bi.measure}` }),
    dimensions: intl.formatList(dimensions, { type: 'conjunction' }),
    comparison: intl.formatMessage({ id: `bi.comparison.${bi.comparison}` }),
  };
  return intl.formatMessage(
    { id: dimensions.length > 0 ? 'favourites.bi.view' : 'favourites.bi.viewTotal' },
    values,
  );
}

/** The format as /rapports names it ("Excel (XLSX)"); JSON reads as PDF, as it opens. */
export function describeFormat(intl: IntlShape, favourite: Favourite): string {
  const format = favourite.format === 'JSON' ? 'PDF' : favourite.format;
  return intl.formatMessage({ id: `reports.format.${format}` });
}

/** How many filter values a summary spells out before it says "and N more". */
const NAMED_VALUES = 4;

/**
 * The label of `value` in `choices` (bo/getResultsChoices, in the interface language) when they
 * are known, else the name of the dimension it is (FAMILLE…), else the value itself.
 */
function choiceLabel(intl: IntlShape, choices: readonly Choice[] | undefined, value: string): string {
  const label = choices?.find((c) => c.value === value)?.label;
  if (label) return label;
  const id = `report.dimension.${value}`;
  return id in intl.messages ? intl.formatMessage({ id }) : value;
}

/** "Net sales, descending", or null when the favourite keeps the report's own order. */
export function describeSort(
  intl: IntlShape,
  favourite: Favourite,
  choices?: ResultsChoicesAnswer,
): string | null {
  if (!favourite.tri) return null;
  const [key = '', direction] = favourite.tri.split(':');
  return intl.formatMessage(
    { id: direction === 'desc' ? 'favourites.sort.descending' : 'favourites.sort.ascending' },
    { column: choiceLabel(intl, choices?.tris, key) },
  );
}

/** What rows are grouped by ("Product family"), or null when they are not. */
export function describeGrouping(
  intl: IntlShape,
  favourite: Favourite,
  choices?: ResultsChoicesAnswer,
): string | null {
  return favourite.regroupement ? choiceLabel(intl, choices?.regroupements, favourite.regroupement) : null;
}

/** "Product family: Desserts and Drinks", or null when no filter is on. */
export function describeFilter(
  intl: IntlShape,
  favourite: Favourite,
  choices?: ResultsChoicesAnswer,
): string | null {
  const { filtre } = favourite;
  if (!favourite.isFilters || !filtre || favourite.condition.length === 0) return null;
  const values = favourite.condition.map((v) => describeFilterValue(intl, filtre, v));
  const listed =
    values.length <= NAMED_VALUES
      ? intl.formatList(values, { type: 'conjunction' })
      : intl.formatMessage(
          { id: 'favourites.filter.more' },
          { names: values.slice(0, NAMED_VALUES).join(', '), count: values.length - NAMED_VALUES },
        );
  return intl.formatMessage(
    { id: 'favourites.filter.values' },
    { filter: choiceLabel(intl, choices?.filtres, filtre), values: listed },
  );
}
