/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the archive-first empties (issue
 * #30). They run last in the matrix (their API_RIGHTS lines come last): the partial empty purges
 * a day without detail (an empty archive), the whole empty the caller's own scope (Paris).
 * Their archives go to the test configuration's DATA_DIR.
 */
import type { Sample } from './rights-samples.ts';

function api(path: string, params: Record<string, string | number>): string {
  return `/api/${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

export const PURGE_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/emptyPartialDataBase': {
    site: true,
    request: (ctx) => ({
      method: 'GET',
      url: api('bo/emptyPartialDataBase', {
        id: ctx.caller.id,
        Site: ctx.site,
        debut: '2001-01-01',
        fin: '2001-01-01',
        commentaire: 'matrice des droits',
      }),
    }),
  },
  'GET bo/emptyDataBase': {
    site: "none: empties the caller's own scope",
    request: (ctx) => ({
      method: 'GET',
      url: api('bo/emptyDataBase', { id: ctx.caller.id, commentaire: 'matrice des droits' }),
    }),
  },
  'GET bo/purgeRuns': {
    site: "none: the caller's own purge runs",
    request: (ctx) => ({ method: 'GET', url: api('bo/purgeRuns', { id: ctx.caller.id }) }),
  },
};
