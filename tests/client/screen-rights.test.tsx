/**
 * Screens outside the user's rights (issue #18, contract/rights.ts SCREEN_RIGHTS): the
 * administration screens `/config/*` need CONFIGURATION (`/config/bdd` and `/config/miseenroute`
 * ACCES_BASE), `/account` any signed-in user; a URL outside the user's rights shows the layout's "no access" screen, not the
 * not-found one, in the real route tree (routes/_authed/config/$.tsx for the /config screens that
 * have no route yet). Runs against a real loopback HTTP server (tests/client/api-server.ts).
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Root } from 'react-dom/client';
import { screenRequirement } from '../../src/contract/rights.ts';
import { ADMIN, json, type TestApi } from './api-server.ts';
import { type LaunchedApp, launchApp, startApiWithDom, stopApiWithDom } from './support.tsx';

/** SPEC.md §2's administration screens. */
const CONFIG_SCREENS = [
  'users',
  'sites',
  'profils',
  'groupes',
  'messages',
  'adoria',
  'easilys',
  'consolidations',
  'miseenroute',
  'bdd',
  'rules',
  'recurrences',
  'ecash',
];

let api: TestApi;
let container: HTMLDivElement | undefined;
let root: Root | undefined;
let act: LaunchedApp['act'];

beforeAll(async () => {
  api = await startApiWithDom();
  api.on('version', (_req, res) => json(res, 200, { version: '1.3.0' }));
});
afterAll(() => stopApiWithDom(api));
afterEach(() => {
  // The first test renders nothing.
  if (!root || !container) return;
  const mounted = root;
  act(() => mounted.unmount());
  container.remove();
  root = undefined;
  container = undefined;
});

/** Starts the app as main.tsx does, signed in as a user holding `rights`, at `path`. */
async function startSignedIn(rights: string[], path: string) {
  const app = await launchApp(path, async () => {
    const { set } = await import('idb-keyval');
    const { SESSION_FORMAT, SESSION_KEY } = await import('../../src/client/lib/session.ts');
    await set(SESSION_KEY, { format: SESSION_FORMAT, user: { ...ADMIN, droits: rights } });
  });
  ({ act, container, root } = app);
  return app;
}

const forbidden = () => container!.querySelector('.app-forbidden');
const notFound = () => container!.querySelector('.not-found');

describe('the rights of screens', () => {
  it('ask CONFIGURATION for every administration screen, ACCES_BASE for the database one, nothing for /account', () => {
    for (const screen of CONFIG_SCREENS) {
      expect(screenRequirement(`/config/${screen}`), screen).toEqual({
        // The database screen and the start-up (its calls are ACCES_BASE's: decision record 0041).
        anyOf: [screen === 'bdd' || screen === 'miseenroute' ? 'ACCES_BASE' : 'CONFIGURATION'],
      });
    }
    expect(screenRequirement('/account')).toBe('session');
    // Favourites' screen shares the prefix's letters, not its rights.
    expect(screenRequirement('/configFavoris')).toEqual({ anyOf: ['RAPPORTS', 'BI'] });
  });

  it('show "no access", not the not-found screen, to a user without CONFIGURATION on /config/users', async () => {
    await startSignedIn(['RAPPORTS', 'COMPTAGE'], '/config/users');
    await vi.waitFor(() => expect(forbidden()).not.toBeNull());
    expect(forbidden()!.getAttribute('role')).toBe('alert');
    expect(forbidden()!.textContent).toMatch(/\S/);
    expect(notFound()).toBeNull();
    // The layout is there (navigation, sign-out), without an entry for the administration.
    expect(container!.querySelector('.app-header')).not.toBeNull();
    expect(container!.querySelector('a[href^="/config/"]')).toBeNull();
  });

  it('show "no access" on /config/bdd to an administrator without ACCES_BASE', async () => {
    await startSignedIn(['CONFIGURATION'], '/config/bdd');
    await vi.waitFor(() => expect(forbidden()).not.toBeNull());
    expect(notFound()).toBeNull();
  });

  it('keep the not-found screen for a /config path that does not exist, to a user who holds the right', async () => {
    await startSignedIn(['CONFIGURATION'], '/config/nothing-here');
    await vi.waitFor(() => expect(notFound()).not.toBeNull());
    expect(forbidden()).toBeNull();
  });

  it('keep the not-found screen for any other unknown path', async () => {
    await startSignedIn(['RAPPORTS'], '/nothing-here');
    await vi.waitFor(() => expect(notFound()).not.toBeNull());
    expect(forbidden()).toBeNull();
  });
});
