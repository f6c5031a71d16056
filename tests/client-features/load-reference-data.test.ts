/**
 * The reference-data load against a real HTTP server started here: the server records the order
 * of the calls and their `id`, and can answer 401 on one step to show that the user is signed out.
 * Runs in Node's environment with Node's own fetch (happy-dom 21's fetch closes a response
 * stream twice on small JSON bodies); IndexedDB comes from fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testSite } from './sites.ts';

interface Call {
  path: string;
  id: string | null;
}

const calls: Call[] = [];
let failOn: string | null = null;
/** What GET distribution answers (SPEC.md §4: 'TOTAL' skips the sellers). */
let distribution = 'Comptoir';

const user = {
  id: 42,
  login: 'gerant',
  droits: ['RAPPORTS'],
  currency: 'EUR',
  role: '',
  token: 'secret-token',
  codeExploitant: null,
  language: 'fr',
};
const site = (restaurantId: number, libelle: string) => testSite(restaurantId, libelle);
const answers: Record<string, unknown> = {
  '/api/version': { version: '1.3.0' },
  '/api/bo/connexion': user,
  '/api/bo/getSites': [site(1, 'Lyon'), site(2, 'NON REMPLI')],
  '/api/bo/infra/getRegroupements': [],
  '/api/bo/getVendeurs': {
    1: { site: { restaurantId: 1, libelle: 'Lyon' }, vendeurs: [{ code: 'V1', nom: 'Zoé' }] },
  },
  '/api/bo/getCaisses': {
    1: { site: { restaurantId: 1, libelle: 'Lyon' }, caisses: [{ id: 1, libelle: 'Caisse 1' }] },
  },
};

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/api/bo/connexion' && url.pathname !== '/api/bo/logout') {
    calls.push({ path: url.pathname.replace('/api/', ''), id: url.searchParams.get('id') });
  }
  const expected = `Basic ${Buffer.from(`${user.login}:${user.token}`).toString('base64')}`;
  const authorised = url.pathname === '/api/bo/connexion' || req.headers.authorization === expected;
  if (!authorised || url.pathname === `/api/${failOn}`) {
    res
      .writeHead(401, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ code: 'Unauthorized', message: 'no' }));
    return;
  }
  const body = url.pathname === '/api/distribution' ? { nom: distribution } : answers[url.pathname];
  if (body === undefined) {
    res
      .writeHead(404, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ code: 'NotFound', message: 'no' }));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
});

// Loaded after the server listens: lib/http reads the API base when it is first imported.
let mod: {
  loadReferenceData: typeof import('../../src/client/selection/load-reference-data.ts').loadReferenceData;
  session: typeof import('../../src/client/lib/session.ts').session;
  signIn: typeof import('../../src/client/lib/session.ts').signIn;
  appState: typeof import('../../src/client/lib/app-state.ts').appState;
  queryClient: typeof import('../../src/client/lib/query-client.ts').queryClient;
  referenceQueries: typeof import('../../src/client/selection/reference-queries.ts').referenceQueries;
  selection: typeof import('../../src/client/selection/selection-state.ts').selection;
  referenceLoad: typeof import('../../src/client/selection/selection-state.ts').referenceLoad;
  notifications: typeof import('../../src/client/lib/notifications.ts').notifications;
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  vi.stubEnv('VITE_API_BASE', `http://127.0.0.1:${port}/api/`);
  const load = await import('../../src/client/selection/load-reference-data.ts');
  const sessionModule = await import('../../src/client/lib/session.ts');
  const state = await import('../../src/client/selection/selection-state.ts');
  mod = {
    loadReferenceData: load.loadReferenceData,
    session: sessionModule.session,
    signIn: sessionModule.signIn,
    appState: (await import('../../src/client/lib/app-state.ts')).appState,
    queryClient: (await import('../../src/client/lib/query-client.ts')).queryClient,
    referenceQueries: (await import('../../src/client/selection/reference-queries.ts')).referenceQueries,
    selection: state.selection,
    referenceLoad: state.referenceLoad,
    notifications: (await import('../../src/client/lib/notifications.ts')).notifications,
  };
});

afterEach(() => {
  calls.length = 0;
  failOn = null;
  distribution = 'Comptoir';
  mod.appState.client = null;
  mod.appState.serverVersion = null;
  mod.queryClient.clear();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('reference data after sign-in (SPEC.md §4)', () => {
  it('loads sites, then groupings, then sellers, then terminals, each with the user id', async () => {
    await mod.signIn('gerant', 'Motdepasse1!');
    await mod.loadReferenceData();
    expect(calls).toEqual([
      { path: 'bo/getSites', id: '42' },
      { path: 'bo/infra/getRegroupements', id: '42' },
      // the distribution name decides whether sellers load, so it is known before that step
      { path: 'version', id: null },
      { path: 'distribution', id: null },
      { path: 'bo/getVendeurs', id: '42' },
      { path: 'bo/getCaisses', id: '42' },
    ]);
    expect(mod.referenceLoad).toMatchObject({ loading: false, loaded: true, failedCode: null });
    expect(mod.queryClient.getQueryData(mod.referenceQueries.terminals().queryKey)).toEqual([
      { restaurantId: 1, libelle: 'Lyon', caisses: [{ id: 1, libelle: 'Caisse 1' }] },
    ]);
  });

  it('skips the sellers when the server says the client type is TOTAL', async () => {
    await mod.signIn('gerant', 'Motdepasse1!');
    distribution = 'TOTAL';
    await mod.loadReferenceData();
    expect(mod.appState.client).toBe('TOTAL');
    expect(calls.map((c) => c.path)).toEqual([
      'bo/getSites',
      'bo/infra/getRegroupements',
      'version',
      'distribution',
      'bo/getCaisses',
    ]);
  });

  it('signs out, stops loading and clears the selection when a step answers 401', async () => {
    await mod.signIn('gerant', 'Motdepasse1!');
    mod.selection.restaurantIds = [1];
    mod.selection.report.format = 'CSV';
    failOn = 'bo/infra/getRegroupements';
    await mod.loadReferenceData();
    expect(calls.map((c) => c.path)).toEqual(['bo/getSites', 'bo/infra/getRegroupements']);
    await vi.waitFor(() => expect(mod.session.user).toBeNull());
    await vi.waitFor(() => expect(mod.selection.restaurantIds).toEqual([]));
    expect(mod.selection.report.format).toBe('PDF');
    expect(mod.referenceLoad.loaded).toBe(false);
  });

  it('signs out without calling the server when nobody is signed in', async () => {
    expect(mod.session.user).toBeNull();
    await mod.loadReferenceData();
    expect(calls).toEqual([]);
    expect(mod.notifications.items.map((n) => n.code)).toContain('NoConnectedUser');
  });
});
