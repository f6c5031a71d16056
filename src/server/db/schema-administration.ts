/**
 * Tables of the chain's administration (issue #18): password-reset keys, and messages from the
 * administration to users with who dismissed them. Users, profiles, groups, companies, sites and
 * the audit log are in schema.ts.
 */
import { sql } from 'drizzle-orm';
import {
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
import { users } from './schema.ts';

/**
 * A password-reset key sent by e-mail (SPEC.md §7 `reinit/sendReinitMail`). Only the SHA-256 of
 * the random key is kept (like session tokens); a key is single use (`usedAt`) and expires at
 * `expiresAt` (1 h by default, a setting). Deleting the user deletes their keys.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    keyHash: text('key_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/** Severity of a message from the administration, as its banner shows it. */
export type MessageSeverity = 'info' | 'warning' | 'error';

/**
 * A message from the administration (SPEC.md §2 `/config/messages`, §7 `messages/all`).
 * `texts` holds the text per language (`{ fr, en, de }`, at least one); it is shown from
 * `fromDate` to `toDate` (fiscal dates, inclusive) to users who see one of `siteIds` or hold one
 * of `profileIds`; both empty means everyone.
 */
export const adminMessages = pgTable('admin_messages', {
  id: serial('id').primaryKey(),
  texts: jsonb('texts').$type<Partial<Record<'fr' | 'en' | 'de', string>>>().notNull(),
  severity: text('severity').$type<MessageSeverity>().notNull().default('info'),
  fromDate: date('from_date').notNull(),
  toDate: date('to_date').notNull(),
  siteIds: integer('site_ids').array().notNull().default(sql`'{}'::int[]`),
  profileIds: integer('profile_ids').array().notNull().default(sql`'{}'::int[]`),
  createdBy: integer('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's dismissal of a message: it is not shown to them again. */
export const messageDismissals = pgTable(
  'message_dismissals',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => adminMessages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);
