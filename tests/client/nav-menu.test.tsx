/**
 * The signed-in navigation in the real route tree (DESIGN.md §8, SPEC.md §2 and §6): the phone
 * "Menu" sheet lists exactly the screens the user's rights open, marks the current one, closes on
 * navigation and on Escape, and carries the language choice and sign-out; the wide bar lists the
 * same entries. Runs against a real loopback HTTP server (tests/client/api-server.ts).
 *
 * happy-dom applies no stylesheet, so both presentations are in the DOM here; which one shows is
 * CSS's business (checked in a browser, not here).
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Root } from 'react-dom/client';
import { satisfies, screenRequirement } from '../../src/contract/rights.ts';
import { navGroup } from '../../src/client/app/nav-groups.ts';
import { ADMIN, json, type TestApi } from './api-server.ts';
import { type LaunchedApp, launchApp, startApiWithDom, stopApiWithDom } from './support.tsx';

let api: TestApi;
// React and react-dom are loaded by launchApp, after the DOM exists.
let act: LaunchedApp['act'];
let container: HTMLDivElement;
let root: Root;

beforeAll(async () => {
  api = await startApiWithDom();
  api.on('version', (_req, res) => json(res, 200, { version: '1.3.0' }));
});
afterAll(() => stopApiWithDom(api));
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

/** Starts the app as main.tsx does, signed in as a user holding `rights`, at `path`. */
async function startSignedIn(rights: string[], path: string) {
  const app = await launchApp(path, async () => {
    const { set } = await import('idb-keyval');
    const { SESSION_FORMAT, SESSION_KEY } = await import('../../src/client/lib/session.ts');
    await set(SESSION_KEY, { format: SESSION_FORMAT, user: { ...ADMIN, droits: rights } });
  });
  ({ act, container, root } = app);
  const { NAV } = await import('../../src/client/routes/-components/authed-layout.tsx');
  await vi.waitFor(() => expect(menuButton()).not.toBeNull());
  return { router: app.router, nav: NAV.map((n) => String(n.to)) };
}

function menuButton(): HTMLButtonElement | null {
  return container.querySelector<HTMLButtonElement>('.app-menu__button');
}

/** The open sheet (react-aria renders it in a portal on document.body), or null. */
function sheet(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[role="dialog"]');
}

async function openMenu(): Promise<HTMLElement> {
  await act(async () => menuButton()!.click());
  await vi.waitFor(() => expect(sheet()).not.toBeNull());
  return sheet()!;
}

const hrefs = (scope: ParentNode, selector: string) =>
  [...scope.querySelectorAll<HTMLAnchorElement>(selector)].map((a) => a.getAttribute('href'));

const current = (scope: ParentNode) =>
  [...scope.querySelectorAll('a[aria-current="page"]')].map((a) => a.getAttribute('href'));

describe('the navigation menu', () => {
  it('lists exactly the screens a reports-only user may open, marks the current one, and holds language and sign-out', async () => {
    const { nav } = await startSignedIn(['RAPPORTS'], '/home');
    const button = menuButton()!;
    expect(button.textContent).toBe('Menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    const dialog = await openMenu();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const title = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '');
    expect(title?.textContent).toBe('Menu');

    const listed = hrefs(dialog, '.app-menu__link');
    expect(listed).toEqual(expect.arrayContaining(['/home', '/rapports', '/configFavoris']));
    expect(listed).not.toContain('/tickets');
    // Every NAV entry whose screen the rights open, and nothing else, each once; the sheet adds
    // My account (wide screens reach it from the footer).
    const allowed = nav.filter((to) => satisfies(screenRequirement(to), ['RAPPORTS']));
    expect([...listed].sort()).toEqual([...allowed, '/account'].sort());
    expect(current(dialog)).toEqual(['/home']);
    // The wide bar (screens, and settings in the header's first row) shows the NAV entries; the
    // steering screens (group insights) fold into one button there (its popover tested in e2e).
    const folded = allowed.filter((to) => navGroup({ to }) === 'insights');
    expect(folded).toEqual(['/evenements']);
    expect([...hrefs(container, 'a.app-nav__link')].sort()).toEqual(
      allowed.filter((to) => !folded.includes(to)).sort(),
    );
    expect(container.querySelector('.app-nav__fold')?.textContent).toBe('Pilotage ▾');
    expect(hrefs(container, '.app-footer__account')).toEqual(['/account']);

    expect(dialog.querySelectorAll('.language-choice__option')).toHaveLength(3);
    expect(dialog.querySelector('.app-menu__logout')?.textContent).toBe('Se déconnecter');
    expect(dialog.querySelector('.app-menu__signed-in')?.textContent).toBe(
      `Connecté en tant que ${ADMIN.login}`,
    );
    const close = dialog.querySelector('.app-menu__close');
    expect(close?.getAttribute('aria-label')).toBe('Fermer le menu');
  });

  it('closes on the chosen entry, opens that screen, and marks it next time; Escape closes it too', async () => {
    const { router } = await startSignedIn(['RAPPORTS'], '/home');
    const dialog = await openMenu();
    const reports = dialog.querySelector<HTMLAnchorElement>('.app-menu__link[href="/rapports"]')!;
    expect(reports.textContent).toBe('Rapports');
    await act(async () => reports.click());
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/rapports'));
    await vi.waitFor(() => expect(sheet()).toBeNull());
    expect(menuButton()!.getAttribute('aria-expanded')).toBe('false');

    const again = await openMenu();
    expect(current(again)).toEqual(['/rapports']);
    await act(async () => {
      const target = document.activeElement ?? again;
      target.dispatchEvent(
        new window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
      );
    });
    await vi.waitFor(() => expect(sheet()).toBeNull());
    expect(router.state.location.pathname).toBe('/rapports');
  });

  it('shows a tickets-only user the tickets screens and not the reports ones', async () => {
    const { nav } = await startSignedIn(['TICKETS'], '/home');
    const listed = hrefs(await openMenu(), '.app-menu__link');
    expect(listed).toContain('/home');
    expect(listed).not.toContain('/rapports');
    expect(listed).not.toContain('/configFavoris');
    expect([...listed].sort()).toEqual(
      [...nav.filter((to) => satisfies(screenRequirement(to), ['TICKETS'])), '/account'].sort(),
    );
  });
});

describe('the navigation groups', () => {
  it('file each screen under its section by path, and honour an explicit group', () => {
    expect(navGroup({ to: '/home' })).toBe('main');
    expect(navGroup({ to: '/rapports' })).toBe('reports');
    expect(navGroup({ to: '/tickets' })).toBe('reports');
    expect(navGroup({ to: '/analyses/comptageCaisses' })).toBe('counting');
    expect(navGroup({ to: '/analyses/coffre' })).toBe('counting');
    expect(navGroup({ to: '/recus' })).toBe('counting');
    expect(navGroup({ to: '/config/users' })).toBe('settings');
    expect(navGroup({ to: '/sync' })).toBe('settings');
    for (const to of ['/evenements', '/bi', '/totalKPI', '/tracker', '/anomalies'])
      expect(navGroup({ to }), to).toBe('insights');
    // A prefix matches whole path segments only.
    expect(navGroup({ to: '/configFavoris' })).toBe('reports');
    expect(navGroup({ to: '/somewhere-new' })).toBe('main');
    expect(navGroup({ to: '/home', group: 'settings' })).toBe('settings');
  });
});
