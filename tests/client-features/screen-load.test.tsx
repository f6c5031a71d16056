// @vitest-environment happy-dom
/**
 * SPEC.md §9's limit on a screen's code (src/client/app/screen-load.tsx, issue #20 item 23): the
 * router's pending screen shows a progress bar, then, past the limit (120 s, or the page's
 * override), a message in the user's language with a retry; a failed chunk's error is told apart
 * from a screen that failed while drawing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import fr from '../../i18n/fr.json';
import {
  isScreenLoadError,
  SCREEN_LOAD_LIMIT_MS,
  ScreenPending,
  screenLoadLimitMs,
} from '../../src/client/app/screen-load.tsx';
import { renderScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

const global = globalThis as { __COMPTOIR_SCREEN_LOAD_LIMIT_MS__?: unknown };
let screen: Screen | undefined;
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
  delete global.__COMPTOIR_SCREEN_LOAD_LIMIT_MS__;
});

describe("a screen's code that is slow to arrive", () => {
  it('waits 120 seconds unless the page sets a positive override', () => {
    expect(SCREEN_LOAD_LIMIT_MS).toBe(120_000);
    expect(screenLoadLimitMs()).toBe(120_000);
    global.__COMPTOIR_SCREEN_LOAD_LIMIT_MS__ = 'soon';
    expect(screenLoadLimitMs()).toBe(120_000);
    global.__COMPTOIR_SCREEN_LOAD_LIMIT_MS__ = 50;
    expect(screenLoadLimitMs()).toBe(50);
  });

  it('shows a progress bar, then past the limit the message and a retry, in German', async () => {
    global.__COMPTOIR_SCREEN_LOAD_LIMIT_MS__ = 50;
    screen = await renderScreen(<ScreenPending />, 'de', de);
    expect(screen.container.querySelector('[role="progressbar"]')).not.toBeNull();
    expect(screen.container.querySelector('[role="alert"]')).toBeNull();
    await waitUntil(() => screen?.container.querySelector('[role="alert"]') != null, 2_000, 20);
    const alert = screen.container.querySelector('[role="alert"]');
    expect(alert?.querySelector('h1')?.textContent).toBe('Dieser Bildschirm konnte nicht geladen werden');
    expect(alert?.textContent).toContain('nicht rechtzeitig angekommen');
    expect(alert?.querySelector('button')?.textContent).toBe('Erneut versuchen');
  });

  it('still shows the progress bar before the limit', async () => {
    screen = await renderScreen(<ScreenPending />, 'fr', fr);
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.container.querySelector('[role="progressbar"]')?.textContent).toContain(
      "Chargement de l'écran…",
    );
  });

  it("tells a chunk that could not be fetched from a screen's own failure", () => {
    expect(
      isScreenLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/graphs-x.js')),
    ).toBe(true);
    expect(isScreenLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isScreenLoadError(new Error("Cannot read properties of undefined (reading 'rows')"))).toBe(false);
  });
});
