/**
 * Records of the job queue (src/server/jobs/, issue #28). pg-boss keeps its own tables in its
 * own schema (`pgboss`) and deletes finished jobs after a while; these tables are ours: the run
 * history the screens show, the exactly-once guards, the clock's last tick and the mails queued
 * by runs and requests.
 */
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * One run of a job kind (contract.ts). `data` is the job's JSON (never a secret: a mail's body
 * lives in `job_mails`). `singletonKey` (unique with `kind` when set) is the exactly-once guard of
 * a due item: a second queueing of the same key is refused by the index. `status` is `queued`,
 * `running`, `succeeded`, `failed` or `retrying`; `attempts` counts the tries started. `files` is
 * `[{ name, bytes, path? }]` (bytes: size in bytes); `mails` counts the mails the run queued.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    data: jsonb('data').notNull().default({}),
    singletonKey: text('singleton_key'),
    plannedAt: timestamp('planned_at', { withTimezone: true }).notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    files: jsonb('files').notNull().default([]),
    mails: integer('mails').notNull().default(0),
  },
  (t) => [
    uniqueIndex('job_runs_kind_singleton_key_idx')
      .on(t.kind, t.singletonKey)
      .where(sql`${t.singletonKey} IS NOT NULL`),
    index('job_runs_kind_queued_idx').on(t.kind, t.queuedAt),
    // Run history by a data field (`{ subscriptionId: 12 }`): `data @> $1`.
    index('job_runs_data_idx').using('gin', t.data),
  ],
);

/**
 * The queue's clock (jobs/clock.ts): the end of the last minute whose due items were queued, per
 * clock `name` (one row, `minute`). A stopped chain catches up from there (bounded) on restart.
 */
export const jobClock = pgTable('job_clock', {
  name: text('name').primaryKey(),
  lastTick: timestamp('last_tick', { withTimezone: true }).notNull(),
});

/**
 * A mail queued for the `mail.send` job, once per (`key`, `recipients`: the `to` list joined by
 * commas). `message` is the mail (subject, text, html, attachments in base64); `sendingAt` is set
 * just before it is handed to the transport and `sentAt` once accepted: a run that finds
 * `sendingAt` set without `sentAt` was killed mid-send and does not send again (at most once per
 * key and recipient). `messageId` is the stable RFC 5322 Message-ID of every try.
 */
export const jobMails = pgTable(
  'job_mails',
  {
    key: text('key').notNull(),
    recipients: text('recipients').notNull(),
    runId: uuid('run_id'),
    message: jsonb('message').notNull(),
    messageId: text('message_id').notNull(),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.key, t.recipients] }), index('job_mails_queued_idx').on(t.queuedAt)],
);
