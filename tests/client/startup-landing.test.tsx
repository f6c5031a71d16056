/**
 * Where the login screen leads (issue #30): an administrator whose rights open the start-up, on
 * a server that says to lead there (`guider`: no demo chain, start-up not complete), lands on
 * /config/miseenroute and sees the wizard; once the server says no more, /home. Real route tree,
 * real HTTP server on loopback (tests/client/api-server.ts) answering as the Comptoir server does.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Root } from 'react-dom/client';
import type { StartupState } from '../../src/contract/startup.ts';
import { ADMIN, decodeBasic, json, type TestApi } from './api-server.ts';
import { type LaunchedApp, launchApp, startApiWithDom, stopApiWithDom } from './support.tsx';

const CHIEF = { ...ADMIN, login: 'admin', droits: ['CONFIGURATION', 'ACCES_BASE', 'RAPPORTS'] };
const PASSWORD = 'Secret-1234';
let api: TestApi;
let act: LaunchedApp['act'];
let container: HTMLDivElement;
let root: Root;
let state: StartupState;

beforeAll(async () => {
  api = await startApiWithDom();
  api.on('bo/connexion', (req, res) => {
    if (decodeBasic(req.headers.authorization) === `${CHIEF.login}:${PASSWORD}`) json(res, 200, CHIEF);
    else json(res, 401, { code: 'badCredentials', message: 'bad login or password' });
  });
  api.on('bo/miseEnRoute/etat', (_req, res) => json(res, 200, state));
  api.on('bo/logout', (_req, res) => json(res, 200, {}));
});
afterAll(() => stopApiWithDom(api));
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

async function signInThroughTheForm(): Promise<LaunchedApp['router']> {
  const app = await launchApp('/');
  ({ act, container, root } = app);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  for (const [name, value] of [
    ['login', CHIEF.login],
    ['password', PASSWORD],
  ] as const) {
    const el = container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    await act(async () => {
      setValue.call(el, value);
      el.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
    });
  }
  await act(async () => container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
  return app.router;
}

async function signOut() {
  await vi.waitFor(() => expect(container.querySelector('.app-header__logout')).not.toBeNull());
  await act(async () => container.querySelector<HTMLButtonElement>('.app-header__logout')!.click());
}

const fresh: StartupState = {
  complete: false,
  completeLe: null,
  guider: true,
  etapes: { societe: false, motDePasse: false, mail: false },
  societes: 0,
  sites: 0,
  mail: 'outbox',
  mailEnvoyeA: null,
};

describe('signing in on a new installation', () => {
  it('leads the administrator to the start-up wizard, opened on its first step', async () => {
    state = fresh;
    const router = await signInThroughTheForm();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/config/miseenroute'));
    await vi.waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Mise en route'));
    await vi.waitFor(() => expect(container.querySelector('h2')?.textContent).toBe('Société et sites'));
    expect(container.textContent).toContain('Aucune société, aucun site.');
    await signOut();
  });

  it('lands on /home once the server no longer leads there (start-up complete, or the demo chain)', async () => {
    state = { ...fresh, guider: false, complete: true, completeLe: '2026-12-07T10:00:00.000Z' };
    const router = await signInThroughTheForm();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    await signOut();
  });
});
