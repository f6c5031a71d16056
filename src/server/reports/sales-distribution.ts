/**
 * GET bo/getRepartition (SPEC.md §7): how the sales of some sites over a period split across one
 * dimension (payment method, family, VAT rate, terminal, seller, hour of the day), for the
 * distributions screen (/analyses/repartitions). What each `typeRepartition` and `statut` means
 * is defined once in src/contract/distributions.ts.
 *
 * Errors (SPEC.md §8 codes, as bo/getReport): a malformed date or `dateFin` before `dateDebut`
 * → 400 BadRequest; more than {@link DISTRIBUTION_MAX_DAYS} days → 400 MaxReportDays; a site
 * outside the user's scope → 403 Forbidden; no site in scope → 400 NoSitesSelected; sites
 * trading in different currencies → 400 mixedCurrencies. An empty period answers no rows.
 *
 * One set-based query per call, reading the period's tickets through the `(site_id,
 * fiscal_date)` index and joining lines or payments by primary key only for the dimensions that
 * live there.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { daysInclusive, parseWireDate } from '../../contract/dates.ts';
import {
  DISTRIBUTION_MAX_DAYS,
  type DistributionAnswer,
  DistributionAnswerSchema,
  DistributionQuerySchema,
  type DistributionStatus,
  type DistributionType,
} from '../../contract/distributions.ts';
import type { Language } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { formatPercent, message } from '../i18n.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import { paymentMethodKey } from '../reports/sales-analyses/figures.ts';
import { loadReportSites } from '../reports/request.ts';
import { errorResponses, ownSession } from './common.ts';

/**
 * Per dimension: the joined table (if any), the key expression, the amount and the ticket count.
 * Distinct tickets are counted on `ticket_id` alone, which is unique across sites (schema.ts
 * `ticket_id_seq`); counting `(site_id, ticket_id)` pairs sorts records and cost five times as much.
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
  if (!parseWireDate(text))
    throw new ApiHttpError(400, 'BadRequest', `${name} must be a date YYYY-MM-DD, got "${text}"`);
  return text;
}

/** Registers GET bo/getRepartition on an instance prefixed with the API base. */
export async function distributionRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;

  api.get(
    '/bo/getRepartition',
    {
      config: { rights: 'GET bo/getRepartition' },
      schema: {
        summary: 'How sales split by payment method, family, VAT rate, terminal, seller or hour (cents)',
        tags: ['reports'],
        querystring: DistributionQuerySchema,
        response: { 200: DistributionAnswerSchema, ...errorResponses },
      },
    },
    async (request): Promise<DistributionAnswer> => {
      const q = request.query;
      const session = ownSession(request, q.id);
      const dateDebut = checkedDate(q.dateDebut, 'dateDebut');
      const dateFin = checkedDate(q.dateFin, 'dateFin');
      const days = daysInclusive(dateDebut, dateFin);
      if (days < 1)
        throw new ApiHttpError(400, 'BadRequest', `dateFin ${dateFin} is before dateDebut ${dateDebut}`);
      if (days > DISTRIBUTION_MAX_DAYS) {
        throw new ApiHttpError(
          400,
          'MaxReportDays',
          `${days} days requested, at most ${DISTRIBUTION_MAX_DAYS}`,
          {
            maxDays: DISTRIBUTION_MAX_DAYS,
            days,
          },
        );
      }
      const requested = q.site ? [...new Set(q.site.split(',').map(Number))] : [];
      const scope = new Set(session.siteIds);
      const outside = requested.filter((id) => !scope.has(id));
      if (outside.length > 0) {
        throw new ApiHttpError(403, 'Forbidden', `sites outside the user's scope: ${outside.join(', ')}`, {
          sites: outside,
        });
      }
      const wanted = requested.length > 0 ? requested : [...scope];
      if (wanted.length === 0) throw new ApiHttpError(400, 'NoSitesSelected', "no site in the user's scope");
      const sites = await loadReportSites(database, wanted);
      if (sites.length === 0) throw new ApiHttpError(400, 'NoSitesSelected', 'none of the sites exists');
      const currencies = [...new Set(sites.map((s) => s.currency))];
      if (currencies.length > 1) {
        throw new ApiHttpError(400, 'mixedCurrencies', `sites trade in ${currencies.join(', ')}`, {
          currencies,
        });
      }

      const { rows } = await database.pool.query<PartRow>(
        distributionQuery(
          q.typeRepartition,
          q.statut,
          sites.map((s) => s.id),
          dateDebut,
          dateFin,
        ),
      );
      const totalCents = rows.reduce((sum, r) => sum + Number(r.amount), 0);
      return {
        typeRepartition: q.typeRepartition,
        statut: q.statut,
        currency: currencies[0]!,
        dateDebut,
        dateFin,
        rows: rows.map((r) => {
          const amountCents = Number(r.amount);
          return {
            key: r.key,
            label: label(q.typeRepartition, r, q.language),
            tickets: Number(r.tickets),
            amountCents,
            share: totalCents === 0 ? 0 : amountCents / totalCents,
          };
        }),
        totalCents,
      };
    },
  );
}
