/**
 * Local events of the events calendar (SPEC.md §1 "local events", §3 event payload, §5 event
 * form, §7 `withCredentials/collab/*`, issue #19): something outside the shop that moves its
 * sales (a concert next door, roadworks, a promotion), with the sites it affects and its
 * expected impact, which the sales forecast (src/server/forecast) applies to those days.
 */
import {
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { sites, users } from './schema.ts';

/** Impact types of an event (SPEC.md §9). */
export const EVENT_IMPACT_TYPES = ['Positive', 'Negative'] as const;
export type EventImpactType = (typeof EVENT_IMPACT_TYPES)[number];

/**
 * A local event. `startDate`/`endDate` are fiscal dates, inclusive (SPEC.md §5: start ≤ end);
 * `impactRate` is a percentage (12.5 = 12.5 %) applied up (Positive) or down (Negative) to the
 * affected sites' expected sales; `plu` optionally names the article it concerns.
 */
export const localEvents = pgTable(
  'local_events',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    eventType: text('event_type').notNull(),
    designation: text('designation').notNull(),
    salesChannel: text('sales_channel').notNull(),
    plu: text('plu'),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    impactType: text('impact_type').$type<EventImpactType>().notNull(),
    impactRate: numeric('impact_rate', { precision: 6, scale: 2 }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('local_events_dates', sql`${t.startDate} <= ${t.endDate}`),
    check('local_events_impact_type', sql`${t.impactType} IN ('Positive', 'Negative')`),
    check('local_events_impact_rate', sql`${t.impactRate} >= 0 AND ${t.impactRate} <= 1000`),
    index('local_events_dates_idx').on(t.startDate, t.endDate),
  ],
);

/** The sites an event affects (the payload's `perim_affects`), keyed by site first. */
export const localEventSites = pgTable(
  'local_event_sites',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    eventUuid: uuid('event_uuid')
      .notNull()
      .references(() => localEvents.uuid, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.eventUuid] }),
    index('local_event_sites_event_idx').on(t.eventUuid),
  ],
);
