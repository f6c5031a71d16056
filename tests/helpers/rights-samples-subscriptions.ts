/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the recurring report e-mails
 * (issue #28): the rows a call acts on are made for its case, by the caller when they own them
 * (a caller without the right cannot make any: the guard refuses before the made-up id matters),
 * or by the administrator for the public links, whose signed token is the authority.
 */
import { linkKey, signLink } from '../../src/server/subscriptions/signed-links.ts';
import type { Caller, Sample, SampleContext, SampleRequest } from './rights-samples.ts';

const NONE = "none: the caller's own rows";

function api(path: string, params: Record<string, string | number>): string {
  return `/api/${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

/** Sends `request` as `as`; the JSON's `id`, or 1 when refused (a caller without the right). */
async function madeId(ctx: SampleContext, as: Caller, path: string, payload: object): Promise<number> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: api(path, { id: as.id }),
    payload,
    headers: as.headers,
  });
  return res.statusCode === 200 ? res.json<{ id: number }>().id : 1;
}

/** A rule, a recipient and a subscription of `as` on `site`, yesterday's sales (no data: nothing to mail). */
async function subscriptionOf(ctx: SampleContext, as: Caller, site: number, periode = 'D-1') {
  const regleId = await madeId(ctx, as, 'bo/recurrences/regles/save', {
    libelle: 'r',
    type: 'DAILY',
    heure: 6,
  });
  const destinataireId = await madeId(ctx, as, 'bo/recurrences/destinataires/save', {
    email: as.email,
    langue: 'fr',
  });
  const abonnementId = await madeId(ctx, as, 'bo/recurrences/abonnements/save', {
    libelle: 's',
    rapport: { lSites: [site], periode },
    formats: ['CSV'],
    regleId,
    destinataires: [destinataireId],
  });
  return { regleId, destinataireId, abonnementId };
}

const own = (
  path: string,
  params: (ctx: SampleContext) => Promise<Record<string, number>>,
  method: 'GET' | 'POST' = 'GET',
) =>
  ({
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => ({
      method,
      url: api(path, { id: ctx.caller.id, ...(await params(ctx)) }),
    }),
  }) satisfies Sample;

/** The unsubscribe token of a subscription of the administrator's. */
async function unsubscribeToken(ctx: SampleContext): Promise<string> {
  const made = await subscriptionOf(ctx, ctx.admin, ctx.site);
  return signLink(await linkKey(ctx.t.database.pool), {
    p: 'unsubscribe',
    s: made.abonnementId,
    r: made.destinataireId,
  });
}

export const SUBSCRIPTION_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/recurrences/regles': own('bo/recurrences/regles', async () => ({})),
  'GET bo/recurrences/destinataires': own('bo/recurrences/destinataires', async () => ({})),
  'GET bo/recurrences/abonnements': own('bo/recurrences/abonnements', async () => ({})),
  'POST bo/recurrences/regles/save': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: api('bo/recurrences/regles/save', { id: ctx.caller.id }),
      payload: { libelle: 'Lundi', type: 'WEEKLY', jours: [1], heure: 7 },
    }),
  },
  'POST bo/recurrences/destinataires/save': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: api('bo/recurrences/destinataires/save', { id: ctx.caller.id }),
      payload: { email: 'compta@example.com', langue: 'de' },
    }),
  },
  'POST bo/recurrences/abonnements/save': {
    site: "none: the caller's own site",
    request: async (ctx) => {
      const { regleId, destinataireId } = await subscriptionOf(ctx, ctx.caller, ctx.ownSite);
      return {
        method: 'POST',
        url: api('bo/recurrences/abonnements/save', { id: ctx.caller.id }),
        payload: {
          libelle: 'x',
          rapport: { lSites: [ctx.ownSite] },
          formats: ['PDF'],
          regleId,
          destinataires: [destinataireId],
        },
      };
    },
  },
  'POST bo/recurrences/regles/remove': own(
    'bo/recurrences/regles/remove',
    async (ctx) => ({
      regleId: await madeId(ctx, ctx.caller, 'bo/recurrences/regles/save', {
        libelle: 'r',
        type: 'DAILY',
        heure: 6,
      }),
    }),
    'POST',
  ),
  'POST bo/recurrences/destinataires/remove': own(
    'bo/recurrences/destinataires/remove',
    async (ctx) => ({
      destinataireId: await madeId(ctx, ctx.caller, 'bo/recurrences/destinataires/save', {
        email: 'x@example.com',
      }),
    }),
    'POST',
  ),
  'POST bo/recurrences/abonnements/remove': own(
    'bo/recurrences/abonnements/remove',
    async (ctx) => ({ abonnementId: (await subscriptionOf(ctx, ctx.caller, ctx.ownSite)).abonnementId }),
    'POST',
  ),
  'POST bo/recurrences/abonnements/send': own(
    'bo/recurrences/abonnements/send',
    async (ctx) => ({ abonnementId: (await subscriptionOf(ctx, ctx.caller, ctx.ownSite)).abonnementId }),
    'POST',
  ),
  'GET bo/recurrences/abonnements/preview': own('bo/recurrences/abonnements/preview', async (ctx) => ({
    abonnementId: (await subscriptionOf(ctx, ctx.caller, ctx.ownSite)).abonnementId,
  })),
  'GET bo/recurrences/abonnements/envois': own('bo/recurrences/abonnements/envois', async (ctx) => ({
    abonnementId: (await subscriptionOf(ctx, ctx.caller, ctx.ownSite)).abonnementId,
  })),
  'GET recurrences/desabonnement': {
    site: 'none: the signed token names the subscription',
    request: async (ctx) => ({
      method: 'GET',
      url: api('recurrences/desabonnement', { token: await unsubscribeToken(ctx) }),
    }),
  },
  'POST recurrences/desabonnement': {
    site: 'none: the signed token names the subscription',
    request: async (ctx) => ({
      method: 'POST',
      url: api('recurrences/desabonnement', { token: await unsubscribeToken(ctx) }),
    }),
  },
  'GET recurrences/fichier': {
    site: 'none: the signed token names the subscription',
    request: async (ctx) => {
      const made = await subscriptionOf(ctx, ctx.admin, ctx.site);
      const token = signLink(await linkKey(ctx.t.database.pool), {
        p: 'download',
        s: made.abonnementId,
        t: '2026-03-03T05:00:00.000Z',
        f: 'CSV',
        l: 'fr',
        e: Date.now() + 3_600_000,
      });
      return { method: 'GET', url: api('recurrences/fichier', { token }) };
    },
  },
};
