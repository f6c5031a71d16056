/**
 * Shared set-up of the client screen tests that render with react-dom (happy-dom, or the DOM of
 * counting-dom.ts): a site and a signed-in user as the server answers them, reference data put in
 * the query cache as loadReferenceData leaves it, a screen mounted under the app's providers, a
 * memory router, and the DOM gestures of a user (typing, submitting, waiting for the screen).
 *
 * Importing this module loads react-dom: a test that installs its own DOM (counting-dom.ts)
 * imports it after that. It also tells React that the tests drive it through `act`.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  type RouteComponent,
  RouterProvider,
} from '@tanstack/react-router';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import type { ConnexionAnswer, Site } from '../../src/contract/api.ts';
import { referenceQueries } from '../../src/client/selection/reference-queries.ts';
import { referenceLoad } from '../../src/client/selection/selection-state.ts';
import type { SiteTerminals } from '../../src/client/selection/site-scope.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session } from '../../src/client/lib/session.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export { testSite } from './sites.ts';

/**
 * Signs `gerant` (id 5, RAPPORTS, euros, French, no operator code) in, as bo/connexion answers,
 * with `fields` in place of those; returns the user now in `session.user`.
 */
export function signInAs(fields: Partial<ConnexionAnswer> = {}): ConnexionAnswer {
  const user: ConnexionAnswer = {
    id: 5,
    login: 'gerant',
    droits: ['RAPPORTS'],
    currency: 'EUR',
    role: '',
    token: 't',
    codeExploitant: null,
    language: 'fr',
    ...fields,
  };
  session.user = user;
  return user;
}

/**
 * Puts the signed-in user's reference data in the query cache as loadReferenceData leaves it:
 * `sites`, no groups, `terminals` (none by default), no sellers; and marks the load done.
 * Call it after signInAs: the query keys carry the user's id.
 */
export function seedReferenceData(sites: Site[], terminals: SiteTerminals[] = []): void {
  queryClient.setQueryData(referenceQueries.sites().queryKey, sites);
  queryClient.setQueryData(referenceQueries.groups().queryKey, []);
  queryClient.setQueryData(referenceQueries.terminals().queryKey, terminals);
  queryClient.setQueryData(referenceQueries.sellers().queryKey, []);
  Object.assign(referenceLoad, { loading: false, loaded: true, failedCode: null });
}

/** A screen mounted by renderScreen: the element it lives in (in document.body) and its root. */
export interface Screen {
  container: HTMLDivElement;
  root: Root;
}

/**
 * Mounts `node` in a new element of document.body, under the app's query client and an
 * IntlProvider of `locale` with `messages` (a catalogue of i18n/), inside act.
 */
export async function renderScreen(
  node: ReactNode,
  locale: string,
  messages: Record<string, string>,
): Promise<Screen> {
  const container = document.createElement('div');
  document.body.append(container);
  const screen = { container, root: createRoot(container) };
  await rerenderScreen(screen, node, locale, messages);
  return screen;
}

/** Renders `node` in place of what `screen` shows, under the same providers as renderScreen, inside act. */
export async function rerenderScreen(
  { root }: Screen,
  node: ReactNode,
  locale: string,
  messages: Record<string, string>,
): Promise<void> {
  await act(async () => {
    root.render(
      <QueryClientProvider client={queryClient}>
        <IntlProvider locale={locale} messages={messages}>
          {node}
        </IntlProvider>
      </QueryClientProvider>,
    );
  });
}

/**
 * Unmounts a screen of renderScreen and removes its element; empties the query cache too unless
 * `keepCache` (a file whose cache holds what a beforeAll loaded).
 */
export function unmountScreen({ container, root }: Screen, { keepCache = false } = {}): void {
  act(() => root.unmount());
  container.remove();
  if (!keepCache) queryClient.clear();
}

/**
 * A router on a memory history at `initialPath`, whose root route (an Outlet) has one child
 * route per entry of `pages`: path → component.
 */
export function memoryRouter(pages: Record<string, RouteComponent>, initialPath: string) {
  const rootRoute = createRootRoute({ component: Outlet });
  return createRouter({
    routeTree: rootRoute.addChildren(
      Object.entries(pages).map(([path, component]) =>
        createRoute({ getParentRoute: () => rootRoute, path, component }),
      ),
    ),
    history: createMemoryHistory({ initialEntries: [initialPath] }),
  });
}

/** A screen of renderRoutedScreen: its element and root, and the memory router it shows. */
export interface RoutedScreen extends Screen {
  router: ReturnType<typeof memoryRouter>;
}

/**
 * Mounts a {@link memoryRouter} of `pages` (path → component) at `initialPath` with
 * {@link renderScreen}, under an IntlProvider of `locale` with `messages`. Unmount it with
 * unmountScreen; `router.state.location` tells where the screen navigated to.
 */
export async function renderRoutedScreen(
  pages: Record<string, RouteComponent>,
  initialPath: string,
  locale: string,
  messages: Record<string, string>,
): Promise<RoutedScreen> {
  const router = memoryRouter(pages, initialPath);
  return { ...(await renderScreen(<RouterProvider router={router} />, locale, messages)), router };
}

/**
 * Lets the screen run (act, `stepMs` at a time) until `predicate` holds; throws
 * "condition not met in time" after `timeoutMs`.
 */
export async function waitUntil(predicate: () => boolean, timeoutMs: number, stepMs: number): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await act(async () => {
      await new Promise((r) => setTimeout(r, stepMs));
    });
  }
}

/** Types `value` into `input` the way React sees it (native value setter, then an input event), inside act. */
export async function typeInto(input: HTMLInputElement, value: string): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/**
 * The input of the label in `scope` whose text starts with `text` (dialogs live outside a
 * screen's element: document by default). Throws "no input labelled …" when there is none.
 */
export function inputLabelled(text: string, scope: ParentNode = document): HTMLInputElement {
  const label = [...scope.querySelectorAll('label')].find((l) => l.textContent?.startsWith(text));
  const id = label?.getAttribute('for');
  const input = id ? scope.querySelector(`#${CSS.escape(id)}`) : null;
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input labelled ${text}`);
  return input;
}

/** Submits the form `[data-testid=testId]` of the page, inside act. Throws "no form …" when there is none. */
export async function submitForm(testId: string): Promise<void> {
  const form = document.querySelector<HTMLFormElement>(`[data-testid="${testId}"]`);
  if (!form) throw new Error(`no form ${testId}`);
  await act(async () => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

/**
 * The button (or `role="button"` element) in `scope` whose accessible name — its `aria-label`,
 * else its trimmed text — is `name` (or matches it). Throws "no button named …" when there is none.
 */
export function buttonNamed(scope: ParentNode, name: string | RegExp): HTMLElement {
  const found = [...scope.querySelectorAll<HTMLElement>('button, [role="button"]')].find((b) => {
    const label = b.getAttribute('aria-label') ?? b.textContent?.trim() ?? '';
    return typeof name === 'string' ? label === name : name.test(label);
  });
  if (!found) throw new Error(`no button named ${String(name)}`);
  return found;
}

/** Clicks `element` inside act, so React has handled the press when it resolves. */
export async function press(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.click();
  });
}
