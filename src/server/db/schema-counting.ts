/**
 * Tables of counting (issue #3): cash counts, safe counts, counting rules, manager codes and
 * manager receipts, plus the idempotency keys of every write (DESIGN.md §7).
 *
 * Counts are sales data: `site_id` first in every primary key and index, no foreign key across
 * sites (DESIGN.md §5). Counts are never updated in place: a recount is a new row with the next
 * `version` (unique per site, fiscal date and terminal), so history is kept; only a safe count's
 * countersignature columns are filled in later, once. Amounts are integer cents.
 */
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Counted notes and coins: `[{ denominationCents, quantity }]` (src/contract/counting.ts). */
type DenominationLines = { denominationCents: number; quantity: number }[];

/**
 * Idempotency keys (DESIGN.md §7, src/server/plugins/idempotency.ts): per user and client UUID,
 * the request it was first used for (method, path, SHA-256 of query and body) and the first
 * successful answer, written in the same transaction as the write. Rows expire after
 * IDEMPOTENCY_KEY_TTL_DAYS and are purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id').notNull(),
    key: uuid('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requestHash: text('request_hash').notNull(),
    status: smallint('status').notNull(),
    contentType: text('content_type'),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * Counting rules changed from their defaults (RULE_DEFAULTS in src/contract/counting.ts): a
 * missing row means the default. SPEC.md §3 "Rule: libelle, active".
 */
export const countingRules = pgTable(
  'counting_rules',
  {
    siteId: integer('site_id').notNull(),
    libelle: text('libelle').notNull(),
    active: boolean('active').notNull(),
    updatedBy: integer('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.libelle] })],
);

/**
 * One version of the count of one terminal on one fiscal date. A part not counted is null.
 * `expected*` is what the day's payments said when the count was saved.
 */
export const cashCounts = pgTable(
  'cash_counts',
  {
    siteId: integer('site_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    terminalId: integer('terminal_id').notNull(),
    version: integer('version').notNull(),
    cash: jsonb('cash').$type<DenominationLines>(),
    cashCents: bigint('cash_cents', { mode: 'number' }),
    chequesCents: bigint('cheques_cents', { mode: 'number' }),
    mealVouchersCents: bigint('meal_vouchers_cents', { mode: 'number' }),
    cardSlipsCents: bigint('card_slips_cents', { mode: 'number' }),
    expectedCashCents: bigint('expected_cash_cents', { mode: 'number' }).notNull(),
    expectedChequesCents: bigint('expected_cheques_cents', { mode: 'number' }).notNull(),
    expectedMealVouchersCents: bigint('expected_meal_vouchers_cents', { mode: 'number' }).notNull(),
    expectedCardSlipsCents: bigint('expected_card_slips_cents', { mode: 'number' }).notNull(),
    comment: text('comment').notNull().default(''),
    countedBy: integer('counted_by').notNull(),
    countedByLogin: text('counted_by_login').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.id] }),
    uniqueIndex('cash_counts_site_date_terminal_version_idx').on(
      t.siteId,
      t.fiscalDate,
      t.terminalId,
      t.version,
    ),
  ],
);

/** One version of the count of a site's safe on one fiscal date, and its countersignature. */
export const safeCounts = pgTable(
  'safe_counts',
  {
    siteId: integer('site_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    version: integer('version').notNull(),
    openingCents: bigint('opening_cents', { mode: 'number' }).notNull(),
    depositsCents: bigint('deposits_cents', { mode: 'number' }).notNull(),
    withdrawalsCents: bigint('withdrawals_cents', { mode: 'number' }).notNull(),
    contents: jsonb('contents').$type<DenominationLines>().notNull(),
    countedCents: bigint('counted_cents', { mode: 'number' }).notNull(),
    comment: text('comment').notNull().default(''),
    countedBy: integer('counted_by').notNull(),
    countedByLogin: text('counted_by_login').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    countersignedBy: integer('countersigned_by'),
    countersignedName: text('countersigned_name'),
    countersignComment: text('countersign_comment'),
    countersignedAt: timestamp('countersigned_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.id] }),
    uniqueIndex('safe_counts_site_date_version_idx').on(t.siteId, t.fiscalDate, t.version),
  ],
);

/** A manager's countersignature code (4–6 digits), argon2id hash only. */
export const managerCodes = pgTable('manager_codes', {
  userId: integer('user_id').primaryKey(),
  codeHash: text('code_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A manager receipt (SPEC.md §3: complements, numVendeur, libVendeur, id). */
export const managerReceipts = pgTable(
  'manager_receipts',
  {
    siteId: integer('site_id').notNull(),
    id: bigserial('id', { mode: 'number' }).notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    sellerCode: text('seller_code').notNull(),
    sellerName: text('seller_name').notNull(),
    managerCode: text('manager_code').notNull(),
    managerName: text('manager_name').notNull(),
    complements: jsonb('complements')
      .$type<{ montantCents: number; motif: string; commentaire: string }>()
      .notNull(),
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').notNull(),
    createdByLogin: text('created_by_login').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.id] }),
    index('manager_receipts_site_date_idx').on(t.siteId, t.fiscalDate),
  ],
);

/**
 * E-mails sent under an Idempotency-Key (src/server/mail/send-once.ts): one row per
 * recipient, committed on its own BEFORE the message goes to the SMTP server (`sentAt` set once
 * the server accepted it), so a repeat of the key never mails that recipient again — even when
 * the first request's answer could not be kept. A refused message deletes its row (it may be
 * tried again). Rows are purged with the idempotency keys.
 */
export const mailSends = pgTable(
  'mail_sends',
  {
    userId: integer('user_id').notNull(),
    key: uuid('key').notNull(),
    recipient: text('recipient').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key, t.recipient] }),
    index('mail_sends_claimed_idx').on(t.claimedAt),
  ],
);
