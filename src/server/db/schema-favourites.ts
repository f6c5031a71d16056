/**
 * Favourite report configurations (SPEC.md §3 "Favourite report", issue #4 point 3). A favourite
 * belongs to one user and is deleted with them. The report request is kept as JSON in the shape
 * of `src/contract/favourites.ts` (checked by that schema on the way in and out), so adding a
 * report parameter never needs a migration.
 */
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

/** One favourite: its owner, its name and the saved report request (without name and id). */
export const favourites = pgTable(
  'favourites',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    libelle: text('libelle').notNull(),
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('favourites_user_idx').on(t.userId)],
);
