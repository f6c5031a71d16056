/**
 * Brute-force counters (issue #17 item 4), kept in PostgreSQL so they hold across restarts and
 * are shared by every server instance on the same database.
 */
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failures counted per `scope` and `subject`: scope `account` (subject: the login, lower case),
 * `ip` (subject: the client address), `manager` (subject: the manager id whose code was tried),
 * `session` (subject: the session token's hash). `failures` counts the failures since
 * `windowStart`; `lockedUntil` (null: not locked) is set when the count reaches the limit, for a
 * time that doubles with each lock-out (`lockouts`).
 */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    failures: integer('failures').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockouts: integer('lockouts').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subject] })],
);
