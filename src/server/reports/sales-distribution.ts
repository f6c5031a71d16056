/**
 * The sales distribution of GET bo/getRepartition (SPEC.md §7): how the sales of some sites over a period split across one
 * dimension (payment method, family, VAT rate, terminal, seller, hour of the day), for the
 * distributions screen (/analyses/repartitions). What each `typeRepartition` and `statut` means
 * is defined once in src/contract/distributions.ts.
 *
 * Errors (DomainError with SPEC.md §8 codes, as bo/getReport): a malformed date or `dateFin` before `dateDebut`
 * → 400 BadRequest; more than {@link DISTRIBUTION_MAX_DAYS} days → 400 MaxReportDays; a site
 * outside the user's scope → 403 Forbidden; no site in scope → 400 NoSitesSelected; sites
 * trading in different currencies → 400 mixedCurrencies. An empty period answers no rows.
 *
 * One set-based query per call, reading the period's tickets through the `(site_id,
 * fiscal_date)` index and joining lines or payments by primary key only for the dimensions that
 * live there.
 */
import { daysInclusive, parseWireDate } from '../../contract/dates.ts';
import {
  DISTRIBUTION_MAX_DAYS,
  type DistributionAnswer,
  type DistributionStatus,
  type DistributionType,
} from '../../contract/distributions.ts';
import type { Language } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { formatPercent, message } from '../i18n.ts';
import { loadReportSites } from './request.ts';
import { paymentMethodKey } from './sales-analyses/figures.ts';
import type { ReportSite } from './types.ts';

/**
 * Per dimension: the joined table (if any), the key expression, the amount and the ticket count.
 * Distinct tickets are counted on `ticket_id` alone, which is unique across sites (schema.ts
 * `ticket_id_seq`); counting `(site_id, ticket_id)` pairs would sort records and cost far more.
 */
const DIMENSIONS: Record<DistributionType, { join: string; key: string; amount: string; tickets: string }> = {
  PAIEMENT: {
    join: 'JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id',
    key: 'p.method',
    amount: 'p.amount_cents',
    tickets: 'count(DISTINCT t.ticket_id)',
  },
  FAMILLE: {
    join: 'JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id',
    key: "coalesce(l.family, '')",
    amount: 'l.amount_cents',
    tickets: 'count(DISTINCT t.ticket_id)',
  },
  TVA: {
    join: 'JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id',
    // Trailing zeros trimmed so the key reads `0.1`, `0.055` (numeric(6,4) prints `0.1000`).
    key: 'trim_scale(l.vat_rate)::text',
    amount: 'l.amount_cents',
    tickets: 'count(DISTINCT t.ticket_id)',
  },
  CAISSE: {
    join: '',
    key: "coalesce(t.terminal_id::text, '')",
    amount: 't.total_cents',
    tickets: 'count(*)',
  },
  VENDEUR: { join: '', key: "coalesce(t.seller_code, '')", amount: 't.total_cents', tickets: 'count(*)' },
  TRANCHE: {
    join: 'JOIN sites s ON s.id = t.site_id',
    key: "lpad(extract(hour FROM t.opened_at AT TIME ZONE s.time_zone)::int::text, 2, '0')",
    amount: 't.total_cents',
    tickets: 'count(*)',
  },
};

/** Ticket kinds of each `statut`. */
const KINDS: Record<DistributionStatus, string[]> = {
  VENTE: ['SALE', 'RETURN'],
  ANNULATION: ['CANCELLATION'],
  TOUS: ['SALE', 'RETURN', 'CANCELLATION'],
};

interface PartRow {
  key: string;
  /** Seller names of the code across the chosen sites (VENDEUR only). */
  names: string | null;
  tickets: number | string;
  amount: number | string;
}

/** The SQL of one distribution (exported for the benchmark). */
export function distributionQuery(
  type: DistributionType,
  status: DistributionStatus,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): { text: string; values: unknown[] } {
  const d = DIMENSIONS[type];
  const names =
    type === 'VENDEUR'
      ? `(SELECT string_agg(DISTINCT se.nom, ' / ') FROM sellers se
           WHERE se.site_id = ANY($1::int[]) AND se.code = part.key)`
      : 'NULL::text';
  return {
    text: `SELECT part.key, ${names} AS names, part.tickets, part.amount
             FROM (SELECT ${d.key} AS key, ${d.tickets}::int AS tickets, sum(${d.amount})::bigint AS amount
                     FROM tickets t ${d.join}
                    WHERE t.site_id = ANY($1::int[])
                      AND t.fiscal_date BETWEEN $2::date AND $3::date
                      AND NOT t.training_mode
                      AND t.kind = ANY($4::text[])
                    GROUP BY 1) part
            ORDER BY part.amount DESC, part.key`,
    values: [siteIds, dateDebut, dateFin, KINDS[status]],
  };
}

function label(type: DistributionType, row: PartRow, language: Language): string {
  if (row.key === '') return message(language, 'report.notSet');
  switch (type) {
    case 'PAIEMENT':
      return message(language, `report.paymentMethod.${paymentMethodKey(row.key)}`);
    case 'FAMILLE':
      return row.key;
    case 'TVA':
      return formatPercent(language, Number(row.key));
    case 'CAISSE':
      return message(language, 'distribution.terminal', { terminal: row.key });
    case 'VENDEUR':
      return row.names ?? row.key;
    case 'TRANCHE': {
      const hour = Number(row.key);
      return `${row.key}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;
    }
  }
}

function checkedDate(text: string, name: string): string {
  if (!parseWireDate(text)) {
    throw new DomainError('invalid', 'BadRequest', `${name} must be a date YYYY-MM-DD, got "${text}"`);
  }
  return text;
}

/** What bo/getRepartition asks for, in the domain's words. */
export interface DistributionRequest {
  type: DistributionType;
  status: DistributionStatus;
  /** The restaurantIds asked for; none = every site of the scope (SPEC.md §5). */
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  language: Language;
}

/**
 * The checked period of `request`: wire dates in order, at most {@link DISTRIBUTION_MAX_DAYS}.
 * @throws DomainError invalid (400) BadRequest or MaxReportDays (with `details.maxDays`, `days`).
 */
function checkedPeriod(request: DistributionRequest): { dateDebut: string; dateFin: string } {
  const dateDebut = checkedDate(request.dateDebut, 'dateDebut');
  const dateFin = checkedDate(request.dateFin, 'dateFin');
  const days = daysInclusive(dateDebut, dateFin);
  if (days < 1) {
    throw new DomainError('invalid', 'BadRequest', `dateFin ${dateFin} is before dateDebut ${dateDebut}`);
  }
  if (days > DISTRIBUTION_MAX_DAYS) {
    throw new DomainError(
      'invalid',
      'MaxReportDays',
      `${days} days requested, at most ${DISTRIBUTION_MAX_DAYS}`,
      {
        maxDays: DISTRIBUTION_MAX_DAYS,
        days,
      },
    );
  }
  return { dateDebut, dateFin };
}

/**
 * The sites of `requested` (none: the whole scope), all in `scopeSiteIds` and in one currency.
 * @throws DomainError forbidden (403) Forbidden with `details.sites` for sites outside the scope;
 *   invalid (400) NoSitesSelected, mixedCurrencies (with `details.currencies`).
 */
async function checkedSites(
  database: Database,
  scopeSiteIds: readonly number[],
  requested: readonly number[],
): Promise<ReportSite[]> {
  const scope = new Set(scopeSiteIds);
  const outside = requested.filter((id) => !scope.has(id));
  if (outside.length > 0) {
    throw new DomainError('forbidden', 'Forbidden', `sites outside the user's scope: ${outside.join(', ')}`, {
      sites: outside,
    });
  }
  const wanted = requested.length > 0 ? [...requested] : [...scope];
  if (wanted.length === 0) throw new DomainError('invalid', 'NoSitesSelected', "no site in the user's scope");
  const sites = await loadReportSites(database, wanted);
  if (sites.length === 0) throw new DomainError('invalid', 'NoSitesSelected', 'none of the sites exists');
  const currencies = [...new Set(sites.map((s) => s.currency))];
  if (currencies.length > 1) {
    throw new DomainError('invalid', 'mixedCurrencies', `sites trade in ${currencies.join(', ')}`, {
      currencies,
    });
  }
  return sites;
}

/**
 * The distribution of bo/getRepartition for a user whose scope is `scopeSiteIds`: one row per
 * key, largest amount first, amounts in cents, shares of the total (0 when the total is 0).
 * @throws DomainError with the codes listed in this module's header, checked in that order.
 */
export async function salesDistribution(
  database: Database,
  scopeSiteIds: readonly number[],
  request: DistributionRequest,
): Promise<DistributionAnswer> {
  const { dateDebut, dateFin } = checkedPeriod(request);
  const sites = await checkedSites(database, scopeSiteIds, request.siteIds);
  const { rows } = await database.pool.query<PartRow>(
    distributionQuery(
      request.type,
      request.status,
      sites.map((s) => s.id),
      dateDebut,
      dateFin,
    ),
  );
  const totalCents = rows.reduce((sum, r) => sum + Number(r.amount), 0);
  return {
    typeRepartition: request.type,
    statut: request.status,
    currency: sites[0]!.currency,
    dateDebut,
    dateFin,
    rows: rows.map((r) => {
      const amountCents = Number(r.amount);
      return {
        key: r.key,
        label: label(request.type, r, request.language),
        tickets: Number(r.tickets),
        amountCents,
        share: totalCents === 0 ? 0 : amountCents / totalCents,
      };
    }),
    totalCents,
  };
}
