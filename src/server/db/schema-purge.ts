/**
 * What an empty or a partial empty of the database leaves behind (issue #30, decision 0040,
 * migration 0020). Neither table is ever purged, and both refuse UPDATE, DELETE and TRUNCATE
 * (a trigger, as `audit_log`): in the spirit of NF525, the detail of a purged period lives on in
 * its verified archive, and its grand totals here.
 */
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * One purge of one site's period (keyed by site first, as every site's table: DESIGN.md §5) (an empty of the whole database writes one row per site):
 * the fiscal dates `fromDate..toDate` (included), the archive file (path relative to DATA_DIR
 * when under it, else absolute) and its SHA-256 (hex), the rows archived per table, who asked
 * and why (`comment`, SPEC.md's `commentaire`).
 */
export const dataPurges = pgTable(
  'data_purges',
  {
    id: serial('id').notNull(),
    siteId: integer('site_id').notNull(),
    fromDate: date('from_date').notNull(),
    toDate: date('to_date').notNull(),
    archivePath: text('archive_path').notNull(),
    archiveSha256: text('archive_sha256').notNull(),
    rowCounts: jsonb('row_counts').$type<Record<string, number>>().notNull(),
    comment: text('comment').notNull(),
    userId: integer('user_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.id] }), index('data_purges_site_idx').on(t.siteId, t.fromDate)],
);

/**
 * The grand totals of one site's fiscal date whose detail was purged, copied from `daily_sales`
 * in the purge's transaction before the delete: `tickets` counts SALE tickets, amounts are
 * integer cents incl. returns and cancellations (negative), training mode left out. A day purged
 * twice (new detail loaded after the first purge) has a row per purge: its kept totals are their sum.
 */
export const fiscalDayTotals = pgTable(
  'fiscal_day_totals',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    purgeId: integer('purge_id').notNull(),
    tickets: integer('tickets').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate, t.purgeId] })],
);
