/**
 * What the hand-made chains of the report tests share (tests/reports/chain.ts,
 * tests/reports/sales-analyses/chain.ts, tests/reports/operations/fixture.ts): the two companies,
 * sites with terminals 1–3 and their sellers, tickets with their lines and payments written in
 * one statement each, the per-day aggregates refreshed as every load does, the local opening
 * time of a ticket, and the defaults of a bo/getReport call. Each chain keeps its own tickets
 * in memory (so its tests compute expected figures from them, independently of the reports'
 * SQL) and hands them here in the shapes below.
 */
import { TZDate } from '@date-fns/tz';
import { refreshDailySales } from '../../src/server/db/aggregates.ts';
import type { Database } from '../../src/server/db/connect.ts';
import { type RawReportInput, reportInput as defaultReportInput } from '../../src/server/reports/request.ts';

/** A site of a test chain; company 1 (brand "Le Comptoir") or 2 (brand "Counter"). */
export interface TestSite {
  id: number;
  libelle: string;
  companyId: number;
  timeZone: string;
  currency: string;
}

/** A seller of every site of a test chain. */
export interface TestSeller {
  code: string;
  nom: string;
}

/** A ticket line to insert; amounts in cents, `vatRate` a fraction (0.1 = 10 %). */
export interface TestLine {
  article: string;
  family: string | null;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  vatRate: number;
  amountExclCents: number;
  taxCents: number;
  corrected: boolean;
}

/** A payment to insert, in cents. */
export interface TestPayment {
  method: string;
  amountCents: number;
}

/** What every test chain's in-memory ticket holds, whatever else it keeps. */
export interface TicketCore {
  siteId: number;
  ticketId: number;
  fiscalDate: string;
  /** Site local clock when opened; hours before 05:00 fall on the next calendar day ({@link openedAt}). */
  localHour: number;
  localMinute: number;
  terminalId: number | null;
  sellerCode: string | null;
  kind: 'SALE' | 'RETURN' | 'CANCELLATION';
  trainingMode: boolean;
}

/**
 * A ticket to insert (source `test`, `sourceRef` the ticket id unless given), with its lines
 * and payments numbered from 1 in order.
 */
export interface TestTicket extends TicketCore {
  employeeMeal?: boolean;
  covers?: number | null;
  totalCents: number;
  totalExclCents: number;
  taxCents: number;
  sourceRef?: string;
  lines?: readonly TestLine[];
  payments?: readonly TestPayment[];
}

/** What {@link loadTestChain} writes. */
export interface TestChain {
  sites: readonly TestSite[];
  sellers: readonly TestSeller[];
  tickets: readonly TestTicket[];
  /** Fiscal dates (`YYYY-MM-DD`, inclusive) whose aggregates are refreshed for every site. */
  refresh: { from: string; to: string };
}

/**
 * The instant a ticket opened at `localHour:localMinute` on the site's clock (`timeZone`) for
 * `fiscalDate`: hours before 05:00 belong to the late service, on the next calendar day.
 */
export function openedAt(
  fiscalDate: string,
  localHour: number,
  localMinute: number,
  timeZone: string,
): string {
  const [y, m, d] = fiscalDate.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d + (localHour < 5 ? 1 : 0), localHour, localMinute, timeZone).toISOString();
}

/** Minutes since local midnight of the time a ticket opened on its site's clock (0–1439). */
export function localMinute(t: Pick<TicketCore, 'localHour' | 'localMinute'>): number {
  return t.localHour * 60 + t.localMinute;
}

/**
 * {@link localMinute} in the order of the trading day: hours before 05:00 (the late service,
 * see {@link openedAt}) come after 23:59, as minutes 1440 onwards.
 */
export function tradingDayMinute(t: Pick<TicketCore, 'localHour' | 'localMinute'>): number {
  return (t.localHour < 5 ? 24 * 60 : 0) + localMinute(t);
}

/** The local time a ticket opened as the reports write it: `HH:MM`, both zero-padded. */
export function localTime(t: Pick<TicketCore, 'localHour' | 'localMinute'>): string {
  return `${String(t.localHour).padStart(2, '0')}:${String(t.localMinute).padStart(2, '0')}`;
}

/**
 * Inserts the two companies, `sites` with terminals 1–3 (`Caisse n`) and `sellers` on each,
 * moves the id sequences past them (so a test may create more through the API), inserts the
 * tickets, lines and payments, and refreshes `daily_sales` and its breakdowns as a load does.
 */
export async function loadTestChain(database: Database, chain: TestChain): Promise<void> {
  const { pool } = database;
  await pool.query(`INSERT INTO companies (id, raison_sociale, enseigne) VALUES
    (1, 'Brasserie du Nord SAS', 'Le Comptoir'), (2, 'Counter UK Ltd', 'Counter')`);
  for (const s of chain.sites) {
    await pool.query(
      'INSERT INTO sites (id, libelle, company_id, time_zone, currency) VALUES ($1, $2, $3, $4, $5)',
      [s.id, s.libelle, s.companyId, s.timeZone, s.currency],
    );
    for (const t of [1, 2, 3]) {
      await pool.query('INSERT INTO terminals (site_id, terminal_id, libelle) VALUES ($1, $2, $3)', [
        s.id,
        t,
        `Caisse ${t}`,
      ]);
    }
    for (const v of chain.sellers) {
      await pool.query('INSERT INTO sellers (site_id, code, nom) VALUES ($1, $2, $3)', [s.id, v.code, v.nom]);
    }
  }
  await pool.query("SELECT setval('sites_id_seq', 10), setval('companies_id_seq', 10)");
  const tickets = chain.tickets;
  const timeZones = new Map(chain.sites.map((s) => [s.id, s.timeZone]));
  await pool.query(
    `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                          training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::date[], $4::timestamptz[], $5::int[], $6::text[], $7::text[],
                          $8::boolean[], $9::boolean[], $10::smallint[], $11::bigint[], $12::bigint[], $13::bigint[],
                          $14::text[], $15::text[])`,
    [
      tickets.map((t) => t.siteId),
      tickets.map((t) => t.ticketId),
      tickets.map((t) => t.fiscalDate),
      tickets.map((t) => openedAt(t.fiscalDate, t.localHour, t.localMinute, timeZones.get(t.siteId)!)),
      tickets.map((t) => t.terminalId),
      tickets.map((t) => t.sellerCode),
      tickets.map((t) => t.kind),
      tickets.map((t) => t.employeeMeal ?? false),
      tickets.map((t) => t.trainingMode),
      tickets.map((t) => t.covers ?? null),
      tickets.map((t) => t.totalCents),
      tickets.map((t) => t.totalExclCents),
      tickets.map((t) => t.taxCents),
      tickets.map(() => 'test'),
      tickets.map((t) => t.sourceRef ?? String(t.ticketId)),
    ],
  );
  const lines = tickets.flatMap((t) => (t.lines ?? []).map((l, i) => ({ t, l, no: i + 1 })));
  if (lines.length > 0) {
    await pool.query(
      `INSERT INTO ticket_lines (site_id, ticket_id, line_no, article, family, quantity, unit_price_cents, amount_cents,
                                 vat_rate, amount_excl_cents, tax_cents, corrected)
       SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::numeric[], $7::bigint[],
                            $8::bigint[], $9::numeric[], $10::bigint[], $11::bigint[], $12::boolean[])`,
      [
        lines.map((x) => x.t.siteId),
        lines.map((x) => x.t.ticketId),
        lines.map((x) => x.no),
        lines.map((x) => x.l.article),
        lines.map((x) => x.l.family),
        lines.map((x) => x.l.quantity),
        lines.map((x) => x.l.unitPriceCents),
        lines.map((x) => x.l.amountCents),
        lines.map((x) => x.l.vatRate),
        lines.map((x) => x.l.amountExclCents),
        lines.map((x) => x.l.taxCents),
        lines.map((x) => x.l.corrected),
      ],
    );
  }
  const payments = tickets.flatMap((t) => (t.payments ?? []).map((p, i) => ({ t, p, no: i + 1 })));
  if (payments.length > 0) {
    await pool.query(
      `INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents)
       SELECT * FROM unnest($1::int[], $2::bigint[], $3::smallint[], $4::text[], $5::bigint[])`,
      [
        payments.map((x) => x.t.siteId),
        payments.map((x) => x.t.ticketId),
        payments.map((x) => x.no),
        payments.map((x) => x.p.method),
        payments.map((x) => x.p.amountCents),
      ],
    );
  }
  for (const s of chain.sites) await refreshDailySales(pool, s.id, chain.refresh.from, chain.refresh.to);
}

/**
 * Inserts company 1 (`raisonSociale`, brand "Le Comptoir") and its one site 1 (`libelle`, on
 * Europe/Paris time, trading in EUR), for the tests that need a single site and no terminals or
 * sellers; the id sequences are left as they are.
 */
export async function insertOneSite(
  pool: Database['pool'],
  raisonSociale: string,
  libelle: string,
): Promise<void> {
  await pool.query(`INSERT INTO companies (id, raison_sociale, enseigne) VALUES (1, $1, 'Le Comptoir')`, [
    raisonSociale,
  ]);
  await pool.query(
    `INSERT INTO sites (id, libelle, company_id, time_zone, currency) VALUES (1, $1, 1, 'Europe/Paris', 'EUR')`,
    [libelle],
  );
}

/**
 * A bo/getReport call (SPEC.md §7) for `rapportClassName` on sites 1 and 2 from `dateDebut` to
 * `dateFin`: Daily, JSON, French, every terminal and seller, no hour range, no training
 * tickets, operation VENTE, no shaping; `overrides` replace any of these.
 */
export function reportInput(
  rapportClassName: string,
  dateDebut: string,
  dateFin: string,
  overrides: Partial<RawReportInput> = {},
): RawReportInput {
  return defaultReportInput({
    rapportClassName,
    format: 'JSON',
    language: 'fr',
    dateDebut,
    dateFin,
    sites: [1, 2],
    ...overrides,
  });
}
