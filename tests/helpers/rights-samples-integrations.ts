/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the partner integrations (issue #29,
 * decision 0044): chain-wide administration (CONFIGURATION), not about a site. The integration a
 * run acts on is saved first by the caller, without any site, so a run delivers nothing.
 */
import { defaultLayout } from '../../src/server/integrations/partners.ts';
import type { Sample, SampleContext, SampleRequest } from './rights-samples.ts';

const NONE =
  'none: an integration is chain-wide administration, its sites are checked against the scope on save';

function api(path: string, params: Record<string, string | number>): string {
  return `/api/${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

const saveBody = {
  partenaire: 'ecash',
  actif: false,
  sites: [],
  regleId: null,
  destination: { type: 'folder', dossier: 'ecash' },
  mise: defaultLayout('ecash'),
};

/** The partner integration samples. */
export const INTEGRATION_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/integrations/config': {
    site: NONE,
    request: (ctx) => ({
      method: 'GET',
      url: api('bo/integrations/config', { id: ctx.caller.id, partenaire: 'ecash' }),
    }),
  },
  'POST bo/integrations/save': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: api('bo/integrations/save', { id: ctx.caller.id }),
      payload: saveBody,
    }),
  },
  'POST bo/integrations/preview': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: api('bo/integrations/preview', { id: ctx.caller.id }),
      payload: { partenaire: 'ecash', sites: [], mise: defaultLayout('ecash') },
    }),
  },
  'POST bo/integrations/runNow': {
    site: NONE,
    request: async (ctx: SampleContext): Promise<SampleRequest> => {
      await ctx.t.app.inject({
        method: 'POST',
        url: api('bo/integrations/save', { id: ctx.caller.id }),
        payload: saveBody,
        headers: ctx.caller.headers,
      });
      return {
        method: 'POST',
        url: api('bo/integrations/runNow', { id: ctx.caller.id }),
        payload: { partenaire: 'ecash', test: true },
      };
    },
  },
  'GET bo/integrations/runs': {
    site: NONE,
    request: (ctx) => ({
      method: 'GET',
      url: api('bo/integrations/runs', { id: ctx.caller.id, partenaire: 'ecash' }),
    }),
  },
};
