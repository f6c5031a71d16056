/**
 * HTTP of alerts (issue #28 "Alerts", src/contract/alerts.ts), in the house style of the
 * subscriptions' calls (decision record 0031):
 * - `GET bo/recurrences/alertes?id` — the list;
 * - `POST bo/recurrences/alertes/save?id` (JSON body; no `id` in it creates) and
 *   `POST bo/recurrences/alertes/remove?id&alerteId` — one transaction with the audit entry,
 *   Idempotency-Key honoured (`config.write`);
 * - `POST bo/recurrences/alertes/check?id&alerteId` — "check now": the check of the current
 *   minute, its mails queued through the app's job queue under the same keys as the scheduled
 *   checks, so an alert already mailed today is not mailed again.
 * A user sees and changes their own alerts, of the kinds their rights allow (ALERT_KIND_RIGHTS);
 * CONFIGURATION every alert (subscriptions/access.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALERT_KIND_RIGHTS,
  AlertCheckAnswerSchema,
  AlertSaveBodySchema,
  AlertSchema,
  AlertsAnswerSchema,
} from '../../contract/alerts.ts';
import { INT4_MAX } from '../../contract/integers.ts';
import { checkAlert } from '../alerts/check.ts';
import { findAlert, listAlerts, removeAlert, saveAlert } from '../alerts/alert-store.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { type Actor, actorOf } from '../subscriptions/access.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['alerts'];
const IdQuery = z.object({ id: UserIdParam });
const AlertIdQuery = z.object({
  id: UserIdParam,
  alerteId: z.coerce.number().int().positive().max(INT4_MAX).describe('id of the alert'),
});
const Removed = z.object({ id: z.number().int() });
/** Declared so every POST has a body schema (issue #17): none, or an empty object. */
const NoBody = z.object({}).strict().nullish().describe('nothing: the alert is named by the query');
const ACCESS =
  'A user sees and changes only their own alerts (another’s answers 404 NotFound), of the kinds their rights allow (dayOutsideForecast, countMissing: RAPPORTS; newAnomaly: RAPPORTS_ANOMALIES); CONFIGURATION every alert.';

type Options = { database: Database; config: Pick<Config, 'publicUrl'> };

/** The actor of a call, its `id` checked against the session, and its rights. */
function callerOf(request: FastifyRequest, id: number): { actor: Actor; droits: readonly string[] } {
  const session = ownSession(request, id);
  return { actor: actorOf(session, request.ip), droits: session.droits };
}

/**
 * Registers the alert routes.
 * @throws at registration nothing; each call throws DomainError forbidden when a user without
 *   CONFIGURATION saves an alert of a kind their rights do not allow.
 */
export async function alertRoutes(app: FastifyInstance, options: Options) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.get(
    '/bo/recurrences/alertes',
    {
      config: { rights: 'GET bo/recurrences/alertes' },
      schema: {
        summary: 'Alerts',
        description: ACCESS,
        tags,
        querystring: IdQuery,
        response: { 200: AlertsAnswerSchema, ...errorResponses },
      },
    },
    async function listRecurrenceAlerts(request) {
      return { alertes: await listAlerts(pool, callerOf(request, request.query.id).actor) };
    },
  );
  api.post(
    '/bo/recurrences/alertes/save',
    {
      config: { rights: 'POST bo/recurrences/alertes/save', write: true },
      schema: {
        summary: 'Creates an alert (no `id` in the body) or replaces one',
        description: `Sites outside the owner's scope are dropped (400 NoSitesSelected when none is left). ${ACCESS}`,
        tags,
        querystring: IdQuery,
        body: AlertSaveBodySchema,
        response: { 200: AlertSchema, ...errorResponses },
      },
    },
    async function saveRecurrenceAlert(request) {
      const { actor, droits } = callerOf(request, request.query.id);
      const needed = ALERT_KIND_RIGHTS[request.body.type];
      if (!actor.admin && !droits.includes(needed))
        throw new DomainError('forbidden', 'Forbidden', `this kind of alert needs the right ${needed}`, {
          anyOf: [needed, 'CONFIGURATION'],
        });
      return saveAlert(writeTx(request), actor, request.body);
    },
  );
  api.post(
    '/bo/recurrences/alertes/remove',
    {
      config: { rights: 'POST bo/recurrences/alertes/remove', write: true },
      schema: {
        summary: 'Removes an alert',
        description: ACCESS,
        tags,
        querystring: AlertIdQuery,
        body: NoBody,
        response: { 200: Removed, ...errorResponses },
      },
    },
    async function removeRecurrenceAlert(request) {
      await removeAlert(writeTx(request), callerOf(request, request.query.id).actor, request.query.alerteId);
      return { id: request.query.alerteId };
    },
  );
  api.post(
    '/bo/recurrences/alertes/check',
    {
      config: { rights: 'POST bo/recurrences/alertes/check', write: true },
      schema: {
        summary: 'Checks an alert now (“check now”), as its rule would',
        description:
          'Checks it for the current minute with its owner’s rights of now and queues its mails; `mails` is how many ' +
          `the findings asked for (0: nothing needs a person). An alert already mailed for a site and day is not mailed again. ${ACCESS}`,
        tags,
        querystring: AlertIdQuery,
        body: NoBody,
        response: { 200: AlertCheckAnswerSchema, ...errorResponses },
      },
    },
    async function checkRecurrenceAlertNow(request) {
      const { actor } = callerOf(request, request.query.id);
      const id = request.query.alerteId;
      await findAlert(pool, actor, id);
      await recordAudit(writeTx(request), actor, { action: 'alert.check', targetId: id });
      const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
      const jobs = app.jobs;
      const mails = await checkAlert(
        { publicUrl: options.config.publicUrl },
        { alertId: id, plannedAt: now.toISOString() },
        {
          pool,
          runId: randomUUID(),
          plannedAt: now,
          attempt: 1,
          async queueMail(message, key) {
            await jobs.queueMail(message, key);
          },
          async recordFile() {},
          now: () => new Date(),
        },
      );
      return { mails };
    },
  );
}
