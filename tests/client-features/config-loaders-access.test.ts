/**
 * The loaders of the administration screens and /configFavoris against the real server
 * (admin-screens-api.ts): for a user who may not open the screen (the layout shows "no access"),
 * a loader asks the server nothing, so no 403 reaches the console (issue #32 D.14: the no-access
 * /config/messages called getMessages and getProfils); for a user who may, the same loaders start
 * their reads and the server answers them.
 */
import { closeAll, PASSWORD, t } from './admin-screens-api.ts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { Route as FavouritesRoute } from '../../src/client/routes/_authed/configFavoris.tsx';
import { Route as MessagesRoute } from '../../src/client/routes/_authed/config.messages.tsx';
import { Route as ProfilesRoute } from '../../src/client/routes/_authed/config.profils.tsx';
import { Route as UsersRoute } from '../../src/client/routes/_authed/config.users.tsx';
import { waitUntil } from './support.tsx';

const LOADERS = { MessagesRoute, ProfilesRoute, UsersRoute, FavouritesRoute };

/** Runs every route's loader as the router would on arrival (they read no argument). */
function runLoaders(): void {
  for (const [name, route] of Object.entries(LOADERS)) {
    const loader = route.options.loader;
    if (typeof loader !== 'function') throw new Error(`${name} has no loader`);
    void loader({} as never);
  }
}

/** The query keys in the cache, with how their reads ended. */
function cached(): { key: string; status: string }[] {
  return queryClient
    .getQueryCache()
    .getAll()
    .map((q) => ({ key: JSON.stringify(q.queryKey), status: q.state.status }));
}

/** A reader (RAPPORTS, every site): /configFavoris is theirs, administration is not. */
await t.createUser({ login: 'lecteur', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });

afterAll(() => closeAll());
afterEach(async () => {
  await waitUntil(() => queryClient.isFetching() === 0, 8_000, 25);
  await signOut();
  queryClient.clear();
});

describe('administration loaders', () => {
  it('ask the server nothing for a user without CONFIGURATION, RAPPORTS or BI', async () => {
    await signIn('compteur', PASSWORD);
    queryClient.clear();
    runLoaders();
    expect(queryClient.isFetching()).toBe(0);
    expect(cached()).toEqual([]);
  });

  it('start the administration reads for an administrator, and each is answered', async () => {
    await signIn('admin', PASSWORD);
    queryClient.clear();
    runLoaders();
    await waitUntil(() => queryClient.isFetching() === 0, 8_000, 25);
    const reads = cached();
    // Messages and their profiles; profiles, rights and companies; users (the keys repeat).
    expect(reads.map((r) => r.key).join(' ')).toContain('messages');
    expect(reads.map((r) => r.key).join(' ')).toContain('usersAdmin');
    expect(reads.filter((r) => r.status !== 'success')).toEqual([]);
    expect(reads.filter((r) => r.key.includes('favourites'))).toEqual([]);
  });

  it('start the favourites reads for a reader, and nothing of the administration', async () => {
    await signIn('lecteur', PASSWORD);
    queryClient.clear();
    runLoaders();
    await waitUntil(() => queryClient.isFetching() === 0, 8_000, 25);
    const reads = cached();
    expect(reads.map((r) => r.key)).toEqual(
      expect.arrayContaining([expect.stringContaining('favourites'), expect.stringContaining('metrics')]),
    );
    expect(reads.filter((r) => r.status !== 'success')).toEqual([]);
    expect(reads.filter((r) => /messages|usersAdmin/.test(r.key))).toEqual([]);
  });
});
