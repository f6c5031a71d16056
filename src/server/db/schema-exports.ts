/**
 * Report editions and data loads (issue #4 points 2 and 6: the report state of bo/getResultsData,
 * the editions of bo/rapport/metrics, the exports list and GET exports/status).
 *
 * `report_editions` keeps one row per report generated through bo/getReport (GET, single-site,
 * POST): who, which class, variant, format, period, sites, size and outcome, plus the normalised
 * request so a report can be run again (bo/getResultsData, download again). The user's login is
 * copied so the row still names its author after the user is deleted.
 *
 * `data_loads` keeps one row per load of sales data into a site (import, demo generation): when,
 * from which source, which fiscal dates and how many tickets, for GET exports/status.
 */
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './schema.ts';

/** Outcome of a generation: sent, empty (CheckReportParam), or failed while rendering. */
export type EditionStatus = 'OK' | 'EMPTY' | 'FAILED';

/** One generated report. `bytes` is the size of the document sent (null while a stream runs or when it failed). */
export const reportEditions = pgTable(
  'report_editions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    login: text('login').notNull(),
    className: text('class_name').notNull(),
    variant: text('variant').notNull(),
    format: text('format').notNull(),
    language: text('language').notNull(),
    dateDebut: date('date_debut').notNull(),
    dateFin: date('date_fin').notNull(),
    /** Explicit fiscal dates (datefiscales[]) or null for the range. */
    fiscalDates: date('fiscal_dates').array(),
    siteIds: integer('site_ids').array().notNull().default(sql`'{}'::int[]`),
    /** The normalised request (RawReportInput of src/server/reports/request.ts), sites made explicit. */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    bytes: bigint('bytes', { mode: 'number' }),
    rows: integer('rows'),
    status: text('status').$type<EditionStatus>().notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_editions_user_idx').on(t.userId, t.generatedAt),
    index('report_editions_generated_idx').on(t.generatedAt),
  ],
);

/** One load of sales data into a site. */
export const dataLoads = pgTable(
  'data_loads',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    siteId: integer('site_id').notNull(),
    /** `file:<name>` for an import, `demo` for the demo chain. */
    source: text('source').notNull(),
    firstFiscalDate: date('first_fiscal_date'),
    lastFiscalDate: date('last_fiscal_date'),
    /** Tickets the load added. */
    tickets: integer('tickets').notNull(),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Keyed by (site_id, id) so a distributed PostgreSQL can shard it by site like the sales
  // (docs/operations/distributed-postgresql.md); ids stay unique from their sequence.
  (t) => [
    primaryKey({ name: 'data_loads_site_id_id_pk', columns: [t.siteId, t.id] }),
    index('data_loads_site_idx').on(t.siteId, t.loadedAt),
  ],
);
