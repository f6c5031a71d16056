/**
 * Turns the parameters of bo/getReport (SPEC.md §7, GET query or POST body, already normalised
 * into {@link RawReportInput}) into a checked {@link ReportRequest} for one class, or throws the
 * error SPEC.md §8 names. The rules, in the order they are checked:
 *
 * - unknown class → 400 `ErrorUnknownRap`; variant the class lacks → 400 `BadRequest`;
 * - format the class does not offer → 400 `notAPdf` for PDF, `BadRequest` otherwise;
 * - class parameters its schema refuses (e.g. an operation it cannot honour) → 400 `BadRequest`;
 * - a date that is not a real `YYYY-MM-DD`, `dateFin` before `dateDebut`, a missing period,
 *   a malformed hour → 400 `BadRequest`;
 * - more days than the class's maximum → 400 `MaxReportDays` with `details.maxDays`
 *   (with datefiscales[], the number of distinct dates counts);
 * - a requested site outside the user's scope → 403 `Forbidden`; no site given → every site
 *   in scope (SPEC.md §5); none in scope → 400 `NoSitesSelected`;
 * - sites trading in different currencies → 400 `mixedCurrencies` (amounts cannot be summed);
 * - `isFilters=true` without a filtre or condition, a bad `tri` direction → 400 `BadRequest`; a
 *   filter (SITE, CAISSE, VENDEUR) keeping none of the chosen sites, terminals or sellers →
 *   400 `CheckReportParam` (shaping.ts says what filtre, condition, tri and regroupement mean).
 */
import { daysInclusive, hhmmToMinutes, parseWireDate } from '../../contract/dates.ts';
import type { Language, ReportFormat } from '../../contract/reports.ts';
import type { ChangeFeed, TableCache } from '../db/changes.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';
import { findReportClass } from './registry.ts';
import { intersect, parseSort, type Shaping, splitFilter } from './shaping.ts';
import type { HourRange, ReportClass, ReportRequest, ReportSite } from './types.ts';

/** bo/getReport parameters after wire normalisation (arrays are arrays, booleans booleans). */
export interface RawReportInput {
  rapportClassName: string;
  /** Variant (`typeRapport`), e.g. `Daily`. */
  typeRapport: string;
  format: ReportFormat;
  language: Language;
  dateDebut: string | undefined;
  dateFin: string | undefined;
  /** `datefiscales[]`: explicit fiscal dates instead of the range. */
  datefiscales: string[];
  sites: number[];
  tpv: number[];
  vendeurs: string[];
  trancheHoraire: boolean;
  heureDebut: string;
  heureFin: string;
  trainingMode: boolean;
  operation: string;
  filtre: string | undefined;
  condition: string[];
  tri: string | undefined;
  regroupement: string | undefined;
  isFilters: boolean;
}

/**
 * A report request built in the server itself (the all-reports archive, benchmarks): the given
 * fields, and for the rest what bo/getReport assumes when a call leaves them out (SPEC.md §9:
 * Daily, every terminal and seller, no hour range — 12:00 to 23:00 when switched on —, sales,
 * no training mode, no filter, sort or grouping).
 */
export function reportInput(
  fields: Pick<
    RawReportInput,
    'rapportClassName' | 'format' | 'language' | 'dateDebut' | 'dateFin' | 'sites'
  > &
    Partial<RawReportInput>,
): RawReportInput {
  return {
    typeRapport: 'Daily',
    datefiscales: [],
    tpv: [],
    vendeurs: [],
    trancheHoraire: false,
    heureDebut: '12:00',
    heureFin: '23:00',
    trainingMode: false,
    operation: 'VENTE',
    filtre: undefined,
    condition: [],
    tri: undefined,
    regroupement: undefined,
    isFilters: false,
    ...fields,
  };
}

/** A checked request, the class it runs, and how its dataset is then shaped (shaping.ts). */
export interface ResolvedReport {
  cls: ReportClass;
  request: ReportRequest;
  shaping: Shaping;
}

function badRequest(message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError('invalid', 'BadRequest', message, details);
}

function checkedDate(text: string, name: string): string {
  if (!parseWireDate(text)) throw badRequest(`${name} must be a date YYYY-MM-DD, got "${text}"`);
  return text;
}

/** The period of `input`: range or explicit dates, checked against `maxDays`. */
function resolvePeriod(input: RawReportInput, maxDays: number) {
  if (input.datefiscales.length > 0) {
    const fiscalDates = [...new Set(input.datefiscales.map((d) => checkedDate(d, 'datefiscales[]')))].sort();
    if (fiscalDates.length > maxDays) {
      throw new DomainError('invalid', 'MaxReportDays', `at most ${maxDays} dates for this report`, {
        maxDays,
      });
    }
    return { dateDebut: fiscalDates[0]!, dateFin: fiscalDates.at(-1)!, fiscalDates };
  }
  if (!input.dateDebut || !input.dateFin)
    throw badRequest('dateDebut and dateFin (or datefiscales[]) are required');
  const dateDebut = checkedDate(input.dateDebut, 'dateDebut');
  const dateFin = checkedDate(input.dateFin, 'dateFin');
  const days = daysInclusive(dateDebut, dateFin);
  if (days < 1) throw badRequest(`dateFin ${dateFin} is before dateDebut ${dateDebut}`);
  if (days > maxDays) {
    throw new DomainError('invalid', 'MaxReportDays', `${days} days requested, at most ${maxDays}`, {
      maxDays,
      days,
    });
  }
  return { dateDebut, dateFin, fiscalDates: null };
}

function resolveHours(input: RawReportInput): HourRange | null {
  if (!input.trancheHoraire) return null;
  const start = hhmmToMinutes(input.heureDebut);
  const end = hhmmToMinutes(input.heureFin);
  if (start === null || end === null) {
    throw badRequest(
      `heureDebut and heureFin must be HH:mm, got "${input.heureDebut}" and "${input.heureFin}"`,
    );
  }
  return { start, end };
}

/** Report sites by id list (db/changes.ts): emptied when a site or a company changes. */
export type ReportSiteCache = TableCache<ReportSite[]>;

/** A report-site cache on `feed` (one per server). */
export function reportSiteCache(feed: ChangeFeed): ReportSiteCache {
  return feed.cache<ReportSite[]>(['sites', 'companies'], { maxEntries: 1_000 });
}

/**
 * Reads sites `ids` with their clock, currency and brand, ascending id; through `cache` when
 * given (no round trip while no site or company changed). The array is shared: read-only.
 */
export async function loadReportSites(
  database: Database,
  ids: readonly number[],
  cache?: ReportSiteCache,
): Promise<ReportSite[]> {
  // Named (prepared once per connection): every report reads it before its own query.
  const read = async () =>
    (
      await database.pool.query<ReportSite>({
        name: 'comptoir_report_sites',
        text: `SELECT s.id, s.libelle, s.time_zone AS "timeZone", s.currency, c.enseigne
       FROM sites s JOIN companies c ON c.id = s.company_id
      WHERE s.id = ANY($1::int[]) ORDER BY s.id`,
        values: [ids],
      })
    ).rows;
  return cache ? ((await cache.get(ids.join(','), read)) ?? []) : read();
}

/**
 * Effective sites (reference/site-groups.ts) of the groups `groupIds` that lie in `scope`,
 * ascending (filtre=GROUPE).
 */
async function sitesOfGroups(
  database: Database,
  groupIds: number[],
  scope: readonly number[],
): Promise<number[]> {
  const { rows } = await database.pool.query<{ site_id: number }>(
    `SELECT DISTINCT gs.site_id FROM ${GROUP_SITES_SQL} gs
      WHERE gs.group_id = ANY($1::int[]) AND gs.site_id = ANY($2::int[]) ORDER BY gs.site_id`,
    [groupIds, scope],
  );
  return rows.map((r) => r.site_id);
}

/**
 * The names of the groups holding each of `siteIds` among their effective sites
 * (reference/site-groups.ts), sorted, for regroupement=GROUPE; sites in no group absent.
 */
async function groupsOfSites(database: Database, siteIds: number[]): Promise<Record<number, string[]>> {
  const { rows } = await database.pool.query<{ site_id: number; names: string[] }>(
    `SELECT gs.site_id, array_agg(g.raison_sociale ORDER BY g.raison_sociale) AS names
       FROM ${GROUP_SITES_SQL} gs JOIN groups g ON g.id = gs.group_id
      WHERE gs.site_id = ANY($1::int[]) GROUP BY gs.site_id`,
    [siteIds],
  );
  return Object.fromEntries(rows.map((r) => [r.site_id, r.names]));
}

/**
 * Checks `input` for a user whose scope is `scopeSiteIds` and builds the request.
 * @param options.now the generated-at instant (default now).
 * @param options.findClass where class names are looked up (default the registry).
 * @throws DomainError with the codes listed in this module's header.
 */
export async function resolveReport(
  input: RawReportInput,
  scopeSiteIds: readonly number[],
  database: Database,
  options: {
    now?: Date;
    findClass?: (className: string) => ReportClass | undefined;
    /** The server's report-site cache (app.ts); without it, the sites are read every time. */
    sites?: ReportSiteCache;
  } = {},
): Promise<ResolvedReport> {
  const now = options.now ?? new Date();
  const cls = (options.findClass ?? findReportClass)(input.rapportClassName);
  if (!cls)
    throw new DomainError('invalid', 'ErrorUnknownRap', `unknown report class "${input.rapportClassName}"`);
  const variant = cls.variants.find((v) => v === input.typeRapport);
  if (!variant) {
    throw badRequest(`${cls.className} has no variant "${input.typeRapport}"`, { variants: cls.variants });
  }
  if (!cls.formats.includes(input.format)) {
    if (input.format === 'PDF')
      throw new DomainError('invalid', 'notAPdf', `${cls.className} is not available in PDF`);
    throw badRequest(`${cls.className} is not available in ${input.format}`, { formats: cls.formats });
  }
  const parsedParams = cls.params.safeParse({
    operation: input.operation,
    filtre: input.filtre,
    condition: input.condition,
    tri: input.tri,
    regroupement: input.regroupement,
    isFilters: input.isFilters,
  });
  if (!parsedParams.success) {
    throw badRequest(`parameters not supported by ${cls.className}`, {
      issues: parsedParams.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const period = resolvePeriod(input, cls.maxDays);
  const hours = resolveHours(input);
  const { narrowing, rowFilter } = splitFilter(cls.className, input);
  const shaping: Shaping = {
    rowFilter,
    groupBy: input.regroupement?.trim() ? input.regroupement.trim() : null,
    sort: parseSort(input.tri),
  };
  const groupSites = narrowing.groups
    ? await sitesOfGroups(database, narrowing.groups, scopeSiteIds)
    : undefined;
  const chosenSites = intersect(intersect(input.sites, narrowing.sites, 'sites'), groupSites, 'sites');
  const terminals = intersect([...new Set(input.tpv)], narrowing.terminals, 'terminals');
  const sellers = intersect([...new Set(input.vendeurs)], narrowing.sellers, 'sellers');

  const scope = new Set(scopeSiteIds);
  const outside = chosenSites.filter((id) => !scope.has(id));
  if (outside.length > 0) {
    throw new DomainError('forbidden', 'Forbidden', `sites outside the user's scope: ${outside.join(', ')}`, {
      sites: outside,
    });
  }
  const wanted = chosenSites.length > 0 ? [...new Set(chosenSites)] : [...scope];
  if (wanted.length === 0) throw new DomainError('invalid', 'NoSitesSelected', "no site in the user's scope");
  const sites = await loadReportSites(database, wanted, options.sites);
  if (sites.length === 0) throw new DomainError('invalid', 'NoSitesSelected', 'none of the sites exists');
  if (shaping.groupBy === 'GROUPE')
    shaping.siteGroups = await groupsOfSites(
      database,
      sites.map((s) => s.id),
    );
  const currencies = [...new Set(sites.map((s) => s.currency))];
  if (currencies.length > 1) {
    throw new DomainError('invalid', 'mixedCurrencies', `sites trade in ${currencies.join(', ')}`, {
      currencies,
    });
  }

  return {
    cls,
    request: {
      className: cls.className,
      variant,
      format: input.format,
      language: input.language,
      sites,
      currency: currencies[0]!,
      ...period,
      hours,
      terminals,
      sellers,
      trainingMode: input.trainingMode,
      params: parsedParams.data,
      generatedAt: now,
    },
    shaping,
  };
}

/**
 * `dateDebut..dateFin` checked as wire dates in order, at most `maxDays` long (bo/getGroupements,
 * bo/getAllReportsSpecBK, which take a plain period rather than a report request).
 * @throws DomainError invalid (400) BadRequest for a bad or inverted date; invalid (400)
 *   MaxReportDays with `details.maxDays` and `details.days` beyond `maxDays`.
 */
export function checkedPeriod(
  dateDebut: string,
  dateFin: string,
  maxDays: number,
): { dateDebut: string; dateFin: string } {
  if (!parseWireDate(dateDebut) || !parseWireDate(dateFin)) {
    throw badRequest('dateDebut and dateFin must be dates YYYY-MM-DD');
  }
  const days = daysInclusive(dateDebut, dateFin);
  if (days < 1) throw badRequest(`dateFin ${dateFin} is before dateDebut ${dateDebut}`);
  if (days > maxDays) {
    throw new DomainError('invalid', 'MaxReportDays', `${days} days requested, at most ${maxDays}`, {
      maxDays,
      days,
    });
  }
  return { dateDebut, dateFin };
}
