/**
 * One run of an integration (issue #29, decision 0044), as a job of the queue (jobs/contract.ts):
 * for each of its sites, the file of one fiscal date (the day before the run's planned instant in
 * the site's zone, or the day asked), delivered once per site, day and destination. The
 * deliveries table is the guard: a site-day already SENT to this destination is skipped unless the
 * run asks to send again; a test file (`TEST_` + name) is neither guarded nor recorded. A failed
 * site is recorded FAILED with its reason and the run throws after the other sites, so the queue
 * retries it with backoff (the sites already sent are skipped on the retry) and, its retries
 * spent, marks the run failed. Nothing secret is logged: the log names the partner, site, day,
 * file and error only.
 */
import type { Partner } from '../../contract/integrations.ts';
import { PARTNER_DATA, PARTNERS } from '../../contract/integrations.ts';
import type pg from 'pg';
import type { DueItem, DueSource, JobContext, JobDefinition } from '../jobs/contract.ts';
import { type DueRuleRow, occurrencesBetween } from '../subscriptions/occurrences.ts';
import { subscriptionTimeZone } from '../subscriptions/report-input.ts';
import { articleRows, type DataSite, dataSites, paymentRows } from './data.ts';
import { deliver, destinationKey } from './destination.ts';
import { fileName, renderFile } from './layout.ts';
import { decryptSecret } from './secrets.ts';
import { integrationById } from './store.ts';

/** The job kind of `partner`'s integration, e.g. `integration.ecash`. */
export function integrationKind(partner: Partner): string {
  return `integration.${partner}`;
}

/** The data of an integration job. `plannedAt` ISO 8601; `date` YYYY-MM-DD overrides the day. */
export interface IntegrationRunData {
  integrationId: number;
  plannedAt: string;
  date?: string;
  /** Send a test file (name prefixed `TEST_`, not recorded, not guarded). */
  test?: boolean;
  /** Send again site-days already sent. */
  again?: boolean;
}

/** What a run needs from the server. */
export interface IntegrationRunOptions {
  dataDir: string;
  /** The `COMPTOIR_SECRET_KEY` setting (undefined: stored credentials cannot be used). */
  secretKey: string | undefined;
  /** Extra trusted certificates (PEM) for HTTPS destinations. */
  ca?: string | Buffer;
  log: {
    info(fields: Record<string, unknown>, message: string): void;
    warn(fields: Record<string, unknown>, message: string): void;
  };
}

/** The fiscal date before `instant`'s local date in `timeZone` (YYYY-MM-DD). */
export function dayBefore(instant: Date, timeZone: string): string {
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
  const d = new Date(`${local}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** What one run did per site. */
export interface IntegrationRunResult {
  sent: { siteId: number; date: string; file: string }[];
  skipped: { siteId: number; date: string }[];
  failed: { siteId: number; date: string; error: string }[];
}

async function recordDelivery(
  ctx: Pick<JobContext, 'pool' | 'runId'>,
  integrationId: number,
  site: DataSite,
  day: string,
  key: string,
  outcome: { status: 'SENT' | 'FAILED'; file: string; bytes: number; error: string | null },
): Promise<void> {
  await ctx.pool.query(
    `INSERT INTO integration_deliveries (integration_id, site_id, fiscal_date, destination_key, status, file_name, bytes, error, run_id)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (integration_id, site_id, fiscal_date, destination_key) DO UPDATE
        SET status = excluded.status, file_name = excluded.file_name, bytes = excluded.bytes,
            error = excluded.error, run_id = excluded.run_id, updated_at = now(),
            attempts = integration_deliveries.attempts + 1`,
    [integrationId, site.id, day, key, outcome.status, outcome.file, outcome.bytes, outcome.error, ctx.runId],
  );
}

/**
 * Runs integration `data.integrationId` (see the module comment). A disabled integration, or one
 * removed since it was queued, sends nothing (unless `test`).
 * @throws Error naming the failed sites when a delivery failed (the queue then retries).
 */
export async function runIntegration(
  options: IntegrationRunOptions,
  data: IntegrationRunData,
  ctx: Pick<JobContext, 'pool' | 'runId' | 'recordFile'>,
): Promise<IntegrationRunResult> {
  const result: IntegrationRunResult = { sent: [], skipped: [], failed: [] };
  const integration = await integrationById(ctx.pool, data.integrationId);
  if (!integration || (!integration.actif && !data.test)) return result;
  const partner = integration.partenaire;
  const key = destinationKey(integration.destination);
  const secretHeaders = integration.secret
    ? (JSON.parse(decryptSecret(options.secretKey, integration.secret)) as { nom: string; valeur: string }[])
    : [];
  const plannedAt = new Date(data.plannedAt);
  for (const site of await dataSites(ctx.pool, integration.sites)) {
    const day = data.date ?? dayBefore(plannedAt, site.timeZone);
    if (!data.test && !data.again) {
      const { rowCount } = await ctx.pool.query(
        `SELECT 1 FROM integration_deliveries WHERE integration_id = $1 AND site_id = $2 AND fiscal_date = $3::date
            AND destination_key = $4 AND status = 'SENT'`,
        [data.integrationId, site.id, day, key],
      );
      if (rowCount) {
        result.skipped.push({ siteId: site.id, date: day });
        continue;
      }
    }
    const rows =
      PARTNER_DATA[partner] === 'articles'
        ? await articleRows(ctx.pool, site, day)
        : await paymentRows(ctx.pool, site, day);
    const bytes = renderFile(rows, integration.mise);
    const name = `${data.test ? 'TEST_' : ''}${fileName(integration.mise, partner, site.code ?? String(site.id), day)}`;
    try {
      const where = await deliver(integration.destination, name, bytes, integration.mise.encodage, {
        dataDir: options.dataDir,
        ca: options.ca,
        secretHeaders,
      });
      await ctx.recordFile({
        name,
        bytes: bytes.length,
        ...(integration.destination.type === 'folder' ? { path: where } : {}),
      });
      if (!data.test)
        await recordDelivery(ctx, data.integrationId, site, day, key, {
          status: 'SENT',
          file: name,
          bytes: bytes.length,
          error: null,
        });
      options.log.info(
        { partner, siteId: site.id, date: day, file: name, bytes: bytes.length },
        'integration file delivered',
      );
      result.sent.push({ siteId: site.id, date: day, file: name });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (!data.test)
        await recordDelivery(ctx, data.integrationId, site, day, key, {
          status: 'FAILED',
          file: name,
          bytes: bytes.length,
          error,
        });
      options.log.warn(
        { partner, siteId: site.id, date: day, file: name, error },
        'integration delivery failed',
      );
      result.failed.push({ siteId: site.id, date: day, error });
    }
  }
  if (result.failed.length > 0)
    throw new Error(
      `${partner}: ${result.failed.map((f) => `site ${f.siteId} ${f.date}: ${f.error}`).join('; ')}`,
    );
  return result;
}

/** The four job kinds (one per partner); a failed delivery retries 5 times from 60 s, doubling. */
export function integrationJobs(options: IntegrationRunOptions): JobDefinition<IntegrationRunData>[] {
  return PARTNERS.map((partner) => ({
    kind: integrationKind(partner),
    retryLimit: 5,
    retryDelaySeconds: 60,
    async run(data, ctx) {
      await runIntegration(options, data, ctx);
    },
  }));
}

interface DueRow extends DueRuleRow {
  partner: Partner;
}

/**
 * The integration runs due in (`from`, `to`]: enabled integrations whose active rule fires then,
 * in their sites' zone (their one zone, else the chain's, as subscriptions), singleton key
 * `integration:<id>:<plannedAt ISO>`. Pure over the database.
 */
export async function dueIntegrations(
  pool: pg.Pool,
  from: Date,
  to: Date,
): Promise<DueItem<IntegrationRunData>[]> {
  const { rows } = await pool.query<DueRow>(
    `SELECT i.id, i.partner, r.type, r.week_days AS jours, r.month_day AS "jourDuMois", r.last_day AS "dernierJour",
            r.hour AS heure, r.minute,
            (SELECT coalesce(array_agg(DISTINCT st.time_zone ORDER BY st.time_zone), '{}')
               FROM sites st WHERE st.id = ANY(i.sites)) AS zones
       FROM integrations i JOIN report_rules r ON r.id = i.rule_id
      WHERE i.enabled AND r.active`,
  );
  const items: DueItem<IntegrationRunData>[] = [];
  for (const row of rows) {
    for (const plannedAt of occurrencesBetween(row, subscriptionTimeZone(row.zones), from, to)) {
      const iso = plannedAt.toISOString();
      items.push({
        kind: integrationKind(row.partner),
        data: { integrationId: row.id, plannedAt: iso },
        plannedAt,
        singletonKey: `integration:${row.id}:${iso}`,
      });
    }
  }
  return items.sort(
    (a, b) => a.plannedAt.getTime() - b.plannedAt.getTime() || a.data.integrationId - b.data.integrationId,
  );
}

/** The due source the queue asks every minute. */
export const integrationsDueSource: DueSource = { name: 'integrations', due: dueIntegrations };
