/**
 * The "Needs attention" card of /home (decision 0045) against the real server
 * (home-attention-api.ts), rendered with react-dom in happy-dom under a memory router: the
 * administrator sees the failed automatic backup with its reason in fr, en and de, linking to
 * /config/bdd; a user whose rights open none of its kinds sees no card and asks nothing.
 */
import { apiBase, dataDir, PASSWORD, t } from './home-attention-api.ts';
import { rm } from 'node:fs/promises';
import { onlineManager } from '@tanstack/react-query';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import { setDeviceOnline } from './counting-dom.ts';
import { renderRoutedScreen, unmountScreen, waitUntil } from './support.tsx';

let screen: { container: HTMLDivElement; root: Root } | undefined;

afterEach(async () => {
  if (screen) unmountScreen(screen);
  screen = undefined;
  await signOut();
});
afterAll(async () => {
  t.app.server.closeAllConnections();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const Empty = () => null;
const text = (root: ParentNode, selector: string) => root.querySelector(selector)?.textContent ?? '';

/** Renders /home once the reference data is read; `beforeRender` runs between the two. */
async function renderHome(
  locale: string,
  messages: Record<string, string>,
  beforeRender: () => void = () => {},
): Promise<HTMLDivElement> {
  resetSelection();
  await loadReferenceData();
  beforeRender();
  screen = await renderRoutedScreen(
    { '/home': () => <HomePage datePerso="2026-03-02" />, '/config/bdd': Empty },
    '/home',
    locale,
    messages,
  );
  return screen.container;
}

describe('the Needs attention card against the real server', () => {
  it('shows the administrator the failed automatic backup, why, and the screen to retry it, in fr, en and de', async () => {
    await signIn('admin', PASSWORD);
    const expected = {
      fr: [
        'À surveiller',
        'Sauvegarde automatique de la base',
        'Le dossier ne peut pas être écrit.',
        /^Échec le \d\d\/\d\d\/\d{4} à \d\d:\d\d, après 1 essai$/,
      ],
      en: [
        'Needs attention',
        'Automatic database backup',
        'The folder cannot be written.',
        /^Failed on \d\d\/\d\d\/\d{4} at \d\d:\d\d, after 1 try$/,
      ],
      de: [
        'Erfordert Aufmerksamkeit',
        'Automatische Datenbanksicherung',
        'In den Ordner kann nicht geschrieben werden.',
        /^Fehlgeschlagen am \d\d\/\d\d\/\d{4} um \d\d:\d\d, nach 1 Versuch$/,
      ],
    } as const;
    for (const [locale, messages] of [
      ['fr', fr],
      ['en', en],
      ['de', de],
    ] as const) {
      const page = await renderHome(locale, messages);
      await waitUntil(() => page.querySelector('.home-attention__item') !== null, 10_000, 25);
      const card = page.querySelector('.home-widget--attention')!;
      const [title, what, reason, when] = expected[locale];
      expect(card.querySelector('h2')!.textContent).toBe(title);
      const items = card.querySelectorAll('.home-attention__item');
      expect(items).toHaveLength(1);
      const link = items[0]!.querySelector('a')!;
      expect(link.textContent).toBe(what);
      expect(link.getAttribute('href')).toBe('/config/bdd');
      expect(items[0]!.querySelector('.home-attention__reason')!.textContent).toBe(reason);
      expect(items[0]!.querySelector('.home-attention__when')!.textContent).toMatch(when);
      unmountScreen(screen!);
      screen = undefined;
    }
  });

  it('says offline that the list will be read when the network is back, without an error', async () => {
    await signIn('admin', PASSWORD);
    try {
      const page = await renderHome('en', en, () => {
        // As the browser's `offline` event does for TanStack Query's online manager.
        setDeviceOnline(false);
        onlineManager.setOnline(false);
      });
      await waitUntil(() => page.querySelector('.home-widget--attention .home-status') !== null, 10_000, 25);
      await waitUntil(() => text(page, '.home-widget--attention .home-status') !== 'Loading…', 10_000, 25);
      expect(text(page, '.home-widget--attention .home-status')).toBe(
        'Offline: the list will be read when the network is back.',
      );
      expect(page.querySelector('.home-widget--attention [role="alert"]')).toBeNull();
    } finally {
      onlineManager.setOnline(true);
      setDeviceOnline(true);
    }
  });

  it('shows a user whose rights open none of its kinds no card, and asks the server nothing', async () => {
    await signIn('directeur', PASSWORD);
    const page = await renderHome('en', en);
    await waitUntil(() => page.querySelector('.home-widget__time') !== null, 10_000, 25);
    expect(page.querySelector('.home-widget--attention')).toBeNull();
    expect(queryClient.getQueryCache().findAll({ queryKey: ['attention'] })).toEqual([]);
    expect(apiBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });
});
