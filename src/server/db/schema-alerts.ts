/**
 * Alerts (issue #28 "Alerts", src/contract/alerts.ts): a condition checked at each occurrence of a
 * recurrence rule (the subscriptions' `report_rules`) on some sites, mailing the alert's
 * recipients (the subscriptions' `report_recipients`) only when something needs a person. As a
 * subscription, an alert keeps its owner with `ON DELETE SET NULL` (it then runs with nobody's
 * rights: it sees no site and sends nothing).
 */
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';
import { reportRecipients, reportRules } from './schema-subscriptions.ts';

/** An alert: its kind, its sites, its rule, its owner. */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    libelle: text('libelle').notNull(),
    /** dayOutsideForecast, countMissing or newAnomaly (contract ALERT_KINDS). */
    kind: text('kind').notNull(),
    /** Site ids; at run time only those within the owner's scope are checked. */
    sites: integer('sites').array().notNull().default([]),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => reportRules.id),
    active: boolean('active').notNull().default(true),
    /** newAnomaly: the instant up to which anomalies were already checked (null: never). */
    checkedUntil: timestamp('checked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alerts_owner_idx').on(t.ownerId), index('alerts_rule_idx').on(t.ruleId)],
);

/** The recipients of an alert. */
export const alertRecipients = pgTable(
  'alert_recipients',
  {
    alertId: integer('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => reportRecipients.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.recipientId] }),
    index('alert_recipients_recipient_idx').on(t.recipientId),
  ],
);
