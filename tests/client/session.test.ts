/**
 * The session survives a reload (SPEC.md §4: the user is saved locally with its token) and
 * sign-out forgets it and revokes the token. Real HTTP server, IndexedDB from fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { get, set } from 'idb-keyval';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, decodeBasic, json, startTestApi, type TestApi } from './api-server.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  vi.stubEnv('VITE_API_BASE', api.base);
  api.on('bo/connexion', (_req, res) => json(res, 200, ADMIN));
  api.on('bo/logout', (_req, res) => json(res, 200, {}));
});

afterAll(async () => {
  await api.close();
  vi.unstubAllEnvs();
});

/** A fresh copy of lib/session, as after a page reload. */
async function reloadSession() {
  vi.resetModules();
  return import('../../src/client/lib/session.ts');
}

describe('session', () => {
  it('is restored from IndexedDB after a reload, token included', async () => {
    const first = await reloadSession();
    await first.signIn(ADMIN.login, 'Secret-1234');

    const reloaded = await reloadSession();
    expect(reloaded.session.ready).toBe(false);
    await reloaded.restoreSession();
    expect(reloaded.session.ready).toBe(true);
    expect(reloaded.session.user).toEqual(ADMIN);
  });

  it('starts signed out when the stored record has another format, and drops it', async () => {
    const s = await reloadSession();
    await set(s.SESSION_KEY, { format: s.SESSION_FORMAT + 1, user: ADMIN });
    await s.restoreSession();
    expect(s.session.user).toBeNull();
    expect(s.session.ready).toBe(true);
    expect(await get(s.SESSION_KEY)).toBeUndefined();
  });

  it('is forgotten at sign-out, which revokes the token and runs every onSignOut callback', async () => {
    const s = await reloadSession();
    await s.signIn(ADMIN.login, 'Secret-1234');
    const calls: string[] = [];
    s.onSignOut((reason) => {
      calls.push(`cleared:${reason}`);
    });
    await s.signOut();
    expect(calls).toEqual(['cleared:user']);
    expect(s.session.user).toBeNull();
    expect(await get(s.SESSION_KEY)).toBeUndefined();
    await vi.waitFor(() => expect(api.requests.some((r) => r.path === 'bo/logout')).toBe(true));
    const logout = api.requests.find((r) => r.path === 'bo/logout')!;
    expect(decodeBasic(logout.headers.authorization)).toBe(`${ADMIN.login}:${ADMIN.token}`);

    const reloaded = await reloadSession();
    await reloaded.restoreSession();
    expect(reloaded.session.user).toBeNull();
  });
});
