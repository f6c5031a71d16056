/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the "Needs attention" call (issues
 * #29 and #30, decision 0045): any of ACCES_BASE, CONFIGURATION and FEC_CONFIGURATION, each kind
 * of line then filtered by its own right (tested in tests/server/attention.test.ts).
 */
import type { Sample } from './rights-samples.ts';

export const ATTENTION_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/attention': {
    site: "none: the chain's scheduled work; a FEC recurrence's company scope is tested in tests/server/attention.test.ts",
    request: (ctx) => ({ method: 'GET', url: `/api/bo/attention?id=${ctx.caller.id}` }),
  },
};
