/**
 * The FEC account plan of each company (issue #29, docs/decisions/0037, migration 0017): one row
 * per company and role (`SALES_0.2`, `VAT_0.2`, `PAYMENT_CASH`, `ROUNDING_DEBIT`… see
 * fec/account-plan.ts) with the PCG account and its label. A company without rows uses the
 * default plan; a role without a row takes its default account.
 */
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from './schema.ts';

/** fec_account_plans: the saved accounts of a company's FEC plan. */
export const fecAccountPlans = pgTable(
  'fec_account_plans',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The figure the account receives (account-plan.ts keys). */
    role: text('role').notNull(),
    /** A PCG account number: digits, class 1–8, at least 3 digits. */
    account: text('account').notNull(),
    label: text('label').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.role] })],
);

/**
 * fec_recurrences (migration 0023, decision 0043): a company's scheduled FEC, its rule (the
 * subscriptions' vocabulary, evaluated in the company's zone), the period it exports and the
 * addresses it mails. No owner: it belongs to the company, and runs without anyone's rights.
 */
export const fecRecurrences = pgTable(
  'fec_recurrences',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    libelle: text('libelle').notNull(),
    /** DAILY, WEEKDAYS, WEEKLY or MONTHLY (contract RULE_TYPES). */
    type: text('type').notNull(),
    weekDays: integer('week_days').array().notNull().default([]),
    monthDay: integer('month_day'),
    lastDay: boolean('last_day').notNull().default(false),
    hour: integer('hour').notNull(),
    minute: integer('minute').notNull(),
    /** PREVIOUS_MONTH, PREVIOUS_WEEK or PREVIOUS_DAY (contract FEC_PERIODS). */
    period: text('period').notNull(),
    recipients: text('recipients').array().notNull().default([]),
    language: text('language').notNull().default('fr'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fec_recurrences_company_idx').on(t.companyId)],
);

/**
 * fec_files: the files runs of recurrences wrote under DATA_DIR, one per recurrence and period
 * (the exactly-once guard: a second run of the same period reuses the file).
 */
export const fecFiles = pgTable(
  'fec_files',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    recurrenceId: integer('recurrence_id').references(() => fecRecurrences.id, { onDelete: 'set null' }),
    libelle: text('libelle').notNull(),
    dateDebut: date('date_debut', { mode: 'string' }).notNull(),
    dateFin: date('date_fin', { mode: 'string' }).notNull(),
    fileName: text('file_name').notNull(),
    /** Relative to DATA_DIR. */
    path: text('path').notNull(),
    bytes: integer('bytes').notNull(),
    /** The job_runs row of the run that wrote it. */
    runId: uuid('run_id'),
    /**
     * The company's sites not kept in EUR and so not in the file (company-fec.ts ForeignSite:
     * `{ id, libelle, devise }`), `[]` when none; null for a file kept before they were recorded.
     */
    excludedSites: jsonb('excluded_sites').$type<{ id: number; libelle: string; devise: string }[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fec_files_recurrence_period_idx').on(t.recurrenceId, t.dateDebut, t.dateFin),
    index('fec_files_company_idx').on(t.companyId),
  ],
);
