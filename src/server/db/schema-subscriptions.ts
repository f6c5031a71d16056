/**
 * Recurring report e-mails (issue #28, src/contract/subscriptions.ts): rules, recipients,
 * subscriptions and which recipients each subscription mails. A subscription keeps its owner
 * with `ON DELETE SET NULL`: removing the owner suspends it (it runs with nobody's rights, so it
 * sends nothing) instead of deleting what an administrator may give to someone else. The report
 * configuration is JSON in the contract's shape (checked on the way in and out), as favourites.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

/** A recurrence rule (SPEC.md §6): kind, days, local hour and minute. */
export const reportRules = pgTable('report_rules', {
  id: serial('id').primaryKey(),
  ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
  libelle: text('libelle').notNull(),
  /** DAILY, WEEKDAYS, WEEKLY or MONTHLY. */
  type: text('type').notNull(),
  /** WEEKLY: ISO weekdays (1 = Monday … 7 = Sunday). */
  weekDays: smallint('week_days').array().notNull().default([]),
  /** MONTHLY: day of the month 1–28, or null with `lastDay`. */
  monthDay: smallint('month_day'),
  lastDay: boolean('last_day').notNull().default(false),
  hour: smallint('hour').notNull(),
  minute: smallint('minute').notNull().default(0),
  active: boolean('active').notNull().default(true),
});

/** A recipient: a user (their current address) or a plain address, with a language. */
export const reportRecipients = pgTable('report_recipients', {
  id: serial('id').primaryKey(),
  ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  email: text('email'),
  language: text('language').notNull().default('fr'),
});

/** A subscription: the report it sends, how, when, and with whose rights. */
export const reportSubscriptions = pgTable(
  'report_subscriptions',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    libelle: text('libelle').notNull(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => reportRules.id),
    /** The report configuration (contract SubscriptionReportSchema). */
    report: jsonb('report').$type<Record<string, unknown>>().notNull(),
    formats: text('formats').array().notNull(),
    onlyWithData: boolean('only_with_data').notNull().default(true),
    active: boolean('active').notNull().default(true),
    /** What the last run did (contract SubscriptionRunSchema), until runs are read from job_runs. */
    lastRun: jsonb('last_run').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_subscriptions_owner_idx').on(t.ownerId),
    index('report_subscriptions_rule_idx').on(t.ruleId),
  ],
);

/** The recipients of a subscription; `unsubscribedAt` set by the mail's unsubscribe link. */
export const reportSubscriptionRecipients = pgTable(
  'report_subscription_recipients',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => reportSubscriptions.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => reportRecipients.id, { onDelete: 'cascade' }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.recipientId] }),
    index('report_subscription_recipients_recipient_idx').on(t.recipientId),
  ],
);

/** Server secrets made on first need (the key that signs unsubscribe and download links). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  /** Random bytes, base64. */
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
