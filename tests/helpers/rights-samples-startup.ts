/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the guided start-up (issue #30,
 * decision record 0041): `GET bo/miseEnRoute` answers 2xx only once every step is done, so its
 * sample first does the caller's steps through the API (the matrix's chain has its companies and
 * sites; the caller "changes" their password to the same one, which ends only their other
 * sessions, and sends a test mail). A caller without ACCES_BASE is refused by the guard first.
 */
// PASSWORD is read when a sample runs, after both modules have loaded (they import each other).
import { PASSWORD, type Sample, type SampleContext, type SampleRequest } from './rights-samples.ts';

const NONE = 'none: the start-up is the installation’s, not a site’s';

function api(path: string, id: number): string {
  return `/api/${path}?id=${id}`;
}

/** Does the caller's own steps (password, test mail); a refusal there shows in the call itself. */
async function doSteps(ctx: SampleContext): Promise<void> {
  const { caller, t } = ctx;
  const password = PASSWORD;
  await t.app.inject({
    method: 'POST',
    url: api('bo/infra/saveUtilisateur', caller.id),
    headers: caller.headers,
    payload: { updatePassword: true, currentPassword: password, password, rePasswordKey: password },
  });
  await t.app.inject({
    method: 'POST',
    url: api('bo/miseEnRoute/mailTest', caller.id),
    headers: caller.headers,
    payload: { email: caller.email },
  });
}

export const STARTUP_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/miseEnRoute/etat': {
    site: NONE,
    request: (ctx) => ({ method: 'GET', url: api('bo/miseEnRoute/etat', ctx.caller.id) }),
  },
  'POST bo/miseEnRoute/mailTest': {
    site: NONE,
    request: (ctx) => ({
      method: 'POST',
      url: api('bo/miseEnRoute/mailTest', ctx.caller.id),
      payload: { email: ctx.caller.email },
    }),
  },
  'GET bo/miseEnRoute': {
    site: NONE,
    request: async (ctx): Promise<SampleRequest> => {
      await doSteps(ctx);
      return { method: 'GET', url: api('bo/miseEnRoute', ctx.caller.id) };
    },
  },
};
