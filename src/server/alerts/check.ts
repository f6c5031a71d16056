/**
 * One check of an alert (issue #28 "Alerts", job `alert.check`): at an occurrence of its rule,
 * for each of its sites still within its owner's scope, the condition is read for the site's last
 * closed fiscal day (the day before the site's fiscal date at the planned minute); only when it
 * finds something does each recipient get a mail, queued through the job's context under the key
 * `alert:<kind>:<siteId>:<fiscalDate>:<recipient address>`. That key and the mail job's
 * once-guard send each alert once per site and day, whatever the number of checks (a rule firing
 * several times a day, a retry, a "check now").
 *
 * An alert whose owner is gone, deactivated or without the kind's right
 * ({@link ALERT_KIND_RIGHTS}) checks nothing; a site the owner lost is not checked. A recipient
 * who is a user of Comptoir gets a finding only when they hold the kind's right and the site
 * is in their scope at the run (a plain address gets what the owner sends it).
 */
import { ALERT_KIND_RIGHTS, type AlertKind } from '../../contract/alerts.ts';
import { type Language, LANGUAGES } from '../../contract/reports.ts';
import { siteScope } from '../auth/scope.ts';
import { siteFacts } from '../counting/sites.ts';
import type { Queryable } from '../db/queryable.ts';
import { shiftDate } from '../home/widget-context.ts';
import type { JobContext, JobDefinition } from '../jobs/contract.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import { type AlertFinding, alertMailMessage } from './alert-mail.ts';
import { dayOutsideForecast, missingCounts, newAnomalies } from './findings.ts';

/** The job kind that checks an alert. */
export const ALERT_CHECK = 'alert.check';

/** The data of an `alert.check` job. `plannedAt` is ISO 8601 (UTC). */
export interface AlertCheckData {
  alertId: number;
  plannedAt: string;
}

/** What a check needs from the server. */
export interface AlertCheckOptions {
  /** COMPTOIR_PUBLIC_URL without a trailing slash: the mails' links start with it. */
  publicUrl: string;
}

interface AlertRow {
  kind: AlertKind;
  libelle: string;
  sites: number[];
  owner_id: number | null;
  droits: string[] | null;
  owner_active: boolean | null;
}

/**
 * A recipient of the alert with an address (a user's current one, active users only). A user
 * recipient also carries what they may see: `droits` and `sites` (their scope); null for a
 * plain address, which gets what the owner chose to send it.
 */
interface CheckRecipient {
  address: string;
  language: Language;
  droits: string[] | null;
  sites: Set<number> | null;
}

async function checkRecipients(db: Queryable, alertId: number): Promise<CheckRecipient[]> {
  const { rows } = await db.query<{
    address: string;
    language: Language;
    user_id: number | null;
    droits: string[] | null;
  }>(
    `SELECT coalesce(u.email, r.email) AS address, r.language, r.user_id, p.droits
       FROM alert_recipients ar
       JOIN report_recipients r ON r.id = ar.recipient_id
       LEFT JOIN users u ON u.id = r.user_id
       LEFT JOIN profiles p ON p.id = u.profile_id
      WHERE ar.alert_id = $1 AND coalesce(u.email, r.email) IS NOT NULL AND (r.user_id IS NULL OR u.active)
      ORDER BY r.id`,
    [alertId],
  );
  const recipients: CheckRecipient[] = [];
  for (const r of rows) {
    const sites = r.user_id === null ? null : new Set(await siteScope(db, r.user_id));
    recipients.push({
      address: r.address,
      language: (LANGUAGES as readonly string[]).includes(r.language) ? r.language : 'fr',
      droits: r.user_id === null ? null : (r.droits ?? []),
      sites,
    });
  }
  return recipients;
}

/** Whether `recipient` may read `finding` of an alert of `kind`: a user needs the kind's right and the site. */
function mayRead(recipient: CheckRecipient, kind: AlertKind, finding: AlertFinding): boolean {
  if (recipient.droits === null || recipient.sites === null) return true;
  return recipient.droits.includes(ALERT_KIND_RIGHTS[kind]) && recipient.sites.has(finding.siteId);
}

/**
 * The findings of alert `alertId` at `plannedAt`: per site of the alert within its owner's scope
 * now, what needs a person on the site's last closed fiscal day. Empty when the alert is gone,
 * inactive or its owner cannot run it.
 */
export async function alertFindings(
  db: Queryable,
  alertId: number,
  plannedAt: Date,
): Promise<AlertFinding[]> {
  const { rows } = await db.query<AlertRow>(
    `SELECT a.kind, a.libelle, a.sites, a.owner_id, p.droits, u.active AS owner_active
       FROM alerts a
       LEFT JOIN users u ON u.id = a.owner_id
       LEFT JOIN profiles p ON p.id = u.profile_id
      WHERE a.id = $1 AND a.active`,
    [alertId],
  );
  const alert = rows[0];
  if (!alert || alert.owner_id === null || !alert.owner_active) return [];
  if (!(alert.droits ?? []).includes(ALERT_KIND_RIGHTS[alert.kind])) return [];
  const scope = new Set(await siteScope(db, alert.owner_id));
  const sites = await siteFacts(
    db,
    alert.sites.filter((s) => scope.has(s)),
  );
  const findings: AlertFinding[] = [];
  for (const site of sites.values()) {
    const fiscalDate = shiftDate(currentFiscalDate(plannedAt, site.timeZone, site.dayStart), -1);
    const base = { siteId: site.id, site: site.libelle, currency: site.currency, fiscalDate };
    if (alert.kind === 'countMissing') {
      const missing = await missingCounts(db, site.id, fiscalDate);
      if (missing) findings.push({ ...base, kind: 'countMissing', missing });
    } else if (alert.kind === 'dayOutsideForecast') {
      const dayBefore = new Date(plannedAt.getTime() - 86_400_000);
      const outside = await dayOutsideForecast(db, site.id, fiscalDate, dayBefore);
      if (outside) findings.push({ ...base, kind: 'dayOutsideForecast', outside });
    } else {
      const found = await newAnomalies(db, site.id, fiscalDate);
      if (found) findings.push({ ...base, kind: 'newAnomaly', found });
    }
  }
  return findings;
}

/**
 * Checks alert `data.alertId` for the minute `data.plannedAt` and queues one mail per finding and
 * recipient through `ctx` (at most once per site, day and recipient). Returns how many mails it
 * asked for (0: nothing needs a person).
 */
export async function checkAlert(
  options: AlertCheckOptions,
  data: AlertCheckData,
  ctx: JobContext,
): Promise<number> {
  const findings = await alertFindings(ctx.pool, data.alertId, new Date(data.plannedAt));
  if (findings.length === 0) return 0;
  const { rows } = await ctx.pool.query<{ libelle: string }>('SELECT libelle FROM alerts WHERE id = $1', [
    data.alertId,
  ]);
  const libelle = rows[0]?.libelle ?? '';
  const recipients = await checkRecipients(ctx.pool, data.alertId);
  let mails = 0;
  for (const finding of findings) {
    for (const recipient of recipients) {
      if (!mayRead(recipient, finding.kind, finding)) continue;
      const mail = await alertMailMessage(
        recipient.address,
        recipient.language,
        libelle,
        finding,
        options.publicUrl,
      );
      await ctx.queueMail(
        mail,
        `alert:${finding.kind}:${finding.siteId}:${finding.fiscalDate}:${recipient.address}`,
      );
      mails += 1;
    }
  }
  return mails;
}

/** The `alert.check` job. */
export function alertCheckJob(options: AlertCheckOptions): JobDefinition<AlertCheckData> {
  return {
    kind: ALERT_CHECK,
    async run(data, ctx) {
      await checkAlert(options, data, ctx);
    },
  };
}
