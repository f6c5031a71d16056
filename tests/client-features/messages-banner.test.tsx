/**
 * The messages banner of /home against the real API server (Fastify on a fresh PostgreSQL
 * database, on a loopback port), rendered with react-dom in happy-dom: a message targeted at a
 * site shows to a user of that site and not to a user of another; its severity gives its role;
 * closing it dismisses it for good (a reload, with an empty cache, does not bring it back).
 */
import { chain, server as t } from './messages-server.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { MessageInput } from '../../src/contract/administration.ts';
import { MessagesBanner } from '../../src/client/features/messages/components/messages-banner.tsx';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { renderScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

const PASSWORD = 'Comptoir-2026!';

let admin: Record<string, string>;
let screen: Screen | null = null;

/** Creates a message through the administration's call, for today in Paris. */
async function postMessage(fields: Partial<MessageInput>): Promise<number> {
  const today = currentFiscalDate(new Date(), 'Europe/Paris', '00:00');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bo/infra/newMessage',
    headers: admin,
    payload: { texts: { fr: 'Bonjour' }, fromDate: today, toDate: today, ...fields },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number }>().id;
}

/** Signs `login` in through the client, then shows the banner as /home does, in `language`. */
async function showBannerTo(login: string, language: 'fr' | 'en' = 'fr'): Promise<HTMLElement> {
  await signIn(login, PASSWORD);
  // The interface's language, as I18nProvider sets it with its catalogue.
  i18nState.language = language;
  screen = await renderScreen(<MessagesBanner />, language, language === 'fr' ? fr : en);
  return screen.container;
}

/** Waits for the banner's read of messages/all to come back, then returns its notices. */
async function settle(container: HTMLElement): Promise<HTMLElement[]> {
  const reads = () => queryClient.getQueryCache().findAll({ queryKey: ['messages', 'mine'] });
  await waitUntil(
    () => reads().length > 0 && reads().every((q) => q.state.status === 'success' && !q.state.isInvalidated),
    5_000,
    20,
  );
  await act(async () => {}); // the answer rendered
  return [...container.querySelectorAll<HTMLElement>('.msg-notice')];
}

beforeAll(async () => {
  await t.createUser({ login: 'admin', password: PASSWORD, droits: ['CONFIGURATION'], allSites: true });
  await t.createUser({
    login: 'paris',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris],
  });
  await t.createUser({
    login: 'lyon',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.lyon],
  });
  admin = await t.signIn('admin', PASSWORD);
});

afterEach(async () => {
  if (screen) unmountScreen(screen);
  screen = null;
  await t.database.pool.query('DELETE FROM admin_messages');
});

afterAll(async () => {
  await t.close();
});

describe('the messages banner', () => {
  it('shows a message targeted at a site to a user of that site and not to a user of another', async () => {
    await postMessage({ texts: { fr: 'Inventaire à Paris dimanche' }, restaurantIds: [chain.sites.paris] });
    const parisBanner = await showBannerTo('paris');
    const notices = await settle(parisBanner);
    expect(notices[0]?.textContent).toContain('Inventaire à Paris dimanche');
    unmountScreen(screen!);
    screen = null;

    const lyonBanner = await showBannerTo('lyon');
    expect(await settle(lyonBanner)).toEqual([]);
    // Nothing at all is rendered: no empty landmark.
    expect(lyonBanner.querySelector('section')).toBeNull();
  });

  it("tells an error as an alert and information as a status, in the user's language", async () => {
    await postMessage({
      texts: { fr: 'Coupure réseau ce soir', en: 'Network outage tonight' },
      severity: 'error',
    });
    await postMessage({ texts: { fr: 'Nouvelle carte' }, severity: 'info' });
    const banner = await showBannerTo('paris', 'en');
    const [first, second] = await settle(banner);
    expect(first?.getAttribute('role')).toBe('alert');
    expect(first?.textContent).toContain('Urgent');
    expect(first?.textContent).toContain('Network outage tonight');
    expect(second?.getAttribute('role')).toBe('status');
    // No English text given: the French one.
    expect(second?.textContent).toContain('Nouvelle carte');
    const close = first?.querySelector('button');
    expect(close?.getAttribute('aria-label')).toBe('Close the message “Network outage tonight”');
  });

  it('a dismissed message stays dismissed across reloads, and still shows to others', async () => {
    await postMessage({ texts: { fr: 'Fermeture exceptionnelle' } });
    const banner = await showBannerTo('paris');
    const [notice] = await settle(banner);
    const close = notice?.querySelector('button');
    expect(close?.getAttribute('aria-label')).toBe(
      'Fermer le message «\u00a0Fermeture exceptionnelle\u00a0»',
    );
    await act(async () => {
      close?.click();
    });
    expect(banner.querySelectorAll('.msg-notice')).toHaveLength(0);
    // Let the dismissal reach the server, then "reload": empty cache, new screen, new sign-in.
    await waitUntil(() => queryClient.isMutating() === 0, 5_000, 20);
    unmountScreen(screen!);
    screen = null;
    const reloaded = await showBannerTo('paris');
    expect(await settle(reloaded)).toEqual([]);
    unmountScreen(screen!);
    screen = null;

    const lyonBanner = await showBannerTo('lyon');
    expect((await settle(lyonBanner))[0]?.textContent).toContain('Fermeture exceptionnelle');
  });
});
