/**
 * The login screen in the real route tree, against a real HTTP server (SPEC.md §2, §4, §5, §8):
 * both fields required, badCredentials shown while what was typed stays, success opens /home,
 * and a stored user skips the login.
 *
 * The DOM is happy-dom's, but fetch stays Node's own: happy-dom's fetch loses the body of error
 * answers (ky then cannot read `{ code }`), which a real browser does not.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Root } from 'react-dom/client';
import { ADMIN, decodeBasic, json, type TestApi } from './api-server.ts';
import { type LaunchedApp, launchApp, startApiWithDom, stopApiWithDom } from './support.tsx';

let api: TestApi;
// React and react-dom are loaded by launchApp, after the DOM exists.
let act: LaunchedApp['act'];
let container: HTMLDivElement;
let root: Root;

beforeAll(async () => {
  // A DOM on the API's origin, as in production; Node's fetch, Request, Response… are kept.
  api = await startApiWithDom();
  api.on('bo/connexion', (req, res) => {
    if (decodeBasic(req.headers.authorization) === `${ADMIN.login}:Secret-1234`) json(res, 200, ADMIN);
    else json(res, 401, { code: 'badCredentials', message: 'bad login or password' });
  });
});
afterAll(() => stopApiWithDom(api));
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

/** Starts the app as main.tsx does (stored session and language first), on a memory history. */
async function startApp(path: string) {
  const app = await launchApp(path);
  ({ act, container, root } = app);
  return app.router;
}

function input(name: string): HTMLInputElement {
  return container.querySelector(`input[name="${name}"]`)!;
}

async function type(name: string, value: string) {
  const el = input(name);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(el, value);
    el.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
}

describe('the login screen', () => {
  it('requires both fields before calling the server', async () => {
    await startApp('/');
    api.requests.length = 0;
    await submit();
    const errors = [...container.querySelectorAll('.ui-field__error')].map((e) => e.textContent);
    expect(errors).toEqual(['Saisissez votre identifiant.', 'Saisissez votre mot de passe.']);
    expect(input('login').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests.filter((r) => r.path === 'bo/connexion')).toHaveLength(0);
  });

  it('shows badCredentials and keeps what was typed, then opens /home on success', async () => {
    const router = await startApp('/index');
    await type('login', ADMIN.login);
    await type('password', 'wrong');
    await submit();
    await vi.waitFor(() =>
      expect(container.querySelector('[role="alert"]')?.textContent).toContain(
        'Identifiant ou mot de passe incorrect.',
      ),
    );
    expect(input('login').value).toBe(ADMIN.login);
    expect(input('password').value).toBe('wrong');

    await type('password', 'Secret-1234');
    await submit();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    // The route change cleared the error.
    expect(container.querySelector('[role="alert"]')?.textContent ?? '').not.toContain('incorrect');
    await vi.waitFor(() => expect(container.querySelector('.app-header')).not.toBeNull());
  });

  it('is skipped when a user is stored, and comes back at logout', async () => {
    // The previous test signed in and stored the user.
    const router = await startApp('/');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    await vi.waitFor(() => expect(container.querySelector('.app-header__logout')).not.toBeNull());
    await act(async () => container.querySelector<HTMLButtonElement>('.app-header__logout')!.click());
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await vi.waitFor(() => expect(input('login')).not.toBeNull());
  });
});
