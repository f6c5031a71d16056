/**
 * Hand-made report datasets and render options for the renderer tests (tests/reports/pdf-*.test.ts,
 * renderers-graph.test.ts, the routes tests that render a fetched dataset again) and for
 * bench/pdf.ts: the French options of the test chain, the tickets report (RapportTickets' ten
 * columns) and the sales report (RapportVentes' five columns) around rows each caller makes.
 * Types only from src/, so the bench can import it under plain Node.
 */
import type { Dataset } from '../../src/contract/reports.ts';
import type { RenderOptions } from '../../src/server/reports/render/cells.ts';

/**
 * Rendering in French for the chain "Le Comptoir" on Paris time: no hour range, no chosen fiscal
 * dates, no training tickets. Spread it to change a field (`{ ...FR_RENDER_OPTIONS, language: 'en' }`).
 */
export const FR_RENDER_OPTIONS: RenderOptions = {
  language: 'fr',
  chain: 'Le Comptoir',
  timeZone: 'Europe/Paris',
  hours: null,
  fiscalDates: null,
  trainingMode: false,
};

/** A row of {@link ticketsReport}: RapportTickets' ten columns; `amount` in cents. */
export type TicketsReportRow = {
  fiscalDate: string;
  time: string;
  siteId: number;
  site: string;
  terminalId: number;
  sellerCode: string;
  ticketNumber: string;
  kind: string;
  amount: number;
  payments: string;
};

/**
 * A Daily tickets report (RapportTickets, EUR, French labels, generated 2026-11-22 10:00 UTC) of
 * `rows`, from 2026-10-01 to `dateFin`, on `siteNames` (restaurant ids 1, 2, … in order); its
 * totals row holds the sum of the amounts (cents).
 */
export function ticketsReport(
  rows: TicketsReportRow[],
  siteNames: readonly string[],
  dateFin: string,
): Dataset {
  return {
    className: 'RapportTickets',
    variant: 'Daily',
    title: 'Tickets',
    currency: 'EUR',
    dateDebut: '2026-10-01',
    dateFin,
    sites: siteNames.map((libelle, i) => ({ restaurantId: i + 1, libelle })),
    generatedAt: '2026-11-22T10:00:00Z',
    columns: [
      { key: 'fiscalDate', label: 'Date fiscale', type: 'date' },
      { key: 'time', label: 'Heure', type: 'text' },
      { key: 'siteId', label: 'N° site', type: 'qty' },
      { key: 'site', label: 'Site', type: 'text' },
      { key: 'terminalId', label: 'Caisse', type: 'qty' },
      { key: 'sellerCode', label: 'Vendeur', type: 'text' },
      { key: 'ticketNumber', label: 'N° ticket', type: 'text' },
      { key: 'kind', label: 'Type', type: 'text' },
      { key: 'amount', label: 'Montant TTC', type: 'money' },
      { key: 'payments', label: 'Paiements', type: 'text' },
    ],
    rows,
    totals: { amount: rows.reduce((sum, row) => sum + row.amount, 0) },
  };
}

/**
 * The column keys of the sales report (RapportVentes, Daily) as the server answers them, in order:
 * fiscal date, site number and name, tickets, net sales incl. and excl. VAT, VAT, average ticket.
 */
export const SALES_COLUMN_KEYS = [
  'fiscalDate',
  'siteId',
  'site',
  'tickets',
  'netSales',
  'netSalesExclTax',
  'tax',
  'averageTicket',
] as const;

/** What a {@link salesReport} takes: the fields that differ from one sales dataset to the next. */
export type SalesReportFields = Pick<
  Dataset,
  'variant' | 'dateDebut' | 'dateFin' | 'sites' | 'rows' | 'totals'
>;

/**
 * A sales report (RapportVentes, EUR, French labels, generated 2026-11-21 10:00 UTC) with the
 * columns fiscal date, site number, site, tickets and net sales (cents), around `fields`.
 */
export function salesReport(fields: SalesReportFields): Dataset {
  return {
    className: 'RapportVentes',
    variant: fields.variant,
    title: 'Ventes',
    currency: 'EUR',
    dateDebut: fields.dateDebut,
    dateFin: fields.dateFin,
    sites: fields.sites,
    generatedAt: '2026-11-21T10:00:00Z',
    columns: [
      { key: 'fiscalDate', label: 'Date fiscale', type: 'date' },
      { key: 'siteId', label: 'N° site', type: 'qty' },
      { key: 'site', label: 'Site', type: 'text' },
      { key: 'tickets', label: 'Tickets', type: 'qty' },
      { key: 'netSales', label: 'CA TTC', type: 'money' },
    ],
    rows: fields.rows,
    totals: fields.totals,
  };
}
