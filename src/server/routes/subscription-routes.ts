/**
 * HTTP of recurring report e-mails (issue #28, src/contract/subscriptions.ts), in the house
 * style of SPEC.md §7 (DESIGN.md §4):
 * - `GET bo/recurrences/{regles,destinataires,abonnements}?id` — the lists;
 * - `POST bo/recurrences/<kind>/save?id` (JSON body; no `id` in it creates) and
 *   `POST bo/recurrences/<kind>/remove?id&<kind>Id` — one transaction with the audit entry,
 *   Idempotency-Key honoured (`config.write`);
 * - `POST bo/recurrences/abonnements/send?id&abonnementId` — "send now";
 *   `GET bo/recurrences/abonnements/preview?id&abonnementId` — the mail and files, not sent;
 *   `GET bo/recurrences/abonnements/envois?id&abonnementId` — the run history;
 * - public, for the links of the mails (no session, no X-Requested-With: a mail client opens
 *   them): `GET recurrences/desabonnement?token` (a page asking to confirm), `POST` the same (does
 *   it; RFC 8058 one-click), `GET recurrences/fichier?token` (a file too large to attach).
 * RAPPORTS users see and change their own rows; CONFIGURATION every row (subscriptions/access.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INT4_MAX } from '../../contract/integers.ts';
import { LANGUAGES, type Language } from '../../contract/reports.ts';
import {
  RecipientSaveBodySchema,
  RecipientSchema,
  RecipientsAnswerSchema,
  RuleSaveBodySchema,
  RuleSchema,
  RulesAnswerSchema,
  SUBSCRIPTION_FORMATS,
  SubscriptionPreviewSchema,
  SubscriptionRunSchema,
  SubscriptionRunsAnswerSchema,
  SubscriptionSaveBodySchema,
  SubscriptionSchema,
  SubscriptionsAnswerSchema,
} from '../../contract/subscriptions.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { message } from '../i18n.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { API_PREFIX } from '../plugins/rights-guard.ts';
import { contentDisposition } from '../reports/render/index.ts';
import type { ReportSiteCache } from '../reports/request.ts';
import { type Actor, actorOf } from '../subscriptions/access.ts';
import { listRecipients, removeRecipient, saveRecipient } from '../subscriptions/recipient-store.ts';
import { listRules, removeRule, saveRule } from '../subscriptions/rule-store.ts';
import {
  previewSubscription,
  renderSubscription,
  SUBSCRIPTION_RUN,
  type SubscriptionRunData,
  type SubscriptionRunOptions,
} from '../subscriptions/run.ts';
import { checkSendNow, SEND_NOW_PER_HOUR, sendNowKey } from '../subscriptions/send-now.ts';
import { linkKey, verifyLink } from '../subscriptions/signed-links.ts';
import {
  findSubscription,
  listSubscriptions,
  removeSubscription,
  saveSubscription,
  subscriptionRuns,
} from '../subscriptions/subscription-store.ts';
import { unsubscribe, unsubscribeTarget } from '../subscriptions/unsubscribe.ts';
import { documentAnswer, errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['subscriptions'];
const IdQuery = z.object({ id: UserIdParam });
const rowQuery = <K extends string>(key: K, what: string) =>
  z.object({
    id: UserIdParam,
    ...({ [key]: z.coerce.number().int().positive().max(INT4_MAX).describe(`id of the ${what}`) } as Record<
      K,
      z.ZodCoercedNumber<unknown>
    >),
  });
const RuleIdQuery = rowQuery('regleId', 'rule');
const RecipientIdQuery = rowQuery('destinataireId', 'recipient');
const SubscriptionIdQuery = rowQuery('abonnementId', 'subscription');
const TokenQuery = z.object({
  token: z.string().min(1).max(2000).describe('the signed token of the mail’s link'),
});
const Removed = z.object({ id: z.number().int() });
/** Declared so every POST has a body schema (issue #17): none, or an empty object. */
const NoBody = z.object({}).strict().nullish().describe('nothing: the row is named by the query');
/** RFC 8058's one-click form body (`List-Unsubscribe=One-Click`), or none (the page's own form). */
const OneClickBody = z
  .object({ 'List-Unsubscribe': z.string().max(100).optional() })
  .nullish()
  .describe('application/x-www-form-urlencoded `List-Unsubscribe=One-Click` (RFC 8058), or nothing');
const ACCESS =
  'A user with RAPPORTS sees and changes only their own rows (another’s answers 404 NotFound); CONFIGURATION every row.';

type Options = {
  database: Database;
  config: Pick<Config, 'publicUrl' | 'distribution' | 'smtpUrl' | 'mailFrom'>;
  reportSites?: ReportSiteCache;
};

/** The actor of a call, its `id` checked against the session. */
function actorFor(request: FastifyRequest, id: number): Actor {
  return actorOf(ownSession(request, id), request.ip);
}

/** Registers the routes of rules, recipients and subscriptions, and the public links. */
export async function subscriptionRoutes(app: FastifyInstance, options: Options) {
  const runOptions: SubscriptionRunOptions = {
    database: options.database,
    distribution: options.config.distribution,
    linkBase: `${options.config.publicUrl}${API_PREFIX}/recurrences`,
    ...(options.reportSites ? { reportSites: options.reportSites } : {}),
  };
  registerRuleRoutes(app, options.database);
  registerRecipientRoutes(app, options.database);
  registerSubscriptionRoutes(app, options.database);
  registerRunRoutes(app, runOptions);
  await app.register(publicLinkRoutes, runOptions);
}

function registerRuleRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/recurrences/regles',
    {
      config: { rights: 'GET bo/recurrences/regles' },
      schema: {
        summary: 'Recurrence rules',
        description: ACCESS,
        tags,
        querystring: IdQuery,
        response: { 200: RulesAnswerSchema, ...errorResponses },
      },
    },
    async function listRecurrenceRules(request) {
      return { regles: await listRules(database.pool, actorFor(request, request.query.id)) };
    },
  );
  api.post(
    '/bo/recurrences/regles/save',
    {
      config: { rights: 'POST bo/recurrences/regles/save', write: true },
      schema: {
        summary: 'Creates a rule (no `id` in the body) or replaces one',
        description: `Daily, weekdays, weekly on chosen days, monthly on a day (1–28) or the last day, at heure:minute local time. ${ACCESS}`,
        tags,
        querystring: IdQuery,
        body: RuleSaveBodySchema,
        response: { 200: RuleSchema, ...errorResponses },
      },
    },
    async function saveRecurrenceRule(request) {
      return saveRule(writeTx(request), actorFor(request, request.query.id), request.body);
    },
  );
  api.post(
    '/bo/recurrences/regles/remove',
    {
      config: { rights: 'POST bo/recurrences/regles/remove', write: true },
      schema: {
        summary: 'Removes a rule',
        description: `409 InUse with details.abonnements while subscriptions use it. ${ACCESS}`,
        tags,
        querystring: RuleIdQuery,
        body: NoBody,
        response: { 200: Removed, ...errorResponses },
      },
    },
    async function removeRecurrenceRule(request) {
      await removeRule(writeTx(request), actorFor(request, request.query.id), request.query.regleId);
      return { id: request.query.regleId };
    },
  );
}

function registerRecipientRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/recurrences/destinataires',
    {
      config: { rights: 'GET bo/recurrences/destinataires' },
      schema: {
        summary: 'Recipients of report e-mails',
        description: ACCESS,
        tags,
        querystring: IdQuery,
        response: { 200: RecipientsAnswerSchema, ...errorResponses },
      },
    },
    async function listRecurrenceRecipients(request) {
      return {
        destinataires: await listRecipients(database.pool, actorFor(request, request.query.id)),
      };
    },
  );
  api.post(
    '/bo/recurrences/destinataires/save',
    {
      config: { rights: 'POST bo/recurrences/destinataires/save', write: true },
      schema: {
        summary: 'Creates a recipient (no `id` in the body) or replaces one',
        description: `A user (utilisateurId: only oneself without CONFIGURATION, 403 Forbidden otherwise) or a plain e-mail address, with a language. ${ACCESS}`,
        tags,
        querystring: IdQuery,
        body: RecipientSaveBodySchema,
        response: { 200: RecipientSchema, ...errorResponses },
      },
    },
    async function saveRecurrenceRecipient(request) {
      return saveRecipient(writeTx(request), actorFor(request, request.query.id), request.body);
    },
  );
  api.post(
    '/bo/recurrences/destinataires/remove',
    {
      config: { rights: 'POST bo/recurrences/destinataires/remove', write: true },
      schema: {
        summary: 'Removes a recipient (and from every subscription)',
        description: ACCESS,
        tags,
        querystring: RecipientIdQuery,
        body: NoBody,
        response: { 200: Removed, ...errorResponses },
      },
    },
    async function removeRecurrenceRecipient(request) {
      await removeRecipient(
        writeTx(request),
        actorFor(request, request.query.id),
        request.query.destinataireId,
      );
      return { id: request.query.destinataireId };
    },
  );
}

function registerSubscriptionRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/recurrences/abonnements',
    {
      config: { rights: 'GET bo/recurrences/abonnements' },
      schema: {
        summary: 'Subscriptions to report e-mails, with their last run',
        description: `suspendu: the owner is gone, deactivated or lacks RAPPORTS; it sends nothing. ${ACCESS}`,
        tags,
        querystring: IdQuery,
        response: { 200: SubscriptionsAnswerSchema, ...errorResponses },
      },
    },
    async function listRecurrenceSubscriptions(request) {
      return {
        abonnements: await listSubscriptions(database.pool, actorFor(request, request.query.id)),
      };
    },
  );
  api.post(
    '/bo/recurrences/abonnements/save',
    {
      config: { rights: 'POST bo/recurrences/abonnements/save', write: true },
      schema: {
        summary: 'Creates a subscription (no `id` in the body, owned by the caller) or replaces one',
        description:
          'The rule and recipients must be the caller’s (any with CONFIGURATION), the favourite the owner’s (404 NotFound ' +
          'otherwise); sites outside the owner’s scope are dropped, 400 NoSitesSelected when none is left. Recipients who ' +
          'unsubscribed stay so. `proprietaireId` gives it to another owner: CONFIGURATION only (403 Forbidden otherwise, ' +
          `404 NotFound for an unknown user); it then runs with that user’s rights and sites. ${ACCESS}`,
        tags,
        querystring: IdQuery,
        body: SubscriptionSaveBodySchema,
        response: { 200: SubscriptionSchema, ...errorResponses },
      },
    },
    async function saveRecurrenceSubscription(request) {
      return saveSubscription(writeTx(request), actorFor(request, request.query.id), request.body);
    },
  );
  api.post(
    '/bo/recurrences/abonnements/remove',
    {
      config: { rights: 'POST bo/recurrences/abonnements/remove', write: true },
      schema: {
        summary: 'Removes a subscription',
        description: ACCESS,
        tags,
        querystring: SubscriptionIdQuery,
        body: NoBody,
        response: { 200: Removed, ...errorResponses },
      },
    },
    async function removeRecurrenceSubscription(request) {
      await removeSubscription(
        writeTx(request),
        actorFor(request, request.query.id),
        request.query.abonnementId,
      );
      return { id: request.query.abonnementId };
    },
  );
}

function registerRunRoutes(app: FastifyInstance, options: SubscriptionRunOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.post(
    '/bo/recurrences/abonnements/send',
    {
      config: { rights: 'POST bo/recurrences/abonnements/send', write: true },
      schema: {
        summary: 'Sends a subscription now (“send now”), as its rule would',
        description:
          'Queues a run (job `subscription.run`) for the current instant, with its owner’s rights at the time of the run, ' +
          'and answers once it is queued: the run (QUEUED). Its progress and outcome (SENT, EMPTY when there was no data ' +
          `and it sends only with data, SUSPENDED, FAILED) show in \`envois\`; its mails leave through the mail job. 400 when the subscription is inactive; ` +
          `409 SendNowPending while a send of it still waits or runs; 429 SendNowLimit after ${SEND_NOW_PER_HOUR} sends now by the user in the hour (details.max, details.minutes to wait). ${ACCESS}`,
        tags,
        querystring: SubscriptionIdQuery,
        body: NoBody,
        response: { 200: SubscriptionRunSchema, ...errorResponses },
      },
    },
    async function sendSubscriptionNow(request) {
      const actor = actorFor(request, request.query.id);
      const id = request.query.abonnementId;
      const subscription = await findSubscription(pool, actor, id);
      if (!subscription.active) throw new ApiHttpError(400, 'BadRequest', 'the subscription is not active');
      const tx = writeTx(request);
      await checkSendNow(tx, actor.userId, id);
      await recordAudit(tx, actor, { action: 'subscription.send', targetId: id });
      const plannedAt = new Date();
      const data: SubscriptionRunData = { subscriptionId: id, plannedAt: plannedAt.toISOString() };
      await request.server.jobs.enqueueIn(tx, SUBSCRIPTION_RUN, data, {
        singletonKey: sendNowKey(id, randomUUID()),
        plannedAt,
      });
      return {
        planifie: data.plannedAt,
        termine: null,
        statut: 'QUEUED' as const,
        tentatives: 0,
        mails: 0,
        fichiers: [],
        erreur: null,
      };
    },
  );
  api.get(
    '/bo/recurrences/abonnements/preview',
    {
      config: { rights: 'GET bo/recurrences/abonnements/preview' },
      schema: {
        summary: 'The mail a subscription would send now, and its files, without sending',
        description: `The mail of its first recipient (the caller’s language when it has none); files base64. ${ACCESS}`,
        tags,
        querystring: SubscriptionIdQuery,
        response: { 200: SubscriptionPreviewSchema, ...errorResponses },
      },
    },
    async function previewRecurrenceSubscription(request) {
      const session = ownSession(request, request.query.id);
      const language: Language = (LANGUAGES as readonly string[]).includes(session.language ?? '')
        ? (session.language as Language)
        : 'fr';
      return previewSubscription(
        options,
        actorOf(session, request.ip),
        request.query.abonnementId,
        new Date(),
        {
          address: session.login,
          language,
        },
      );
    },
  );
  api.get(
    '/bo/recurrences/abonnements/envois',
    {
      config: { rights: 'GET bo/recurrences/abonnements/envois' },
      schema: {
        summary: 'The run history of a subscription, newest first',
        description: ACCESS,
        tags,
        querystring: SubscriptionIdQuery,
        response: { 200: SubscriptionRunsAnswerSchema, ...errorResponses },
      },
    },
    async function subscriptionRunHistory(request) {
      await findSubscription(pool, actorFor(request, request.query.id), request.query.abonnementId);
      return { envois: await subscriptionRuns(pool, request.query.abonnementId) };
    },
  );
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A small page of the public links, in `language`, with a confirmation form when `form`. */
function linkPage(reply: FastifyReply, language: Language, text: string, form: string | null, status = 200) {
  const t = (id: string) => escapeHtml(message(language, id));
  const button = form
    ? `<form method="post" action="${escapeHtml(form)}"><button type="submit">${t('subscriptions.unsubscribe.button')}</button></form>`
    : '';
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${t('subscriptions.unsubscribe.title')}</title></head><body><h1>${t('subscriptions.unsubscribe.title')}</h1>` +
        `<p>${escapeHtml(text)}</p>${button}</body></html>`,
    );
}

const HtmlPage = documentAnswer(z.string(), ['text/html']);

/** The public routes of the mails' links. */
async function publicLinkRoutes(app: FastifyInstance, options: SubscriptionRunOptions) {
  const { pool } = options.database;
  // RFC 8058: the mail client posts `List-Unsubscribe=One-Click` as a form; its value changes nothing.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    function parseForm(_request, body, done) {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  registerUnsubscribeRoutes(app, pool);
  registerDownloadRoute(app, options);
}

/** GET (confirm) and POST (do it) recurrences/desabonnement. */
function registerUnsubscribeRoutes(app: FastifyInstance, pool: Database['pool']): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // A browser (a person following the link) gets a page; any other client SPEC.md §8's error body.
  const invalid = (request: FastifyRequest, reply: FastifyReply) => {
    if (!String(request.headers.accept ?? '').includes('text/html'))
      throw new ApiHttpError(404, 'NotFound', 'this link is not valid');
    return linkPage(reply, 'fr', message('fr', 'subscriptions.unsubscribe.invalid'), null, 404);
  };

  api.get(
    '/recurrences/desabonnement',
    {
      config: { rights: 'GET recurrences/desabonnement' },
      schema: {
        summary: 'The page of a mail’s unsubscribe link: asks to confirm (changes nothing)',
        description:
          'An HTML page in the recipient’s language; 404 for a forged, altered or other-purpose token.',
        tags,
        querystring: TokenQuery,
        response: { 200: HtmlPage, ...errorResponses },
      },
    },
    async function unsubscribePage(request, reply) {
      const target = await unsubscribeTarget(pool, request.query.token);
      if (!target) return invalid(request, reply);
      const t = (id: string) =>
        message(target.language, id, { libelle: target.libelle, adresse: target.address ?? '' });
      if (target.done) return linkPage(reply, target.language, t('subscriptions.unsubscribe.done'), null);
      return linkPage(reply, target.language, t('subscriptions.unsubscribe.confirm'), request.url);
    },
  );
  api.post(
    '/recurrences/desabonnement',
    {
      config: { rights: 'POST recurrences/desabonnement' },
      schema: {
        summary: 'Unsubscribes the recipient of a mail’s link from that subscription (RFC 8058 one-click)',
        description:
          'No session: the signed token is the authority. Again is harmless. 404 for a refused token.',
        tags,
        querystring: TokenQuery,
        body: OneClickBody,
        response: { 200: HtmlPage, ...errorResponses },
      },
    },
    async function unsubscribeOneClick(request, reply) {
      const target = await unsubscribe(pool, request.query.token, request.ip);
      if (!target) return invalid(request, reply);
      const text = message(target.language, 'subscriptions.unsubscribe.done', {
        libelle: target.libelle,
        adresse: target.address ?? '',
      });
      return linkPage(reply, target.language, text, null);
    },
  );
}

/** GET recurrences/fichier: a file too large to attach, made again. */
function registerDownloadRoute(app: FastifyInstance, options: SubscriptionRunOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.get(
    '/recurrences/fichier',
    {
      config: { rights: 'GET recurrences/fichier' },
      schema: {
        summary: 'A report file too large to attach to its mail, made again with its owner’s rights of now',
        description:
          '404 NotFound for a forged, altered, other-purpose or expired token, or a subscription that is gone or suspended.',
        tags,
        querystring: TokenQuery,
        response: {
          200: documentAnswer(z.string(), [
            'application/pdf',
            'text/csv',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ]),
          ...errorResponses,
        },
      },
    },
    async function downloadReportFile(request, reply) {
      const link = verifyLink(await linkKey(pool), request.query.token, 'download');
      const gone = () => new ApiHttpError(404, 'NotFound', 'this link is not valid or has expired');
      if (!link || !(SUBSCRIPTION_FORMATS as readonly string[]).includes(link.f)) throw gone();
      const subscription = await findSubscription(pool, null, link.s).catch(() => null);
      if (!subscription) throw gone();
      const language = (LANGUAGES as readonly string[]).includes(link.l) ? (link.l as Language) : 'fr';
      const format = link.f as (typeof SUBSCRIPTION_FORMATS)[number];
      const rendered = await renderSubscription(
        options,
        subscription,
        new Date(link.t),
        [language],
        [format],
      );
      const file = rendered.files.get(language)?.[0];
      if (!file) throw gone();
      return reply
        .type(file.contentType satisfies string)
        .header('content-disposition', contentDisposition(file.filename))
        .send(file.content);
    },
  );
}
