/**
 * The reference-data load that follows sign-in (SPEC.md §4): sites, then groupings, then sellers
 * (skipped when the client type is TOTAL), then terminals — one after the other, in that order,
 * stopping at the first failure. A 401 on any step signs the user out (lib/http does it for every
 * call); a missing user (NoConnectedUser, SPEC.md §8) signs out too. `referenceLoad.loading` is
 * true around the load (SPEC.md §4 "a loading flag").
 */
import { appState, ensureServerInfo } from '../lib/app-state.ts';
import { ApiFailure } from '../lib/http.ts';
import { notifyFailure } from '../lib/notifications.ts';
import { queryClient } from '../lib/query-client.ts';
import { onSignOut, session, signOut } from '../lib/session.ts';
import { referenceQueries } from './reference-queries.ts';
import { referenceLoad, resetReferenceLoad, resetSelection } from './selection-state.ts';

let running: Promise<void> | null = null;

async function run(): Promise<void> {
  referenceLoad.loading = true;
  referenceLoad.failedCode = null;
  try {
    if (!session.user) throw new ApiFailure('NoConnectedUser', null);
    await queryClient.fetchQuery(referenceQueries.sites());
    await queryClient.fetchQuery(referenceQueries.groups());
    await ensureServerInfo();
    if (appState.client !== 'TOTAL') await queryClient.fetchQuery(referenceQueries.sellers());
    await queryClient.fetchQuery(referenceQueries.terminals());
    referenceLoad.loaded = true;
  } catch (e) {
    referenceLoad.failedCode = e instanceof ApiFailure ? e.code : 'unexpected';
    if (e instanceof ApiFailure && e.code === 'NoConnectedUser') await signOut('expired');
    notifyFailure(e);
  } finally {
    referenceLoad.loading = false;
  }
}

/**
 * Loads the signed-in user's reference data in SPEC.md §4's order into the query cache. Never
 * throws: a failure is shown as a translated notification and kept in `referenceLoad.failedCode`.
 * Calls made while a load runs share it.
 */
export function loadReferenceData(): Promise<void> {
  running ??= run().finally(() => {
    running = null;
  });
  return running;
}

// SPEC.md §4: logout clears the report state, sites and groupings (the query cache itself is
// emptied by lib/query-client).
onSignOut(() => {
  resetSelection();
  resetReferenceLoad();
});
