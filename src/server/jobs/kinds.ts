/**
 * Every job kind of the app and what makes it due: the one place to add a job (issue #28).
 * A kind is a {@link JobDefinition}; a recurring kind also gets a {@link DueSource} the clock
 * asks every minute.
 */
import type pg from 'pg';
import {
  fecRecurrenceJob,
  type FecRecurrenceOptions,
  fecRecurrencesDueSource,
} from '../fec/recurrence-run.ts';
import { warmForecasts } from '../forecast/forecast.ts';
import { mailSendJob } from '../mail/mail-job.ts';
import type { Mailer } from '../mail/transport.ts';
import { deleteOldEditions } from '../reports/edition-retention.ts';
import { subscriptionsDueSource } from '../subscriptions/due.ts';
import { type SubscriptionRunOptions, subscriptionRunJob } from '../subscriptions/run.ts';
import { dailyAt, everyMinutes } from './clock.ts';
import type { DueSource, JobDefinition } from './contract.ts';

/** What the app's jobs need. */
export interface AppJobDeps {
  mailer: Mailer;
  /** Days the report history is kept (config.editionsDays). */
  editionsDays: number;
  /** What a report subscription's run needs (job `subscription.run`, subscriptions/run.ts). */
  subscriptions: SubscriptionRunOptions;
  /** What a FEC recurrence's run needs (job `fec.recurrence.run`, fec/recurrence-run.ts); absent: not registered. */
  fec?: FecRecurrenceOptions;
  /** Where a job reports what it did. */
  log: { info(fields: Record<string, unknown>, message: string): void };
}

/** Deletes report editions older than the retention, once a day for the whole chain (decision 0018). */
function editionRetentionJob(deps: AppJobDeps): JobDefinition<Record<string, never>> {
  return {
    kind: 'report.editions.clean',
    async run(_data, ctx) {
      const deleted = await deleteOldEditions(ctx.pool, deps.editionsDays);
      if (deleted > 0) deps.log.info({ deleted, days: deps.editionsDays }, 'old report editions deleted');
    },
  };
}

/**
 * Fits the forecast models of every site in the cache of the instance that runs it
 * (decision record 0030: the cache is per process). No retry: the next minute warms again.
 */
function forecastWarmJob(pool: pg.Pool): JobDefinition<Record<string, never>> {
  return {
    kind: 'forecast.warm',
    retryLimit: 0,
    async run() {
      await warmForecasts(pool);
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a list of kinds holds each kind's own data type.
type AnyJob = JobDefinition<any>;

/** The app's job kinds and due sources, for `pool` (the app's). */
export function appJobs(pool: pg.Pool, deps: AppJobDeps): { jobs: AnyJob[]; sources: DueSource[] } {
  return {
    jobs: [
      mailSendJob(deps.mailer),
      editionRetentionJob(deps),
      forecastWarmJob(pool),
      subscriptionRunJob(deps.subscriptions),
      ...(deps.fec ? [fecRecurrenceJob(deps.fec)] : []),
    ],
    sources: [
      dailyAt('report.editions.clean', 3, 17),
      everyMinutes('forecast.warm', 1),
      subscriptionsDueSource,
      ...(deps.fec ? [fecRecurrencesDueSource] : []),
    ],
  };
}
