/**
 * One valid request per API route, keyed by its contract/rights.ts API_RIGHTS key, for the rights
 * matrix (tests/server/rights-matrix.test.ts): the matrix sends it as no session, as a user
 * without the right, as a user with the right whose only site is another one, and as a user with
 * the right and the site, and expects 401 / 403 / 403 / 2xx.
 *
 * Each sample says whether the request names a site (`site: true`: "another site" must be
 * refused) or why it does not (`site: '…'`: "another site" is then the same as "the site", a 2xx).
 * Where another site answers something else than 403 on purpose, `otherSite` says what and why
 * (an object addressed by id outside the caller's scope answers 404, so ids are not revealed).
 *
 * A sample builds its request when its case runs: it may prepare what the call needs (a safe
 * count to countersign, a favourite to remove) with `ctx.admin`, who holds every right on every
 * site, or as the caller. Writes that destroy (remove*, logout, a password reset) act on objects
 * made for that case only.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Requirement } from '../../src/contract/rights.ts';
import { outboxDirOf } from '../../src/server/mail/transport.ts';
import { editionsWritten } from '../../src/server/reports/editions.ts';
import type { AuthHeaders, TestApp } from './app.ts';
import { SUBSCRIPTION_SAMPLES } from './rights-samples-subscriptions.ts';
import { ALERT_SAMPLES } from './rights-samples-alerts.ts';
import { STARTUP_SAMPLES } from './rights-samples-startup.ts';
import { PURGE_SAMPLES } from './rights-samples-purge.ts';
import { DATABASE_SAMPLES } from './rights-samples-database.ts';
import { INTEGRATION_SAMPLES } from './rights-samples-integrations.ts';
import { FEC_RECURRENCE_SAMPLES } from './rights-samples-fec-recurrences.ts';
import { ATTENTION_SAMPLES } from './rights-samples-attention.ts';

/** The day every dated sample asks for (the counting seed's payments are on it). */
export const DAY = '2026-03-02';
/** A day without any safe count (envoieMailManquant's "missing" day). */
export const EMPTY_DAY = '2026-03-05';
/** The password of every matrix user. */
export const PASSWORD = 'Correct-Horse1';
/** The manager code the countersigning samples set and use. */
export const MANAGER_CODE = '4821';

/** A signed-in user of the matrix. */
export interface Caller {
  id: number;
  login: string;
  email: string;
  headers: AuthHeaders;
}

/** What a sample may use to build its request. */
export interface SampleContext {
  t: TestApp;
  /** The site the requests name (Paris of tests/server/fixtures.ts). */
  site: number;
  /** The caller's own site: `site`, or another one for the "another site" case. */
  ownSite: number;
  /** The company of no site, for administration samples. */
  company: number;
  caller: Caller;
  /** Every right, every site, role DIRECTEUR, with an e-mail: prepares data, receives mails. */
  admin: Caller;
}

/** A request as `app.inject` takes it (headers are added to the case's own). */
export interface SampleRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
  headers?: Record<string, string>;
}

/** A route's sample (see the module comment). */
export interface Sample {
  site: true | string;
  otherSite?: { status: number; why: string };
  /**
   * What "with the right and the site" answers when it is not a 2xx on purpose: a change of the
   * chain's structure that only an administrator of every site may make (issue #32 C.2), refused
   * to a caller holding one site. The escalation tests check an all-sites administrator's 2xx.
   */
  withTheSite?: { status: number; why: string };
  /**
   * Rights the sample's call needs although its API_RIGHTS requirement is `session` (a route that
   * checks a finer right itself, e.g. a home widget): "with the right" callers hold these, and a
   * caller without them is refused 403 `Forbidden`.
   */
  rights?: readonly string[];
  /** The call ends the caller's session (bo/logout): the case signs in anew for it. */
  freshSession?: boolean;
  request(ctx: SampleContext): SampleRequest | Promise<SampleRequest>;
}

let serial = 0;
/** A name no other sample used: `prefix-<n>-<random>`. */
export function unique(prefix: string): string {
  serial += 1;
  return `${prefix}-${serial}-${randomBytes(3).toString('hex')}`;
}

/** `/api/<path>?<params>` with the params URL-encoded (numbers as text). */
function api(path: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, String(v));
  const text = query.toString();
  return `/api/${path}${text ? `?${text}` : ''}`;
}

const get = (path: string, params?: Record<string, string | number | undefined>): SampleRequest => ({
  method: 'GET',
  url: api(path, params),
});
const post = (
  path: string,
  params: Record<string, string | number | undefined>,
  payload: object,
): SampleRequest => ({ method: 'POST', url: api(path, params), payload });

/**
 * Sends `request` as `as` and answers its JSON.
 * @throws Error with the answer when it is not 2xx (a sample's preparation failed).
 */
async function call<T>(ctx: SampleContext, as: Caller, request: SampleRequest): Promise<T> {
  const res = await ctx.t.app.inject({ ...request, headers: { ...as.headers, ...request.headers } });
  if (res.statusCode < 200 || res.statusCode > 299) {
    throw new Error(`preparing: ${request.method} ${request.url} answered ${res.statusCode} ${res.body}`);
  }
  return res.json<T>();
}

/** Inserts a row and answers its id (preparations the API of this branch may not have yet). */
async function insertId(ctx: SampleContext, sql: string, values: unknown[]): Promise<number> {
  const { rows } = await ctx.t.database.pool.query<{ id: number }>(`${sql} RETURNING id`, values);
  return rows[0]!.id;
}

/** A new company without sites (a FEC sample's: every site of it is in any scope); its id. */
function siteLessCompany(ctx: SampleContext, prefix: string): Promise<number> {
  return insertId(ctx, 'INSERT INTO companies (raison_sociale) VALUES ($1)', [unique(prefix)]);
}

/** A safe count of `site` on DAY saved by the administrator; its id. */
async function safeCount(ctx: SampleContext): Promise<number> {
  const saved = await call<{ id: number }>(
    ctx,
    ctx.admin,
    post(
      'coffre/save',
      { id: ctx.admin.id },
      {
        site: ctx.site,
        dateFiscale: DAY,
        openingCents: 0,
        depositsCents: 5000,
        withdrawalsCents: 0,
        contents: [{ denominationCents: 5000, quantity: 1 }],
      },
    ),
  );
  return saved.id;
}

/** The query of a manager receipt on `site` (createDocument, updateDocument). */
function receiptQuery(ctx: SampleContext): Record<string, string | number> {
  return {
    codeVendeur: '01',
    codeManager: 'M1',
    nomVendeur: 'Alice',
    nomManager: 'Max',
    site: ctx.site,
    dateFiscale: DAY,
  };
}

/** A manager receipt on `site` made by the administrator; its id. */
async function receipt(ctx: SampleContext): Promise<number> {
  const made = await call<{ id: number }>(
    ctx,
    ctx.admin,
    post('bo/documentsManager/createDocument', receiptQuery(ctx), { montantCents: 1200, motif: 'Avance' }),
  );
  return made.id;
}

/** The caller's manager code set to MANAGER_CODE. */
async function managerCode(ctx: SampleContext): Promise<void> {
  await call(ctx, ctx.caller, post('bo/setContreCode', { id: ctx.caller.id }, { contreCode: MANAGER_CODE }));
}

/** A favourite of `ownerSites` for a bo/favoris/save body. */
function favourite(sites: number[]): object {
  return {
    libelle: unique('Favori'),
    typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
    type: 'Daily',
    lSites: sites,
    periode: 'W-1',
    format: 'PDF',
  };
}

/** A report of `site` on DAY generated by the administrator and recorded; its edition id. */
async function edition(ctx: SampleContext): Promise<number> {
  await call(ctx, ctx.admin, get('bo/getReport', reportParams(ctx.admin.id, ctx.site)));
  await editionsWritten();
  const { rows } = await ctx.t.database.pool.query<{ id: number }>(
    'SELECT max(id)::int AS id FROM report_editions WHERE user_id = $1',
    [ctx.admin.id],
  );
  return rows[0]!.id;
}

/** bo/getReport's query: the day's sales of `site` as JSON (a dataset, even an empty one). */
function reportParams(id: number, site: number | undefined): Record<string, string | number | undefined> {
  return {
    id,
    rapportClassName: 'RapportVentes',
    format: 'JSON',
    dateDebut: DAY,
    dateFin: DAY,
    'sites[]': site,
  };
}

/** A user of their own profile with an e-mail, made for one case (removed or reset by it). */
async function throwawayUser(ctx: SampleContext): Promise<{ id: number; login: string; email: string }> {
  const login = unique('jetable');
  const email = `${login}@example.com`;
  const id = await ctx.t.createUser({ login, password: PASSWORD, droits: [], restaurantIds: [ctx.site] });
  await ctx.t.database.pool.query('UPDATE users SET email = $2 WHERE id = $1', [id, email]);
  return { id, login, email };
}

/** A live password-reset key of a throwaway user, stored as SHA-256 the way reinit/* expects. */
async function resetKey(ctx: SampleContext): Promise<{ email: string; key: string }> {
  const user = await throwawayUser(ctx);
  const key = randomBytes(32).toString('hex');
  await ctx.t.database.pool.query(
    `INSERT INTO password_resets (key_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
    [createHash('sha256').update(key).digest('hex'), user.id],
  );
  return { email: user.email, key };
}

/** A message from the administration for the site `ctx.site` (or everybody), this year; its id. */
async function message(ctx: SampleContext, to: 'site' | 'everybody' = 'site'): Promise<number> {
  const body = { ...messageBody(ctx), ...(to === 'everybody' ? { restaurantIds: [] } : {}) };
  const made = await call<{ id: number }>(ctx, ctx.admin, post('bo/infra/newMessage', {}, body));
  return made.id;
}

/** A message for the site `ctx.site` (a message for everybody needs an all-sites administrator). */
function messageBody(ctx: SampleContext): object {
  return {
    texts: { fr: unique('Message') },
    severity: 'info',
    fromDate: '2020-01-01',
    toDate: '2099-12-31',
    restaurantIds: [ctx.site],
  };
}

/** A site input of the company `company` (newSite, saveSite). */
function siteBody(company: number, libelle = unique('Site')): object {
  return { libelle, societeId: company, currency: 'EUR', timeZone: 'Europe/Paris', dayStart: '00:00' };
}

const OWN_SCOPE = "none: answers the caller's own scope";
const OWN_DATA = 'none: acts on data of the caller alone';
const CHAIN_WIDE =
  "none: administration's lists and the objects a sample makes for itself are chain-wide (decision 0034)";
const NO_SITE = 'none: not about a site';
const ALL_SITES_ONLY = {
  status: 403,
  why: 'a change of the chain’s structure (a company, a site no scope reaches yet) needs an administrator of every site (issue #32 C.2)',
};
const BY_ID_404 =
  'an object addressed by id outside the caller’s scope answers 404 NotFound, as one that does not exist: ids are not revealed';

/** Public routes, session routes and reference data. */
const SESSION_SAMPLES: Record<string, Sample> = {
  'GET version': { site: NO_SITE, request: () => get('version') },
  'GET distribution': { site: NO_SITE, request: () => get('distribution') },
  'GET docs': { site: NO_SITE, request: () => get('docs/json') },
  'GET bo/connexion': {
    site: NO_SITE,
    request: (ctx) => ({
      ...get('bo/connexion', { username: ctx.caller.login }),
      headers: {
        authorization: `Basic ${Buffer.from(`${ctx.caller.login}:${PASSWORD}`).toString('base64')}`,
      },
    }),
  },
  'GET bo/logout': { site: NO_SITE, freshSession: true, request: () => get('bo/logout') },
  'GET bo/getSites': { site: OWN_SCOPE, request: (ctx) => get('bo/getSites', { id: ctx.caller.id }) },
  'GET bo/getEnseignes': { site: OWN_SCOPE, request: (ctx) => get('bo/getEnseignes', { id: ctx.caller.id }) },
  'GET bo/getSirets': { site: OWN_SCOPE, request: (ctx) => get('bo/getSirets', { id: ctx.caller.id }) },
  'GET bo/infra/getRegroupements': {
    site: OWN_SCOPE,
    request: (ctx) => get('bo/infra/getRegroupements', { id: ctx.caller.id }),
  },
  'GET bo/getCaisses': { site: OWN_SCOPE, request: (ctx) => get('bo/getCaisses', { id: ctx.caller.id }) },
  'GET bo/getVendeurs': { site: OWN_SCOPE, request: (ctx) => get('bo/getVendeurs', { id: ctx.caller.id }) },
  // Any signed-in user may send a batch; each item answers its own right's check inside the 200
  // (tests/server/outbox-batch.test.ts).
  'POST bo/outbox/batch': {
    site: "none: the batch answers 200, each item's own status is inside",
    request: (ctx) =>
      post(
        'bo/outbox/batch',
        {},
        {
          items: [
            {
              method: 'POST',
              path: 'bo/favoris/save',
              query: { id: String(ctx.caller.id) },
              idempotencyKey: randomUUID(),
              body: favourite([ctx.site]),
            },
          ],
        },
      ),
  },
  // Every widget needs the right of its data (issue #17 item 8; the per-widget table is
  // contract/home.ts HOME_WIDGET_RIGHTS, each widget × right in tests/server/home-rights.test.ts).
  'GET bo/home/:widget': {
    site: true,
    rights: ['RAPPORTS'],
    request: (ctx) => get('bo/home/ventes', { id: ctx.caller.id, sites: ctx.site, datePerso: DAY }),
  },
  'GET withCredentials/collab/previsions': {
    site: true,
    request: (ctx) =>
      get('withCredentials/collab/previsions', {
        id: ctx.caller.id,
        sites: ctx.site,
        dateDebut: DAY,
        dateFin: DAY,
      }),
  },
  'GET bo/infra/getUtilisateur': {
    site: "none: the caller's own account",
    request: (ctx) => get('bo/infra/getUtilisateur', { login: ctx.caller.login }),
  },
  'POST bo/infra/saveUtilisateur': {
    site: "none: the caller's own account",
    request: (ctx) => post('bo/infra/saveUtilisateur', { id: ctx.caller.id }, { language: 'fr' }),
  },
  'GET messages/all': { site: OWN_SCOPE, request: () => get('messages/all', { language: 'fr' }) },
  'POST messages/dismiss': {
    site: 'none: a message shown to everyone',
    request: async (ctx) => post('messages/dismiss', { id: await message(ctx, 'everybody') }, {}),
  },
  'GET reinit/sendReinitMail': {
    site: NO_SITE,
    request: async (ctx) => get('reinit/sendReinitMail', { user: (await throwawayUser(ctx)).login }),
  },
  'GET reinit/reinitPassword': {
    site: NO_SITE,
    request: async (ctx) => {
      const { email, key } = await resetKey(ctx);
      return get('reinit/reinitPassword', { email, resetPasswordKey: key, password: 'New-Password9' });
    },
  },
  'POST reinit/reinitPassword': {
    site: NO_SITE,
    request: async (ctx) => {
      const { email, key } = await resetKey(ctx);
      return post('reinit/reinitPassword', {}, { email, resetPasswordKey: key, password: 'New-Password9' });
    },
  },
};

/** Reports, exports, distributions, tickets and favourites (right RAPPORTS or TICKETS). */
const REPORT_SAMPLES: Record<string, Sample> = {
  'GET bo/rapport/metrics': {
    site: "none: the report classes and the caller's own editions",
    request: (ctx) => get('bo/rapport/metrics', { id: ctx.caller.id }),
  },
  'GET bo/getReport': {
    site: true,
    request: (ctx) => get('bo/getReport', reportParams(ctx.caller.id, ctx.site)),
  },
  'POST bo/getReport': {
    site: true,
    request: (ctx) =>
      post(
        'bo/getReport',
        {},
        {
          id: ctx.caller.id,
          rapportClassName: 'RapportVentes',
          format: 'JSON',
          dateDebut: DAY,
          dateFin: DAY,
          sites: [ctx.site],
        },
      ),
  },
  'GET bo/getReportSite': {
    site: true,
    request: (ctx) =>
      get('bo/getReportSite', { ...reportParams(ctx.caller.id, undefined), restaurantId: ctx.site }),
  },
  'GET bo/getResultsData': {
    site: "none: the caller's last report again, on their scope",
    request: async (ctx) => {
      // The caller's own report first (of their own scope); refused before any right, it leaves none.
      await ctx.t.app.inject({
        ...get('bo/getReport', reportParams(ctx.caller.id, undefined)),
        headers: ctx.caller.headers,
      });
      await editionsWritten();
      return get('bo/getResultsData', { id: ctx.caller.id, format: 'JSON' });
    },
  },
  'GET bo/getResultsChoices': {
    site: NO_SITE,
    request: (ctx) =>
      get('bo/getResultsChoices', { id: ctx.caller.id, RapportGeneralClassName: 'RapportVentes' }),
  },
  'GET bo/getGroupements': {
    site: true,
    request: (ctx) =>
      get('bo/getGroupements', {
        id: ctx.caller.id,
        rapportGeneralClassName: 'RapportVentes',
        filtre: 'CAISSE',
        restaurantId: ctx.site,
        dateDebut: DAY,
        dateFin: DAY,
      }),
  },
  'GET bo/getAllReportsSpecBK': {
    site: true,
    request: (ctx) =>
      get('bo/getAllReportsSpecBK', { id: ctx.caller.id, site: ctx.site, dateDebut: DAY, dateFin: DAY }),
  },
  'GET bo/fec/export': {
    site:
      "none: a FEC is a company's, refused unless every site of the company is in the scope; the sample's company " +
      'has no site, so the scope case is tested in tests/server/fec/fec-routes.test.ts',
    request: async (ctx) => {
      const { rows } = await ctx.t.database.pool.query<{ id: number }>(
        "INSERT INTO companies (raison_sociale, siren) VALUES ($1, '552100554') RETURNING id",
        [unique('fec')],
      );
      return get('bo/fec/export', { id: ctx.caller.id, societe: rows[0]!.id, dateDebut: DAY, dateFin: DAY });
    },
  },
  'GET bo/fec/plan': {
    site:
      "none: a FEC plan is a company's, refused unless every site of the company is in the scope; the sample's " +
      'company has no site, so the scope case is tested in tests/server/fec/fec-plan.test.ts',
    request: async (ctx) =>
      get('bo/fec/plan', { id: ctx.caller.id, societe: await siteLessCompany(ctx, 'fec-plan') }),
  },
  'POST bo/fec/savePlan': {
    site:
      "none: a FEC plan is a company's, refused unless every site of the company is in the scope; the sample's " +
      'company has no site, so the scope case is tested in tests/server/fec/fec-plan.test.ts',
    request: async (ctx) =>
      post(
        'bo/fec/savePlan',
        { id: ctx.caller.id, societe: await siteLessCompany(ctx, 'fec-plan') },
        { accounts: [{ role: 'PAYMENT_CASH', account: '531', label: 'Caisse du siège' }] },
      ),
  },
  'GET exports/status': { site: OWN_SCOPE, request: () => get('exports/status', { dateFiscale: DAY }) },
  'GET exports/list': { site: OWN_SCOPE, request: (ctx) => get('exports/list', { id: ctx.caller.id }) },
  'GET exports/download': {
    site: true,
    otherSite: { status: 404, why: BY_ID_404 },
    request: async (ctx) =>
      get('exports/download', { id: ctx.caller.id, edition: await edition(ctx), format: 'JSON' }),
  },
  'GET bo/getRepartition': {
    site: true,
    request: (ctx) =>
      get('bo/getRepartition', {
        id: ctx.caller.id,
        typeRepartition: 'PAIEMENT',
        site: ctx.site,
        dateDebut: DAY,
        dateFin: DAY,
      }),
  },
  'GET bo/bi/anomalies': {
    site: true,
    request: (ctx) =>
      get('bo/bi/anomalies', { id: ctx.caller.id, sites: ctx.site, dateDebut: DAY, dateFin: DAY }),
  },
  'GET bo/tickets/search': {
    site: true,
    request: (ctx) =>
      get('bo/tickets/search', { id: ctx.caller.id, 'sites[]': ctx.site, dateDebut: DAY, dateFin: DAY }),
  },
  'GET bo/tickets/detail': {
    site: true,
    request: (ctx) => get('bo/tickets/detail', { id: ctx.caller.id, site: ctx.site, ticketId: 1 }),
  },
  'GET bo/favoris': { site: OWN_DATA, request: (ctx) => get('bo/favoris', { id: ctx.caller.id }) },
  'POST bo/favoris/save': {
    site: true,
    otherSite: {
      status: 400,
      why: 'favourites drop the sites outside the scope and refuse a favourite left without any (NoSitesSelected), as documented',
    },
    request: (ctx) => post('bo/favoris/save', { id: ctx.caller.id }, favourite([ctx.site])),
  },
  'GET bo/favoris/remove': {
    site: "none: a favourite of the caller's own (made on their own site)",
    request: async (ctx) => {
      const made = await ctx.t.app.inject({
        ...post('bo/favoris/save', { id: ctx.caller.id }, favourite([ctx.ownSite])),
        headers: ctx.caller.headers,
      });
      // Without the right the favourite cannot be made: any id will do, the guard refuses first.
      const favoriId = made.statusCode === 200 ? made.json<{ id: number }>().id : 1;
      return get('bo/favoris/remove', { id: ctx.caller.id, favoriId });
    },
  },
};

/** Counting, safe, receipts and their mails (rights COMPTAGE, COFFRE, RECUS, CONFIGURATION). */
const COUNTING_SAMPLES: Record<string, Sample> = {
  'GET bo/getListRules': {
    site: true,
    request: (ctx) => get('bo/getListRules', { id: ctx.caller.id, site: ctx.site }),
  },
  'GET bo/updateRule': {
    site: true,
    request: (ctx) =>
      get('bo/updateRule', { id: ctx.caller.id, libelle: 'comptageCheques', active: 'true', site: ctx.site }),
  },
  'GET bo/comptage/expected': {
    site: true,
    request: (ctx) =>
      get('bo/comptage/expected', { id: ctx.caller.id, site: ctx.site, dateFiscale: DAY, caisse: 1 }),
  },
  'GET bo/comptage/list': {
    site: true,
    request: (ctx) => get('bo/comptage/list', { id: ctx.caller.id, site: ctx.site, dateFiscale: DAY }),
  },
  'POST bo/comptage/save': {
    site: true,
    request: (ctx) =>
      post(
        'bo/comptage/save',
        { id: ctx.caller.id },
        {
          site: ctx.site,
          dateFiscale: DAY,
          caisse: 1,
          cash: [{ denominationCents: 1000, quantity: 1 }],
          chequesCents: 3000,
          mealVouchersCents: 900,
          cardSlipsCents: 800,
        },
      ),
  },
  'GET bo/documentsManager/readRecusManager': {
    site: true,
    request: (ctx) => get('bo/documentsManager/readRecusManager', { dateFiscale: DAY, site: ctx.site }),
  },
  'GET bo/documentsManager/readDocument': {
    site: true,
    otherSite: { status: 404, why: BY_ID_404 },
    request: async (ctx) => get('bo/documentsManager/readDocument', { documentId: await receipt(ctx) }),
  },
  'POST bo/documentsManager/createDocument': {
    site: true,
    request: (ctx) =>
      post('bo/documentsManager/createDocument', receiptQuery(ctx), { montantCents: 500, motif: 'Avance' }),
  },
  'POST bo/documentsManager/updateDocument': {
    site: true,
    request: async (ctx) =>
      post(
        'bo/documentsManager/updateDocument',
        { ...receiptQuery(ctx), documentId: await receipt(ctx) },
        { montantCents: 700, motif: 'Avance corrigée' },
      ),
  },
  'GET coffre': {
    site: true,
    request: (ctx) =>
      get('coffre', { ACTION: 'getComptages', restaurantId: ctx.site, dateDebut: DAY, dateFin: DAY }),
  },
  'POST coffre/save': {
    site: true,
    request: (ctx) =>
      post(
        'coffre/save',
        { id: ctx.caller.id },
        {
          site: ctx.site,
          dateFiscale: DAY,
          openingCents: 0,
          depositsCents: 1000,
          withdrawalsCents: 0,
          contents: [{ denominationCents: 1000, quantity: 1 }],
        },
      ),
  },
  'GET fluxfin/declare_et_en_attente_de_signatures': {
    site: OWN_SCOPE,
    request: (ctx) =>
      get('fluxfin/declare_et_en_attente_de_signatures', { dateDebut: DAY, dateFin: DAY, id: ctx.caller.id }),
  },
  'POST fluxfin/contre_signe': {
    site: true,
    request: async (ctx) => {
      await safeCount(ctx);
      await managerCode(ctx).catch(() => {}); // refused without the right: the guard refuses first
      return post(
        'fluxfin/contre_signe',
        {
          restaurantId: ctx.site,
          id: ctx.caller.id,
          datefiscale: DAY,
          managerName: ctx.caller.login,
          managerCode: MANAGER_CODE,
        },
        {},
      );
    },
  },
  'GET bo/checkContreCode': {
    site: "none: checks the caller's own manager code",
    request: async (ctx) => {
      await managerCode(ctx).catch(() => {}); // refused without the right: the guard refuses first
      return get('bo/checkContreCode', {
        id: ctx.caller.id,
        code: ctx.caller.login,
        contreCode: MANAGER_CODE,
      });
    },
  },
  'POST bo/setContreCode': {
    site: "none: the caller's own manager code",
    request: (ctx) => post('bo/setContreCode', { id: ctx.caller.id }, { contreCode: MANAGER_CODE }),
  },
  'GET bo/home/envoieMail': {
    site: true,
    request: async (ctx) =>
      get('bo/home/envoieMail', {
        idRecu: await safeCount(ctx),
        utilisateur: ctx.admin.login,
        site: ctx.site,
      }),
  },
  'GET bo/home/envoieMailManquant': {
    site: true,
    request: (ctx) =>
      get('bo/home/envoieMailManquant', {
        role: 'DIRECTEUR',
        id: ctx.caller.id,
        site: ctx.site,
        datefiscale: EMPTY_DAY,
      }),
  },
};

/** Administration of companies, sites, groups, profiles, users, messages, and the audit log (CONFIGURATION). */
const ADMIN_SAMPLES: Record<string, Sample> = {
  'GET bo/infra/getSocietes': { site: CHAIN_WIDE, request: () => get('bo/infra/getSocietes') },
  'GET bo/infra/getProfils': { site: CHAIN_WIDE, request: () => get('bo/infra/getProfils') },
  'GET bo/infra/getUtilisateurs': { site: CHAIN_WIDE, request: () => get('bo/infra/getUtilisateurs') },
  'GET bo/infra/getDroits': { site: NO_SITE, request: () => get('bo/infra/getDroits', { language: 'fr' }) },
  'GET bo/infra/getAudit': { site: CHAIN_WIDE, request: () => get('bo/infra/getAudit') },
  'GET bo/infra/getMessages': { site: CHAIN_WIDE, request: () => get('bo/infra/getMessages') },
  'GET bo/mails/outbox': {
    site: CHAIN_WIDE,
    request: (ctx) => get('bo/mails/outbox', { id: ctx.caller.id }),
  },
  'GET bo/mails/outbox/message': {
    site: CHAIN_WIDE,
    request: async (ctx) => {
      // A mail of the outbox, written as the outbox mailer names its files.
      const dir = outboxDirOf(ctx.t.config.dataDir);
      const name = `20261207T050000-000Z-${String(++serial).padStart(16, '0')}.eml`;
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), 'To: a@example.com\r\nSubject: Hello\r\n\r\nHello.\r\n');
      return get('bo/mails/outbox/message', { id: ctx.caller.id, name });
    },
  },
  'POST bo/infra/newSociete': {
    site: CHAIN_WIDE,
    otherSite: ALL_SITES_ONLY,
    withTheSite: ALL_SITES_ONLY,
    request: () => post('bo/infra/newSociete', {}, { raisonSociale: unique('Société') }),
  },
  // A company without sites: no site scope names it (issue #32 C.2).
  'POST bo/infra/saveSociete': {
    site: CHAIN_WIDE,
    otherSite: ALL_SITES_ONLY,
    withTheSite: ALL_SITES_ONLY,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO companies (raison_sociale) VALUES ($1)', [
        unique('Société'),
      ]);
      return post('bo/infra/saveSociete', { id }, { raisonSociale: unique('Société') });
    },
  },
  'GET bo/infra/removeSociete': {
    site: CHAIN_WIDE,
    otherSite: ALL_SITES_ONLY,
    withTheSite: ALL_SITES_ONLY,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO companies (raison_sociale) VALUES ($1)', [
        unique('Société'),
      ]);
      return get('bo/infra/removeSociete', { id });
    },
  },
  // A new site is in no one-site administrator's scope (issue #32 C.2).
  'POST bo/infra/newSite': {
    site: CHAIN_WIDE,
    otherSite: ALL_SITES_ONLY,
    withTheSite: ALL_SITES_ONLY,
    request: (ctx) => post('bo/infra/newSite', {}, siteBody(ctx.company)),
  },
  // A site outside the caller's one site (issue #32 C.2).
  'POST bo/infra/saveSite': {
    site: CHAIN_WIDE,
    otherSite: ALL_SITES_ONLY,
    withTheSite: ALL_SITES_ONLY,
    request: async (ctx) => {
      const libelle = unique('Site');
      const id = await insertId(ctx, 'INSERT INTO sites (libelle, company_id) VALUES ($1, $2)', [
        libelle,
        ctx.company,
      ]);
      return post('bo/infra/saveSite', { id }, siteBody(ctx.company, libelle));
    },
  },
  // A group gathers sites of the administrator's scope only (issue #32 C.2).
  'POST bo/infra/newRegroupement': {
    site: true,
    request: (ctx) =>
      post('bo/infra/newRegroupement', {}, { raisonSociale: unique('Groupe'), restaurantIds: [ctx.site] }),
  },
  'POST bo/infra/saveRegroupement': {
    site: true,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO groups (raison_sociale) VALUES ($1)', [unique('Groupe')]);
      return post(
        'bo/infra/saveRegroupement',
        { id },
        { raisonSociale: unique('Groupe'), restaurantIds: [ctx.site] },
      );
    },
  },
  'GET bo/infra/removeRegroupement': {
    site: CHAIN_WIDE,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO groups (raison_sociale) VALUES ($1)', [unique('Groupe')]);
      return get('bo/infra/removeRegroupement', { id });
    },
  },
  // Nobody grants a right or a site they do not hold (issue #32 C.2): the profile holds the
  // caller's own right and the site, refused to an administrator of another site.
  'POST bo/infra/newProfile': {
    site: true,
    request: (ctx) =>
      post(
        'bo/infra/newProfile',
        {},
        { titre: unique('Profil'), droits: ['CONFIGURATION'], restaurantIds: [ctx.site] },
      ),
  },
  'POST bo/infra/saveProfile': {
    site: true,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO profiles (titre, restaurant_ids) VALUES ($1, $2)', [
        unique('Profil'),
        [ctx.site],
      ]);
      return post(
        'bo/infra/saveProfile',
        { id },
        { titre: unique('Profil'), droits: ['CONFIGURATION'], restaurantIds: [ctx.site] },
      );
    },
  },
  'GET bo/infra/removeProfil': {
    site: CHAIN_WIDE,
    request: async (ctx) => {
      const id = await insertId(ctx, 'INSERT INTO profiles (titre) VALUES ($1)', [unique('Profil')]);
      return get('bo/infra/removeProfil', { id });
    },
  },
  'POST bo/infra/newUtilisateur': {
    site: CHAIN_WIDE,
    request: async (ctx) => {
      const profileId = await insertId(ctx, 'INSERT INTO profiles (titre) VALUES ($1)', [unique('Profil')]);
      const login = unique('nouveau');
      return post(
        'bo/infra/newUtilisateur',
        { login, profileId, email: `${login}@example.com` },
        { extras: [], password: 'New-Password9', rePasswordKey: 'New-Password9' },
      );
    },
  },
  // A user of the site is administered by an administrator of that site only (issue #32 C.2).
  'GET bo/infra/removeUtilisateur': {
    site: true,
    request: async (ctx) => get('bo/infra/removeUtilisateur', { id: (await throwawayUser(ctx)).id }),
  },
  // A message addresses sites of the administrator's scope only (issue #32 C.2).
  'POST bo/infra/newMessage': {
    site: true,
    request: (ctx) => post('bo/infra/newMessage', {}, messageBody(ctx)),
  },
  'POST bo/infra/saveMessage': {
    site: true,
    request: async (ctx) => post('bo/infra/saveMessage', { id: await message(ctx) }, messageBody(ctx)),
  },
  'GET bo/infra/removeMessage': {
    site: true,
    request: async (ctx) => get('bo/infra/removeMessage', { id: await message(ctx) }),
  },
};

/** KPI/BI area (issue #19): read-only calls on the caller's chosen site. */
const BI_SAMPLES: Record<string, Sample> = {
  'GET bo/bi/explore': {
    site: true,
    request: (ctx) =>
      get('bo/bi/explore', {
        id: ctx.caller.id,
        sites: ctx.site,
        dateDebut: DAY,
        dateFin: DAY,
        measure: 'NET',
        dimension1: 'SITE',
      }),
  },
  'GET bo/bi/totalKPI': {
    site: true,
    request: (ctx) =>
      get('bo/bi/totalKPI', { id: ctx.caller.id, sites: ctx.site, dateDebut: DAY, dateFin: DAY }),
  },
  'GET bo/bi/tracker': {
    site: true,
    request: (ctx) => get('bo/bi/tracker', { id: ctx.caller.id, sites: ctx.site }),
  },
};

/** A local event on `site` for the events' samples (issue #19, contract/events.ts). */
function localEvent(site: number): object {
  return {
    typeEvenement: 'CONCERT',
    designation: unique('Concert'),
    canalVente: 'ALL',
    typeImpact: 'Positive',
    tauxImpact: 10,
    dateDebut: DAY,
    dateFin: DAY,
    perim_affects: [site],
  };
}

/** An event on `site` made by the administrator; its uuid. */
async function adminEvent(ctx: SampleContext): Promise<string> {
  const made = await call<{ uuid_evt: string }>(ctx, ctx.admin, {
    method: 'PUT',
    url: api('withCredentials/collab/addEvenementLocal'),
    payload: localEvent(ctx.site),
  });
  return made.uuid_evt;
}

const EVENT_ELSEWHERE = {
  status: 404,
  why: "an event on no site of the caller's scope is not told to exist (events/local-events.ts)",
};

/** Local events (issue #19; rights RAPPORTS, BI, EVENEMENTS). */
const EVENT_SAMPLES: Record<string, Sample> = {
  'GET withCredentials/collab/configurationEvenements': {
    site: true,
    request: (ctx) =>
      get('withCredentials/collab/configurationEvenements', {
        id: ctx.caller.id,
        sites: ctx.site,
        dateDebut: DAY,
        dateFin: DAY,
      }),
  },
  'PUT withCredentials/collab/addEvenementLocal': {
    site: true,
    request: (ctx) => ({
      method: 'PUT',
      url: api('withCredentials/collab/addEvenementLocal'),
      payload: localEvent(ctx.site),
    }),
  },
  'POST withCredentials/collab/changeEvenementLocal': {
    site: true,
    otherSite: EVENT_ELSEWHERE,
    request: async (ctx) =>
      post(
        'withCredentials/collab/changeEvenementLocal',
        {},
        {
          ...localEvent(ctx.site),
          uuid_evt: await adminEvent(ctx),
        },
      ),
  },
  'DELETE withCredentials/collab/deleteEvenementLocal': {
    site: true,
    otherSite: EVENT_ELSEWHERE,
    request: async (ctx) => ({
      method: 'DELETE',
      url: api('withCredentials/collab/deleteEvenementLocal', { evenement: await adminEvent(ctx) }),
    }),
  },
};

/** Every sample, by API_RIGHTS key. */
export const SAMPLES: Readonly<Record<string, Sample>> = {
  ...SESSION_SAMPLES,
  ...REPORT_SAMPLES,
  ...COUNTING_SAMPLES,
  ...ADMIN_SAMPLES,
  ...BI_SAMPLES,
  ...EVENT_SAMPLES,
  ...SUBSCRIPTION_SAMPLES,
  ...ALERT_SAMPLES,
  ...STARTUP_SAMPLES,
  ...PURGE_SAMPLES,
  ...DATABASE_SAMPLES,
  ...INTEGRATION_SAMPLES,
  ...FEC_RECURRENCE_SAMPLES,
  ...ATTENTION_SAMPLES,
};

/** The rights a matrix user "with the right" holds for `requirement`: all of `anyOf`, else none. */
export function rightsFor(requirement: Requirement): string[] {
  return typeof requirement === 'object' ? [...requirement.anyOf] : [];
}
