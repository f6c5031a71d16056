/**
 * One run of a subscription (issue #28): the report rendered by the report domain itself (no
 * HTTP) with its owner's rights and sites at the time of the run, then one mail per recipient in
 * their language, queued through the job's context under the key
 * `subscription:<id>:<plannedAt ISO>:<recipient id>` so a retried run mails nobody twice.
 *
 * Guarantees: a subscription whose owner is gone, deactivated or without RAPPORTS sends nothing
 * (SUSPENDED); sites the owner lost give no data (report-input.ts); "send only if there is data"
 * sends nothing on an empty period (EMPTY) — a period whose detail was purged is not empty: its
 * files carry the purge notice and the kept totals (decision 0040); an unsubscribed recipient
 * gets nothing. Above
 * `maxAttachmentBytes` a recipient gets signed download links that expire instead of files.
 */
import type { Language } from '../../contract/reports.ts';
import { LANGUAGES } from '../../contract/reports.ts';
import type {
  SubscriptionFormat,
  SubscriptionPreview,
  SubscriptionRun,
  Subscription,
} from '../../contract/subscriptions.ts';
import { siteScope } from '../auth/scope.ts';
import type { Database } from '../db/connect.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { BURST_CONCURRENCY, type JobContext, type JobDefinition } from '../jobs/contract.ts';
import { CONTENT_TYPES, type RenderedBody, renderReport, reportFileName } from '../reports/render/index.ts';
import { type ReportSiteCache, resolveReport } from '../reports/request.ts';
import { renderOptionsFor, reportDataset } from '../reports/run.ts';
import type { Actor } from './access.ts';
import {
  ownerFavourite,
  runPeriod,
  SUBSCRIPTION_ZONES_SQL,
  subscriptionInput,
  subscriptionTimeZone,
} from './report-input.ts';
import { type ReportFile, reportMailMessage } from './report-mail.ts';
import { linkKey, signLink } from './signed-links.ts';
import { findSubscription, recordLastRun, SUBSCRIPTION_RUN_KIND } from './subscription-store.ts';

/** What a run needs from the server. */
export interface SubscriptionRunOptions {
  database: Database;
  /** The GET distribution name, shown on PDFs when the sites' companies have no brand. */
  distribution: string;
  /** Absolute URL the public links start with, e.g. `https://bo.example.com/api/recurrences`. */
  linkBase: string;
  /** Above this many bytes of files, a mail carries download links instead (default 10 MB). */
  maxAttachmentBytes?: number;
  /** How long a download link works, in milliseconds (default 7 days). */
  downloadMs?: number;
  reportSites?: ReportSiteCache;
}

/** The data of a `subscription.run` job. `plannedAt` is ISO 8601 (UTC). */
export interface SubscriptionRunData {
  subscriptionId: number;
  plannedAt: string;
}

/** The job kind that sends a subscription. */
export const SUBSCRIPTION_RUN = SUBSCRIPTION_RUN_KIND;

const DEFAULT_MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const DEFAULT_DOWNLOAD_MS = 7 * 86_400_000;

/** The rendered files of a run, per language, and what they cover. */
export interface RenderedRun {
  status: 'READY' | 'EMPTY' | 'SUSPENDED';
  dateDebut: string;
  dateFin: string;
  sites: string[];
  files: Map<Language, ReportFile[]>;
}

/** One recipient of a run. */
interface RunRecipient {
  id: number;
  address: string;
  language: Language;
}

/** The recipients still subscribed, with an address (a user's current one, active users only). */
async function runRecipients(db: Queryable, subscriptionId: number): Promise<RunRecipient[]> {
  const { rows } = await db.query<RunRecipient>(
    `SELECT r.id, coalesce(u.email, r.email) AS address, r.language
       FROM report_subscription_recipients sr
       JOIN report_recipients r ON r.id = sr.recipient_id
       LEFT JOIN users u ON u.id = r.user_id
      WHERE sr.subscription_id = $1 AND sr.unsubscribed_at IS NULL
        AND coalesce(u.email, r.email) IS NOT NULL AND (r.user_id IS NULL OR u.active)
      ORDER BY r.id`,
    [subscriptionId],
  );
  return rows.map((r) => ({
    ...r,
    language: (LANGUAGES as readonly string[]).includes(r.language) ? r.language : 'fr',
  }));
}

/** The time zone subscription `id` is evaluated in (report-input.ts). */
export async function timeZoneOf(db: Queryable, id: number): Promise<string> {
  const { rows } = await db.query<{ zones: string[] }>(
    `SELECT ${SUBSCRIPTION_ZONES_SQL} AS zones FROM report_subscriptions s
       LEFT JOIN favourites f ON f.id = (s.report->>'favoriId')::int AND f.user_id = s.owner_id
      WHERE s.id = $1`,
    [id],
  );
  return subscriptionTimeZone(rows[0]?.zones ?? []);
}

/** A rendered body as one buffer (a large CSV or XLSX comes as a stream). */
async function bufferOf(body: RenderedBody): Promise<Buffer> {
  if (body.kind === 'buffer') return body.data;
  if (body.kind === 'dataset') throw new Error('a subscription never renders JSON');
  const chunks: Buffer[] = [];
  for await (const chunk of body.data) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Renders the files of `subscription` for the run planned at `plannedAt`, in each of
 * `languages`, in `formats` (default the subscription's), with its owner's rights of now.
 * @throws DomainError of the report domain (e.g. MaxReportDays), or notFound when the owner's
 *   favourite is gone.
 */
export async function renderSubscription(
  options: SubscriptionRunOptions,
  subscription: Subscription,
  plannedAt: Date,
  languages: readonly Language[],
  formats: readonly SubscriptionFormat[] = subscription.formats,
): Promise<RenderedRun> {
  const { pool } = options.database;
  const period = runPeriod(subscription.rapport, plannedAt, await timeZoneOf(pool, subscription.id));
  const none: RenderedRun = { status: 'EMPTY', ...period, sites: [], files: new Map() };
  if (subscription.suspendu || subscription.proprietaireId === null) return { ...none, status: 'SUSPENDED' };
  const ownerId = subscription.proprietaireId;
  const scope = await siteScope(pool, ownerId);
  const { favoriId } = subscription.rapport;
  const favourite = favoriId === null ? null : await ownerFavourite(pool, ownerId, favoriId);
  const run: RenderedRun = { status: 'READY', ...period, sites: [], files: new Map() };
  for (const language of new Set(languages)) {
    const files: ReportFile[] = [];
    for (const format of formats) {
      const input = subscriptionInput(subscription.rapport, favourite, scope, period, format, language);
      if (!input) return none;
      const report = await resolveReport(input, scope, options.database, { sites: options.reportSites });
      const dataset = await reportDataset(report, options.database);
      // A period whose detail was purged is not empty: its document says so, with the kept
      // totals, as bo/getReport answers it (decision 0040).
      if (dataset.rows.length === 0 && !dataset.archived) {
        return { ...none, sites: report.request.sites.map((s) => s.libelle) };
      }
      run.sites = report.request.sites.map((s) => s.libelle);
      const body = await renderReport(dataset, format, renderOptionsFor(report, options.distribution));
      files.push({
        filename: reportFileName(report.cls.fileNameId, dataset, language, format),
        contentType: CONTENT_TYPES[format],
        content: await bufferOf(body),
      });
    }
    run.files.set(language, files);
  }
  return run;
}

/** The mail of `rendered` for `recipient` (files, or download links above the limit). */
async function mailFor(
  options: SubscriptionRunOptions,
  subscription: Subscription,
  plannedAt: Date,
  rendered: RenderedRun,
  recipient: RunRecipient,
  now: Date,
) {
  const key = await linkKey(options.database.pool);
  const files = rendered.files.get(recipient.language) ?? [];
  const bytes = files.reduce((sum, f) => sum + f.content.length, 0);
  const expiresAt = new Date(now.getTime() + (options.downloadMs ?? DEFAULT_DOWNLOAD_MS));
  const downloads =
    bytes > (options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES)
      ? {
          expiresAt,
          links: subscription.formats.map(
            (format) =>
              `${options.linkBase}/fichier?token=${signLink(key, {
                p: 'download',
                s: subscription.id,
                t: plannedAt.toISOString(),
                f: format,
                l: recipient.language,
                e: expiresAt.getTime(),
              })}`,
          ),
        }
      : null;
  const unsubscribeUrl = `${options.linkBase}/desabonnement?token=${signLink(key, {
    p: 'unsubscribe',
    s: subscription.id,
    r: recipient.id,
  })}`;
  return reportMailMessage(
    recipient.address,
    {
      language: recipient.language,
      libelle: subscription.libelle,
      dateDebut: rendered.dateDebut,
      dateFin: rendered.dateFin,
      sites: rendered.sites,
      files,
      downloads,
      unsubscribeUrl,
    },
    `<subscription-${subscription.id}-${plannedAt.getTime()}-${recipient.id}@comptoir>`,
  );
}

/**
 * Runs subscription `subscriptionId` for the minute `plannedAt` (job `subscription.run`):
 * renders, queues one mail per recipient through `ctx`, records the files and the outcome.
 * An inactive or removed subscription sends nothing and records nothing (null).
 * @throws what {@link renderSubscription} throws, after recording the run as FAILED.
 */
export async function runSubscription(
  options: SubscriptionRunOptions,
  data: SubscriptionRunData,
  ctx: JobContext,
): Promise<SubscriptionRun | null> {
  const { pool } = options.database;
  const plannedAt = new Date(data.plannedAt);
  // Removed since it was queued: nothing to send, and nothing to retry.
  const subscription = await findSubscription(pool, null, data.subscriptionId).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === 'notFound') return null;
    throw error;
  });
  if (!subscription?.active) return null;
  const outcome = (
    statut: SubscriptionRun['statut'],
    mails: number,
    files: ReportFile[],
    erreur: string | null,
  ) => ({
    planifie: plannedAt.toISOString(),
    termine: ctx.now().toISOString(),
    statut,
    tentatives: ctx.attempt,
    mails,
    fichiers: files.map((f) => ({ nom: f.filename, octets: f.content.length })),
    erreur,
  });
  try {
    const recipients = await runRecipients(pool, subscription.id);
    const rendered = await renderSubscription(
      options,
      subscription,
      plannedAt,
      recipients.map((r) => r.language),
    );
    const done = async (run: SubscriptionRun) => {
      await recordLastRun(pool, subscription.id, run);
      return run;
    };
    if (rendered.status === 'SUSPENDED') return done(outcome('SUSPENDED', 0, [], null));
    if (rendered.status === 'EMPTY' && subscription.siDonnees) return done(outcome('EMPTY', 0, [], null));
    for (const recipient of recipients) {
      const mail = await mailFor(options, subscription, plannedAt, rendered, recipient, ctx.now());
      await ctx.queueMail(mail, `subscription:${subscription.id}:${plannedAt.toISOString()}:${recipient.id}`);
    }
    const files = [...rendered.files.values()].flat();
    for (const f of files) await ctx.recordFile({ name: f.filename, bytes: f.content.length });
    return done(outcome(rendered.status === 'EMPTY' ? 'EMPTY' : 'SENT', recipients.length, files, null));
  } catch (error) {
    await recordLastRun(
      pool,
      subscription.id,
      outcome('FAILED', 0, [], error instanceof Error ? error.message : String(error)),
    );
    throw error;
  }
}

/** The `subscription.run` job (registered with the queue in jobs/kinds.ts). */
export function subscriptionRunJob(options: SubscriptionRunOptions): JobDefinition<SubscriptionRunData> {
  return {
    kind: SUBSCRIPTION_RUN,
    concurrency: BURST_CONCURRENCY,
    async run(data, ctx) {
      await runSubscription(options, data, ctx);
    },
  };
}

/**
 * The mail the first recipient (or the actor, in their language) would get for a run now, and
 * its files, without sending anything.
 * @throws DomainError notFound for a subscription the actor may not see; the report domain's.
 */
export async function previewSubscription(
  options: SubscriptionRunOptions,
  actor: Actor,
  id: number,
  now: Date,
  fallback: { address: string; language: Language },
): Promise<SubscriptionPreview> {
  const subscription = await findSubscription(options.database.pool, actor, id);
  const recipient = (await runRecipients(options.database.pool, id))[0] ?? { id: 0, ...fallback };
  const rendered = await renderSubscription(options, subscription, now, [recipient.language]);
  const mail = await mailFor(options, subscription, now, rendered, recipient, now);
  const limit = options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  const files = rendered.files.get(recipient.language) ?? [];
  const large = files.reduce((sum, f) => sum + f.content.length, 0) > limit;
  return {
    sujet: mail.subject,
    texte: mail.text,
    html: mail.html ?? '',
    dateDebut: rendered.dateDebut,
    dateFin: rendered.dateFin,
    fichiers: files.map((f) => ({
      nom: f.filename,
      type: f.contentType,
      octets: f.content.length,
      contenu: large ? null : f.content.toString('base64'),
    })),
  };
}
