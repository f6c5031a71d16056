/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of alerts (issue #28 "Alerts"): the
 * alert a call acts on is made for its case by the caller, on their own site (a caller without
 * the right cannot make any: the guard refuses before the made-up id matters).
 */
import type { Caller, Sample, SampleContext, SampleRequest } from './rights-samples.ts';

const NONE = "none: the caller's own alerts";

function api(path: string, params: Record<string, string | number>): string {
  return `/api/${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

/** Sends `payload` to `path` as `as`; the JSON's `id`, or 1 when refused. */
async function madeId(ctx: SampleContext, as: Caller, path: string, payload: object): Promise<number> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: api(path, { id: as.id }),
    payload,
    headers: as.headers,
  });
  return res.statusCode === 200 ? res.json<{ id: number }>().id : 1;
}

/** A countMissing alert of `as` on `site` (a rule and a recipient of theirs with it). */
async function alertOf(ctx: SampleContext, as: Caller, site: number): Promise<number> {
  const regleId = await madeId(ctx, as, 'bo/recurrences/regles/save', {
    libelle: 'r',
    type: 'DAILY',
    heure: 6,
  });
  const destinataireId = await madeId(ctx, as, 'bo/recurrences/destinataires/save', {
    email: as.email,
    langue: 'fr',
  });
  return madeId(ctx, as, 'bo/recurrences/alertes/save', {
    libelle: 'a',
    type: 'countMissing',
    sites: [site],
    regleId,
    destinataires: [destinataireId],
  });
}

const onOwnAlert = (path: string) =>
  ({
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => ({
      method: 'POST',
      url: api(path, { id: ctx.caller.id, alerteId: await alertOf(ctx, ctx.caller, ctx.ownSite) }),
    }),
  }) satisfies Sample;

export const ALERT_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/recurrences/alertes': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: api('bo/recurrences/alertes', { id: ctx.caller.id }) }),
  },
  'POST bo/recurrences/alertes/save': {
    site: "none: the caller's own site",
    request: async (ctx) => {
      const regleId = await madeId(ctx, ctx.caller, 'bo/recurrences/regles/save', {
        libelle: 'r',
        type: 'DAILY',
        heure: 6,
      });
      const destinataireId = await madeId(ctx, ctx.caller, 'bo/recurrences/destinataires/save', {
        email: 'x@example.com',
      });
      return {
        method: 'POST',
        url: api('bo/recurrences/alertes/save', { id: ctx.caller.id }),
        payload: {
          libelle: 'x',
          type: 'countMissing',
          sites: [ctx.ownSite],
          regleId,
          destinataires: [destinataireId],
        },
      };
    },
  },
  'POST bo/recurrences/alertes/remove': onOwnAlert('bo/recurrences/alertes/remove'),
  'POST bo/recurrences/alertes/check': onOwnAlert('bo/recurrences/alertes/check'),
};
