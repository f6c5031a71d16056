/**
 * What bo/getReport's `filtre`, `condition`, `isFilters`, `tri` and `regroupement` (SPEC.md §7)
 * mean, for every report class at once. The classes compute their dataset; this module narrows,
 * groups and orders it, so the parameters have the same meaning in every report and no class
 * has to know them.
 *
 * - `filtre` names a dimension ({@link DIMENSIONS}: SITE, GROUPE, CAISSE, VENDEUR, FAMILLE, TVA,
 *   PAIEMENT, DATE) or a column key of the dataset; `condition` (a list) holds the values to keep, as
 *   bo/getGroupements lists them; the filter applies when `isFilters=true`, and is then required.
 *   SITE and GROUPE (group ids: the sites of those groups in the user's scope) narrow the sites
 *   of the request for every class; CAISSE and VENDEUR narrow its terminals and sellers for the
 *   classes that select tickets — totals are then those of the kept tickets. The other
 *   dimensions, and CAISSE and VENDEUR for the classes that do not select tickets, keep the
 *   dataset rows whose column holds one of the values, and totals are summed again over them.
 * - `regroupement` names a dimension or a text/date column: rows with the same value are merged
 *   into one (summable columns summed, other cells kept when equal, else empty). GROUPE merges
 *   the rows of each group of sites (SPEC.md §3 regroupement) under a new first column; a site
 *   in several groups counts in each of them, a site in none under "no group".
 * - `tri` is a column key, optionally followed by `:desc` (or prefixed by `-`): rows are sorted
 *   by it, ascending by default, empty cells last.
 *
 * A column is summable when its type is money, quantity or percent and the dataset's total of
 * it equals the sum of its rows (so averages never get summed); an average ticket is computed
 * again from net sales and tickets when the dataset has both.
 *
 * Errors (SPEC.md §8): an unknown dimension or column, or a filter the class cannot apply →
 * 400 `BadRequest` naming what is available; a filter that keeps no terminal, seller or site of
 * those chosen → 400 `CheckReportParam` (the report could only be empty).
 */
import type { Dataset, DatasetColumn, Language } from '../../contract/reports.ts';
import { DomainError } from '../errors.ts';
import { hasMessage, message } from '../i18n.ts';

/** Dimensions a report may be filtered or grouped by (wire values of `filtre`/`regroupement`). */
export const DIMENSIONS = [
  'SITE',
  'GROUPE',
  'CAISSE',
  'VENDEUR',
  'FAMILLE',
  'TVA',
  'PAIEMENT',
  'DATE',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Dataset column keys under which each dimension appears, in order of preference. */
export const DIMENSION_COLUMNS: Record<Dimension, readonly string[]> = {
  SITE: ['siteId', 'site'],
  // Derived from the rows' siteId (see GROUP_COLUMN): a dataset never carries it itself.
  GROUPE: [],
  CAISSE: ['terminalId', 'terminal'],
  VENDEUR: ['sellerCode', 'seller'],
  FAMILLE: ['family'],
  TVA: ['vatRate'],
  PAIEMENT: ['paymentMethod'],
  DATE: ['fiscalDate'],
};

/**
 * Classes whose query does not select tickets (and so ignores terminals and sellers): for them
 * CAISSE and VENDEUR filter rows, never the request.
 */
const NOT_TICKET_BASED = new Set(['RapportPertes', 'RapportComptageCoffre', 'RapportComptageCaisses']);

/** True when `className` narrows its tickets by the request's terminals and sellers. */
export function selectsTickets(className: string): boolean {
  return !NOT_TICKET_BASED.has(className);
}

/** The dataset-level part of the parameters, checked against the dataset once it is computed. */
export interface Shaping {
  /** Rows to keep: a column (or dimension) and its accepted values; null = no row filter. */
  rowFilter: { on: string; values: string[] } | null;
  /** Merge rows by this column or dimension; null = as the class answers. */
  groupBy: string | null;
  /** Sort rows by this column; null = the class's order. */
  sort: { key: string; descending: boolean } | null;
  /** For `groupBy` GROUPE: the group names of each site (restaurantId → names, sorted). */
  siteGroups?: Record<number, string[]>;
}

/** Key of the column GROUPE adds to a dataset. */
export const GROUP_COLUMN = 'siteGroup';

/** Narrowing of the request a filter gives (sites, terminals or sellers to keep). */
export interface RequestNarrowing {
  sites?: number[];
  /** Group ids whose sites (in the user's scope) are kept; request.ts turns them into `sites`. */
  groups?: number[];
  terminals?: number[];
  sellers?: string[];
}

/** `tri` → sort key and direction (`key`, `key:desc`, `key:asc`, `-key`). */
export function parseSort(tri: string | undefined): Shaping['sort'] {
  if (!tri || tri.trim() === '') return null;
  const text = tri.trim();
  if (text.startsWith('-')) return { key: text.slice(1), descending: true };
  const [key, direction] = text.split(':');
  if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
    throw new DomainError('invalid', 'BadRequest', `tri direction must be asc or desc, got "${direction}"`);
  }
  return { key: key!, descending: direction === 'desc' };
}

function isDimension(text: string): text is Dimension {
  return (DIMENSIONS as readonly string[]).includes(text);
}

/**
 * Splits `filtre`/`condition`/`isFilters` into a request narrowing (SITE, CAISSE, VENDEUR on a
 * class that selects tickets) or a row filter.
 * @throws DomainError invalid (400) BadRequest when `isFilters` is on without a filtre or a condition, or
 *   when CAISSE values are not whole numbers.
 */
export function splitFilter(
  className: string,
  input: { filtre: string | undefined; condition: string[]; isFilters: boolean },
): { narrowing: RequestNarrowing; rowFilter: Shaping['rowFilter'] } {
  if (!input.isFilters) return { narrowing: {}, rowFilter: null };
  const filtre = input.filtre?.trim();
  const values = input.condition.map((v) => v.trim()).filter((v) => v !== '');
  if (!filtre || values.length === 0) {
    throw new DomainError(
      'invalid',
      'BadRequest',
      'isFilters=true needs a filtre and at least one condition',
      {
        dimensions: DIMENSIONS,
      },
    );
  }
  const numbers = () => {
    const out = values.map(Number);
    if (out.some((n) => !Number.isInteger(n))) {
      throw new DomainError('invalid', 'BadRequest', `${filtre} conditions must be whole numbers`);
    }
    return out;
  };
  if (filtre === 'SITE') return { narrowing: { sites: numbers() }, rowFilter: null };
  if (filtre === 'GROUPE') return { narrowing: { groups: numbers() }, rowFilter: null };
  if (selectsTickets(className)) {
    if (filtre === 'CAISSE') return { narrowing: { terminals: numbers() }, rowFilter: null };
    if (filtre === 'VENDEUR') return { narrowing: { sellers: values }, rowFilter: null };
  }
  return { narrowing: {}, rowFilter: { on: filtre, values } };
}

/**
 * `chosen` narrowed to `kept` (every value of `kept` when nothing was chosen).
 * @throws DomainError invalid (400) CheckReportParam when none of the chosen values is kept.
 */
export function intersect<T>(chosen: readonly T[], kept: readonly T[] | undefined, what: string): T[] {
  if (!kept) return [...chosen];
  const out = chosen.length === 0 ? [...new Set(kept)] : chosen.filter((v) => kept.includes(v));
  if (out.length === 0) {
    throw new DomainError('invalid', 'CheckReportParam', `the filter keeps none of the ${what} chosen`);
  }
  return out;
}

/** The column of `dataset` that `name` (dimension or column key) designates, or undefined. */
export function columnFor(dataset: Pick<Dataset, 'columns'>, name: string): DatasetColumn | undefined {
  const keys = isDimension(name) ? DIMENSION_COLUMNS[name] : [name];
  for (const key of keys) {
    const column = dataset.columns.find((c) => c.key === key);
    if (column) return column;
  }
  return undefined;
}

/** Dimensions and columns `dataset` can be filtered or grouped on. */
export function groupableNames(dataset: Pick<Dataset, 'columns'>): string[] {
  const hasSite = dataset.columns.some((c) => c.key === 'siteId');
  const dims = DIMENSIONS.filter((d) => columnFor(dataset, d) || (d === 'GROUPE' && hasSite));
  const cols = dataset.columns.filter((c) => c.type === 'text' || c.type === 'date').map((c) => c.key);
  return [...dims, ...cols.filter((c) => !dims.some((d) => DIMENSION_COLUMNS[d].includes(c)))];
}

type Cell = Dataset['rows'][number][string];

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Keys of the columns whose total is the sum of their rows (see the module header). */
export function summableKeys(dataset: Dataset): Set<string> {
  const out = new Set<string>();
  for (const c of dataset.columns) {
    if (c.type !== 'money' && c.type !== 'qty' && c.type !== 'percent') continue;
    const total = dataset.totals[c.key];
    if (typeof total !== 'number') continue;
    let sum = 0;
    for (const r of dataset.rows) {
      const v = r[c.key];
      if (typeof v === 'number') sum += v;
    }
    if (sameNumber(sum, total)) out.add(c.key);
  }
  return out;
}

/** Sums the summable columns of `rows`; recomputes an average ticket; other cells equal in every row, else null. */
function merge(
  rows: readonly Dataset['rows'][number][],
  columns: readonly DatasetColumn[],
  summable: Set<string>,
) {
  const out: Record<string, Cell> = {};
  for (const c of columns) {
    if (summable.has(c.key)) {
      let sum = 0;
      for (const r of rows) {
        const v = r[c.key];
        if (typeof v === 'number') sum += v;
      }
      out[c.key] = sum;
    } else {
      const first = rows[0]?.[c.key] ?? null;
      out[c.key] = rows.every((r) => (r[c.key] ?? null) === first) ? first : null;
    }
  }
  if ('averageTicket' in out && summable.has('netSales') && summable.has('tickets')) {
    const tickets = out.tickets as number;
    out.averageTicket = tickets === 0 ? 0 : Math.round((out.netSales as number) / tickets);
  }
  return out;
}

function matches(cell: Cell, values: readonly string[], column: DatasetColumn, language: Language): boolean {
  if (cell === null || cell === undefined) return false;
  if (typeof cell === 'number') return values.some((v) => v !== '' && sameNumber(Number(v), cell));
  if (column.key === 'paymentMethod') {
    // Cells hold the translated method; conditions hold the method codes of bo/getGroupements.
    return values.some((v) => {
      const id = `report.paymentMethod.${v}`;
      return cell === v || (hasMessage(language, id) && cell === message(language, id));
    });
  }
  return values.includes(cell);
}

function compare(a: Cell, b: Cell): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'fr', { numeric: true });
}

/**
 * Applies `shaping` to `dataset` (row filter, then grouping, then sort).
 * @throws DomainError invalid (400) BadRequest naming the available columns when one is unknown.
 */
export function shapeDataset(dataset: Dataset, shaping: Shaping, language: Language): Dataset {
  if (!shaping.rowFilter && !shaping.groupBy && !shaping.sort) return dataset;
  const summable = summableKeys(dataset);
  let rows = dataset.rows;
  let totals = dataset.totals;
  if (shaping.rowFilter) {
    const { on, values } = shaping.rowFilter;
    const column = columnFor(dataset, on);
    if (!column) {
      throw new DomainError('invalid', 'BadRequest', `${dataset.className} cannot be filtered by "${on}"`, {
        filtres: groupableNames(dataset),
      });
    }
    rows = rows.filter((r) => matches(r[column.key] ?? null, values, column, language));
    const summed = merge(rows, dataset.columns, summable);
    totals = Object.fromEntries(
      dataset.columns.map((c) => [
        c.key,
        summable.has(c.key) || c.key === 'averageTicket'
          ? (summed[c.key] ?? null)
          : (dataset.totals[c.key] ?? null),
      ]),
    );
    if ('averageTicket' in totals && !(summable.has('netSales') && summable.has('tickets')))
      totals.averageTicket = null;
  }
  if (shaping.groupBy === 'GROUPE') {
    return bySiteGroup({ ...dataset, rows, totals }, shaping, summable, language);
  }
  if (shaping.groupBy) {
    const column = columnFor(dataset, shaping.groupBy);
    if (!column || (column.type !== 'text' && column.type !== 'date' && !isDimension(shaping.groupBy))) {
      throw new DomainError(
        'invalid',
        'BadRequest',
        `${dataset.className} cannot be grouped by "${shaping.groupBy}"`,
        {
          regroupements: groupableNames(dataset),
        },
      );
    }
    const groups = new Map<string, Dataset['rows']>();
    for (const r of rows) {
      const key = JSON.stringify(r[column.key] ?? null);
      const list = groups.get(key);
      if (list) list.push(r);
      else groups.set(key, [r]);
    }
    rows = [...groups.values()].map((g) => merge(g, dataset.columns, summable));
  }
  if (shaping.sort) {
    const { key, descending } = shaping.sort;
    if (!dataset.columns.some((c) => c.key === key)) {
      throw new DomainError(
        'invalid',
        'BadRequest',
        `${dataset.className} has no column "${key}" to sort by`,
        {
          tri: dataset.columns.map((c) => c.key),
        },
      );
    }
    const sign = descending ? -1 : 1;
    rows = [...rows].sort((a, b) => {
      const an = a[key] === null || a[key] === undefined;
      const bn = b[key] === null || b[key] === undefined;
      if (an || bn) return an === bn ? 0 : an ? 1 : -1; // empty cells last both ways
      return sign * compare(a[key] ?? null, b[key] ?? null);
    });
  }
  return { ...dataset, rows, totals };
}

/**
 * The rows of `dataset` merged per group of sites, under a first column naming the group; then
 * sorted as `shaping` says. A site in several groups counts in each; a site in none counts under
 * the "no group" label.
 * @throws DomainError invalid (400) BadRequest when the rows carry no siteId.
 */
function bySiteGroup(dataset: Dataset, shaping: Shaping, summable: Set<string>, language: Language): Dataset {
  if (!dataset.columns.some((c) => c.key === 'siteId')) {
    throw new DomainError('invalid', 'BadRequest', `${dataset.className} cannot be grouped by "GROUPE"`, {
      regroupements: groupableNames(dataset),
    });
  }
  const none = message(language, 'report.noGroup');
  const column: DatasetColumn = {
    key: GROUP_COLUMN,
    label: message(language, 'report.dimension.GROUPE'),
    type: 'text',
  };
  const groups = new Map<string, Dataset['rows']>();
  for (const r of dataset.rows) {
    const names = shaping.siteGroups?.[Number(r.siteId)] ?? [];
    for (const name of names.length > 0 ? names : [none]) {
      const list = groups.get(name);
      if (list) list.push(r);
      else groups.set(name, [r]);
    }
  }
  const columns = [column, ...dataset.columns];
  const names = [...groups.keys()].sort((a, b) =>
    a === none ? 1 : b === none ? -1 : a.localeCompare(b, 'fr'),
  );
  const rows = names.map((name) => ({
    ...merge(groups.get(name)!, dataset.columns, summable),
    [GROUP_COLUMN]: name,
  }));
  const grouped: Dataset = { ...dataset, columns, rows, totals: { ...dataset.totals, [GROUP_COLUMN]: null } };
  return shaping.sort
    ? shapeDataset(grouped, { rowFilter: null, groupBy: null, sort: shaping.sort }, language)
    : grouped;
}
