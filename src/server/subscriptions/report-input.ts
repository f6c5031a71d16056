/**
 * What report a subscription run asks the report domain for (issue #28): the subscription's
 * configuration — or its owner's favourite — narrowed to the owner's scope ON THE DAY OF THE RUN,
 * for the relative period resolved in the subscription's time zone.
 *
 * Guarantees: never more than the owner may see now. Chosen sites the owner lost are dropped;
 * when none of the chosen sites is left the run has no report at all (null), rather than
 * widening to every site of the scope as an unchosen list would.
 */
import { subYears } from 'date-fns/subYears';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { type Favourite, FavouriteSchema } from '../../contract/favourites.ts';
import { type DateRange, resolvePeriod } from '../../contract/periods.ts';
import type { Language } from '../../contract/reports.ts';
import type { SubscriptionFormat, SubscriptionReport } from '../../contract/subscriptions.ts';
import { siteScopeSql } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { reportInput, type RawReportInput } from '../reports/request.ts';
import { localDate } from './occurrences.ts';

/** The zone of a subscription whose sites span several zones (or none): the chain's (decision 0031). */
export const CHAIN_TIME_ZONE = 'Europe/Paris';

/**
 * SQL: the distinct time zones (text[]) of the sites a subscription `s` covers — its chosen sites
 * (those of its favourite `f` when it has one), or every site of its owner's scope when none is
 * chosen. Needs `s` (report_subscriptions) and `f` (favourites, LEFT JOINed on the favourite id).
 */
export const SUBSCRIPTION_ZONES_SQL = `(SELECT coalesce(array_agg(DISTINCT st.time_zone ORDER BY st.time_zone), '{}')
   FROM sites st
  WHERE st.id = ANY(CASE WHEN jsonb_array_length(coalesce(f.request->'lSites', s.report->'lSites', '[]'::jsonb)) > 0
        THEN ARRAY(SELECT jsonb_array_elements_text(coalesce(f.request->'lSites', s.report->'lSites'))::int)
        ELSE ${siteScopeSql('s.owner_id')} END))`;

/** The zone rules of a subscription are evaluated in: its sites' one zone, else {@link CHAIN_TIME_ZONE}. */
export function subscriptionTimeZone(zones: readonly string[]): string {
  return zones.length === 1 ? zones[0]! : CHAIN_TIME_ZONE;
}

/**
 * The dates of `report.periode` for a run planned at `plannedAt`, "today" being the local date
 * of `plannedAt` in `timeZone`; one year earlier when `anneePrecedente` (29 February → 28).
 */
export function runPeriod(
  report: Pick<SubscriptionReport, 'periode' | 'anneePrecedente'>,
  plannedAt: Date,
  timeZone: string,
): DateRange {
  const today = parseWireDate(localDate(plannedAt, timeZone))!;
  const range = resolvePeriod(report.periode, today);
  if (!report.anneePrecedente) return range;
  const back = (d: string) => toWireDate(subYears(parseWireDate(d)!, 1));
  return { dateDebut: back(range.dateDebut), dateFin: back(range.dateFin) };
}

/**
 * Favourite `favoriId` of user `ownerId`.
 * @throws DomainError notFound when the owner no longer has it.
 */
export async function ownerFavourite(db: Queryable, ownerId: number, favoriId: number): Promise<Favourite> {
  const { rows } = await db.query<{ id: number; libelle: string; request: Record<string, unknown> }>(
    'SELECT id, libelle, request FROM favourites WHERE id = $1 AND user_id = $2',
    [favoriId, ownerId],
  );
  if (!rows[0])
    throw new DomainError('notFound', 'NotFound', `the favourite ${favoriId} of the owner is gone`);
  return FavouriteSchema.parse({ ...rows[0].request, id: rows[0].id, libelle: rows[0].libelle });
}

/** A group filter as bo/getReport's (filtre GROUPE), or no filter. */
function groupFilter(groups: readonly number[]): Pick<RawReportInput, 'isFilters' | 'filtre' | 'condition'> {
  return groups.length > 0
    ? { isFilters: true, filtre: 'GROUPE', condition: groups.map(String) }
    : { isFilters: false, filtre: undefined, condition: [] };
}

/** The report fields of a favourite (its own period left out: the subscription's applies). */
function favouriteFields(
  f: Favourite,
): Omit<RawReportInput, 'format' | 'language' | 'dateDebut' | 'dateFin'> {
  const filter = f.isFilters
    ? { isFilters: true, filtre: f.filtre ?? undefined, condition: f.condition }
    : groupFilter(f.groupement === null ? [] : [f.groupement]);
  return reportInput({
    rapportClassName: f.typeRapport.className,
    typeRapport: f.type,
    format: 'PDF',
    language: 'fr',
    dateDebut: undefined,
    dateFin: undefined,
    sites: f.lSites,
    tpv: [...new Set(f.lCaisses.map((c) => c.terminalId))],
    vendeurs: [...new Set(f.vendeur.map((v) => v.code))],
    operation: f.operation,
    trancheHoraire: f.trancheHoraire,
    heureDebut: f.heureDebut,
    heureFin: f.heureFin,
    tri: f.tri ?? undefined,
    regroupement: f.regroupement ?? undefined,
    ...filter,
  });
}

/**
 * The bo/getReport input of a run in `format` and `language`, or null when the configuration
 * chose sites and the owner's scope `scope` holds none of them any more.
 */
export function subscriptionInput(
  report: SubscriptionReport,
  favourite: Favourite | null,
  scope: readonly number[],
  period: DateRange,
  format: SubscriptionFormat,
  language: Language,
): RawReportInput | null {
  const fields = favourite
    ? favouriteFields(favourite)
    : reportInput({
        rapportClassName: report.rapportClassName,
        typeRapport: report.typeRapport,
        format,
        language,
        dateDebut: undefined,
        dateFin: undefined,
        sites: report.lSites,
        tpv: report.tpv,
        vendeurs: report.vendeurs,
        operation: report.operation,
        ...groupFilter(report.groupements),
      });
  const inScope = new Set(scope);
  const sites = fields.sites.filter((id) => inScope.has(id));
  if ((fields.sites.length > 0 && sites.length === 0) || scope.length === 0) return null;
  return { ...fields, sites, format, language, ...period };
}
