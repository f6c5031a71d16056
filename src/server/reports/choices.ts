/**
 * What a report class offers before it is run (bo/getResultsChoices) and which values a filter
 * can take for a site and period (bo/getGroupements), SPEC.md §7. The meaning of the values is
 * shaping.ts's.
 *
 * A class's columns are learnt by running it on no site for one day (its query then reads no
 * row) and kept per class and language: columns depend on the class and language, never on
 * the data.
 */
import { wireToDisplay } from '../../contract/dates.ts';
import type { Choice, ResultsChoicesAnswer } from '../../contract/exports.ts';
import type { Dataset, Language } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { hasMessage, LOCALES, message } from '../i18n.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';
import { DIMENSIONS, type Dimension, groupableNames, selectsTickets } from './shaping.ts';
import { findReportClass } from './registry.ts';
import { checkedPeriod } from './request.ts';
import type { ReportClass, ReportRequest } from './types.ts';

const columnsCache = new Map<string, Pick<Dataset, 'columns'>>();

/** Wire values of `operation` a class accepts, read from its params schema; [] when any text goes. */
export function operationsOf(cls: ReportClass): string[] {
  const shape = (cls.params as { shape?: Record<string, { options?: unknown }> }).shape;
  const options = shape?.operation?.options;
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : [];
}

/** The columns of `cls`'s dataset in `language` (labels translated). */
export async function columnsOf(
  cls: ReportClass,
  language: Language,
  database: Database,
): Promise<Pick<Dataset, 'columns'>> {
  const key = `${cls.className}|${language}`;
  const cached = columnsCache.get(key);
  if (cached) return cached;
  const parsed = cls.params.safeParse({
    operation: operationsOf(cls)[0] ?? 'VENTE',
    filtre: undefined,
    condition: [],
    tri: undefined,
    regroupement: undefined,
    isFilters: false,
  });
  if (!parsed.success) throw new Error(`${cls.className}: default parameters refused`);
  const request: ReportRequest = {
    className: cls.className,
    variant: cls.variants[0]!,
    format: 'JSON',
    language,
    sites: [],
    currency: 'EUR',
    dateDebut: '2000-01-01',
    dateFin: '2000-01-01',
    fiscalDates: null,
    hours: null,
    terminals: [],
    sellers: [],
    trainingMode: false,
    params: parsed.data,
    generatedAt: new Date(0),
  };
  const dataset = await cls.query({ request, database });
  const columns = { columns: dataset.columns };
  columnsCache.set(key, columns);
  return columns;
}

function dimensionLabel(language: Language, dimension: Dimension): string {
  return message(language, `report.dimension.${dimension}`);
}

/** The filtres `cls` accepts: SITE always, CAISSE/VENDEUR when it selects tickets, others when a column shows them. */
export function filtresOf(cls: ReportClass, columns: Pick<Dataset, 'columns'>): string[] {
  const names = new Set(groupableNames(columns));
  names.add('SITE');
  names.add('GROUPE');
  if (selectsTickets(cls.className)) {
    names.add('CAISSE');
    names.add('VENDEUR');
  }
  return [
    ...DIMENSIONS.filter((d) => names.has(d)),
    ...[...names].filter((n) => !(DIMENSIONS as readonly string[]).includes(n)),
  ];
}

function labelOf(language: Language, name: string, columns: Pick<Dataset, 'columns'>): string {
  if ((DIMENSIONS as readonly string[]).includes(name)) return dimensionLabel(language, name as Dimension);
  return columns.columns.find((c) => c.key === name)?.label ?? name;
}

/** bo/getResultsChoices for `cls` in `language`. */
export async function resultsChoices(
  cls: ReportClass,
  language: Language,
  database: Database,
): Promise<ResultsChoicesAnswer> {
  const columns = await columnsOf(cls, language, database);
  const operationLabel = (op: string) => {
    const id = `report.operation.${op}`;
    return hasMessage(language, id) ? message(language, id) : op;
  };
  return {
    className: cls.className,
    localisedTitle: message(language, cls.titleId),
    variants: cls.variants.map((v) => ({ value: v, label: message(language, `report.variant.${v}`) })),
    formats: [...cls.formats],
    maxDays: cls.maxDays,
    operations: operationsOf(cls).map((op) => ({ value: op, label: operationLabel(op) })),
    filtres: filtresOf(cls, columns).map((f) => ({ value: f, label: labelOf(language, f, columns) })),
    tris: columns.columns.map((c) => ({ value: c.key, label: c.label })),
    regroupements: groupableNames(columns).map((g) => ({ value: g, label: labelOf(language, g, columns) })),
    conditionsFrom: 'bo/getGroupements',
  };
}

/**
 * bo/getResultsChoices for the class named `className` in `language`.
 * @throws DomainError invalid (400) ErrorUnknownRap for a class the server lacks.
 */
export async function resultsChoicesOf(
  className: string,
  language: Language,
  database: Database,
): Promise<ResultsChoicesAnswer> {
  return resultsChoices(knownClass(className), language, database);
}

/** The class named `className`; throws DomainError invalid (400) ErrorUnknownRap when unknown. */
function knownClass(className: string): ReportClass {
  const cls = findReportClass(className);
  if (!cls) throw new DomainError('invalid', 'ErrorUnknownRap', `unknown report class "${className}"`);
  return cls;
}

/** bo/getGroupements as asked: a class, one of its filtres, one site or none (= the scope), a period. */
export interface FilterValuesQuery {
  className: string;
  filtre: string;
  /** The one site asked for; `undefined` reads every site of `scopeSiteIds`. */
  siteId: number | undefined;
  dateDebut: string;
  dateFin: string;
  language: Language;
}

/**
 * The values `q.filtre` takes for a user whose scope is `scopeSiteIds` (bo/getGroupements), after
 * checking the class, the filtre, the period (the class's maximum days) and the site.
 * @throws DomainError invalid (400) ErrorUnknownRap for an unknown class; invalid (400) BadRequest
 *   with `details.filtres` for a filtre the class lacks, and those of {@link checkedPeriod};
 *   forbidden (403) Forbidden for a site outside the scope.
 */
export async function filterValues(
  database: Database,
  scopeSiteIds: readonly number[],
  q: FilterValuesQuery,
): Promise<Choice[]> {
  const cls = knownClass(q.className);
  const filtres = filtresOf(cls, await columnsOf(cls, q.language, database));
  if (!filtres.includes(q.filtre)) {
    throw new DomainError('invalid', 'BadRequest', `${cls.className} cannot be filtered by "${q.filtre}"`, {
      filtres,
    });
  }
  const { dateDebut, dateFin } = checkedPeriod(q.dateDebut, q.dateFin, cls.maxDays);
  if (q.siteId !== undefined && !scopeSiteIds.includes(q.siteId)) {
    throw new DomainError('forbidden', 'Forbidden', `site ${q.siteId} is outside the user's scope`);
  }
  const siteIds = q.siteId !== undefined ? [q.siteId] : [...scopeSiteIds];
  return groupements(database, { filtre: q.filtre, siteIds, dateDebut, dateFin, language: q.language });
}

/** What bo/getGroupements reads: sites (already checked against the scope) and a period. */
export interface GroupementsQuery {
  filtre: string;
  siteIds: number[];
  dateDebut: string;
  dateFin: string;
  language: Language;
}

/**
 * The values `filtre` takes in the data of the sites and period, ordered, with labels.
 * @throws DomainError invalid (400) BadRequest for a filtre that is not a dimension (a column's values
 *   come from the report itself).
 */
export async function groupements(database: Database, q: GroupementsQuery): Promise<Choice[]> {
  const { pool } = database;
  const period = [q.siteIds, q.dateDebut, q.dateFin];
  // The per-day aggregates (schema-aggregates.ts) hold exactly the values the reports read
  // (training mode left out), kept up to date by every load: a year reads a few thousand rows.
  const inPeriod = 'a.site_id = ANY($1::int[]) AND a.fiscal_date BETWEEN $2::date AND $3::date';
  switch (q.filtre as Dimension) {
    case 'SITE': {
      const { rows } = await pool.query<{ id: number; libelle: string }>(
        'SELECT id, libelle FROM sites WHERE id = ANY($1::int[]) ORDER BY libelle',
        [q.siteIds],
      );
      return rows.map((r) => ({ value: String(r.id), label: r.libelle }));
    }
    case 'GROUPE': {
      const { rows } = await pool.query<{ id: number; raison_sociale: string }>(
        `SELECT g.id, g.raison_sociale FROM groups g
          WHERE EXISTS (SELECT 1 FROM ${GROUP_SITES_SQL} gs WHERE gs.group_id = g.id AND gs.site_id = ANY($1::int[]))
          ORDER BY g.raison_sociale`,
        [q.siteIds],
      );
      return rows.map((r) => ({ value: String(r.id), label: r.raison_sociale }));
    }
    case 'CAISSE': {
      const { rows } = await pool.query<{ terminal_id: number; libelle: string | null; sites: number }>(
        `SELECT x.terminal_id, min(k.libelle) AS libelle, count(DISTINCT x.site_id)::int AS sites
           FROM (SELECT DISTINCT a.site_id, a.terminal_id FROM daily_terminal_sales a
                  WHERE ${inPeriod} AND a.terminal_id IS NOT NULL) x
           LEFT JOIN terminals k ON k.site_id = x.site_id AND k.terminal_id = x.terminal_id
          GROUP BY x.terminal_id ORDER BY x.terminal_id`,
        period,
      );
      return rows.map((r) => ({
        value: String(r.terminal_id),
        // A terminal number names one till per site: its label only when one site has it.
        label: r.libelle && r.sites === 1 ? `${r.terminal_id} – ${r.libelle}` : String(r.terminal_id),
      }));
    }
    case 'VENDEUR': {
      const { rows } = await pool.query<{ seller_code: string; nom: string | null }>(
        `SELECT x.seller_code, min(v.nom) AS nom
           FROM (SELECT DISTINCT a.site_id, a.seller_code FROM daily_seller_sales a
                  WHERE ${inPeriod} AND a.seller_code IS NOT NULL) x
           LEFT JOIN sellers v ON v.site_id = x.site_id AND v.code = x.seller_code
          GROUP BY x.seller_code ORDER BY x.seller_code`,
        period,
      );
      return rows.map((r) => ({
        value: r.seller_code,
        label: r.nom && r.nom !== r.seller_code ? `${r.nom} (${r.seller_code})` : r.seller_code,
      }));
    }
    case 'FAMILLE': {
      const { rows } = await pool.query<{ family: string }>(
        `SELECT DISTINCT a.family FROM daily_family_sales a WHERE ${inPeriod} AND a.family IS NOT NULL ORDER BY 1`,
        period,
      );
      return rows.map((r) => ({ value: r.family, label: r.family }));
    }
    case 'TVA': {
      const { rows } = await pool.query<{ vat_rate: string }>(
        `SELECT DISTINCT a.vat_rate::text AS vat_rate FROM daily_vat_sales a WHERE ${inPeriod}`,
        period,
      );
      const percent = new Intl.NumberFormat(LOCALES[q.language], {
        style: 'percent',
        maximumFractionDigits: 2,
      });
      return rows
        .map((r) => Number(r.vat_rate))
        .sort((a, b) => a - b)
        .map((rate) => ({ value: String(rate), label: percent.format(rate) }));
    }
    case 'PAIEMENT': {
      const { rows } = await pool.query<{ method: string }>(
        `SELECT DISTINCT a.method FROM daily_payment_sales a WHERE ${inPeriod} ORDER BY 1`,
        period,
      );
      return rows.map((r) => {
        const id = `report.paymentMethod.${r.method}`;
        return { value: r.method, label: hasMessage(q.language, id) ? message(q.language, id) : r.method };
      });
    }
    case 'DATE': {
      const { rows } = await pool.query<{ d: string }>(
        `SELECT DISTINCT a.fiscal_date::text AS d FROM daily_sales a WHERE ${inPeriod} ORDER BY 1`,
        period,
      );
      return rows.map((r) => ({ value: r.d, label: wireToDisplay(r.d) }));
    }
    default:
      throw new DomainError(
        'invalid',
        'BadRequest',
        `"${q.filtre}" is not a dimension; its values come from the report`,
        { dimensions: DIMENSIONS },
      );
  }
}
