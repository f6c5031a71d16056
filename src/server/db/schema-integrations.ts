/**
 * Partner integrations (issue #29 "Integrations", decision 0044): one row per partner (Adoria,
 * Easilys, e-cash, consolidations) saying whether it runs, on which sites, when (a subscriptions'
 * `report_rules` rule), where the files go (`destination`, JSON) and how they are laid out
 * (`layout`, JSON); credentials of an HTTPS destination are kept only encrypted (`secret`,
 * AES-256-GCM, integrations/secrets.ts). `integration_deliveries` records each file delivered per
 * site, fiscal date and destination: the exactly-once guard.
 */
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { reportRules } from './schema-subscriptions.ts';

/** One partner's integration. */
export const integrations = pgTable('integrations', {
  id: serial('id').primaryKey(),
  /** adoria, easilys, ecash or consolidations (integrations/partners.ts); one row each. */
  partner: text('partner').notNull().unique(),
  enabled: boolean('enabled').notNull().default(false),
  sites: integer('sites').array().notNull().default([]),
  ruleId: integer('rule_id').references(() => reportRules.id, { onDelete: 'set null' }),
  /** `{ type: 'folder', folder }` or `{ type: 'https', url, method, headers }` (no secret). */
  destination: jsonb('destination').notNull(),
  /** Encrypted secret headers of an HTTPS destination (`v1:iv:tag:data`, base64), or null. */
  secret: text('secret'),
  /** Columns, CSV options and file name pattern (integrations/layout.ts). */
  layout: jsonb('layout').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A file delivered (or failing to be) for one site and fiscal date to one destination. */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    /** The destination as a key (`folder:<path>` or `https:<url>`): a new destination sends again. */
    destinationKey: text('destination_key').notNull(),
    /** SENT or FAILED. */
    status: text('status').notNull(),
    fileName: text('file_name').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    attempts: integer('attempts').notNull().default(1),
    /** Why the last try failed (never a secret). */
    error: text('error'),
    runId: text('run_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('integration_deliveries_key').on(t.integrationId, t.siteId, t.fiscalDate, t.destinationKey),
    index('integration_deliveries_status_idx').on(t.status),
  ],
);
