/**
 * /config/rules against the real server (admin-screens-api.ts), rendered with react-dom in
 * happy-dom: every site's counting rules as boxes, a box changing one site's rule on the server
 * with SPEC.md §8's success for a changed rule, "turn on everywhere" changing every site, and a
 * user without the right told so by a persistent error while the box keeps the server's state.
 */
import { adminId, chain, closeAll, readAsAdmin } from './admin-screens-api.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { Rule } from '../../src/contract/counting.ts';
import { RulesPage } from '../../src/client/features/rules-admin/components/rules-page.tsx';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { resetReferenceLoad } from '../../src/client/selection/selection-state.ts';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { PASSWORD } from './admin-screens-api.ts';
import { renderScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

let screen: Screen;
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 8_000, 25);

afterAll(() => closeAll());
beforeEach(() => clearNotifications());
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0 && queryClient.isMutating() === 0);
  unmountScreen(screen);
  await signOut();
  resetReferenceLoad();
});

async function open(login: string, language: 'fr' | 'en') {
  await signIn(login, PASSWORD);
  await loadReferenceData();
  screen = await renderScreen(<RulesPage />, language, language === 'fr' ? fr : en);
  await waitFor(() => screen.container.querySelectorAll('input[type="checkbox"]').length > 0);
}

/** The checkbox labelled `label` in the card named `site`. */
function box(site: string, label: string): HTMLInputElement {
  const card = [...screen.container.querySelectorAll('section')].find(
    (s) => s.querySelector('h2')?.textContent === site,
  );
  const found = [...(card?.querySelectorAll('label') ?? [])].find((l) => l.textContent?.includes(label));
  const input = found?.querySelector('input');
  if (!input) throw new Error(`no box ${label} in ${site}`);
  return input;
}

async function click(element: HTMLElement) {
  await act(async () => {
    element.click();
  });
}

const rulesOf = (site: number) => readAsAdmin<Rule[]>(`bo/getListRules?id=${adminId}&site=${site}`);
const texts = () => notifications.items.map((n) => `${n.kind}:${n.messageId}`);

describe('/config/rules', () => {
  it("lists every visible site's rules and turns one site's rule on, told with the changed-rule success", async () => {
    await open('admin', 'fr');
    const names = [...screen.container.querySelectorAll('section h2')].map((h) => h.textContent);
    expect(names).toEqual(['Pour tous les sites', 'Lille', 'Lyon', 'Nantes', 'Paris']);
    const cards = box('Lyon', 'Compter les tickets de carte bancaire');
    expect(cards.checked).toBe(false);

    await click(cards);
    await waitFor(() => notifications.items.length > 0);
    expect(texts()).toEqual(['success:success.ruleActivated']);
    expect(notifications.items[0]?.values).toEqual({
      rule: 'Compter les tickets de carte bancaire',
      where: 'Lyon',
    });
    expect((await rulesOf(chain.sites.lyon)).find((r) => r.libelle === 'comptageCartes')?.active).toBe(true);
    expect((await rulesOf(chain.sites.paris)).find((r) => r.libelle === 'comptageCartes')?.active).toBe(
      false,
    );
    await waitFor(() => box('Lyon', 'Compter les tickets de carte bancaire').checked);
  });

  it('"turn off everywhere" turns the rule off on every site', async () => {
    await open('admin', 'en');
    const button = screen.container.querySelector<HTMLButtonElement>(
      'button[aria-label="Turn off everywhere: Count cheques"]',
    );
    if (!button) throw new Error('no "turn off everywhere" button for cheques');
    await click(button);
    await waitFor(() => notifications.items.length > 0);
    expect(texts()).toEqual(['success:success.ruleDeactivated']);
    for (const site of Object.values(chain.sites)) {
      expect((await rulesOf(site)).find((r) => r.libelle === 'comptageCheques')?.active).toBe(false);
    }
    await waitFor(() => !box('Paris', 'Count cheques').checked && !box('Nantes', 'Count cheques').checked);
  });

  it('a user without CONFIGURATION is refused with a persistent error and the box keeps the server state', async () => {
    await open('compteur', 'en');
    const cash = box('Paris', 'Count cash');
    expect(cash.checked).toBe(true);
    await click(cash);
    await waitFor(() => notifications.items.length > 0);
    expect(texts()).toEqual(['error:error.Forbidden']);
    expect(box('Paris', 'Count cash').checked).toBe(true);
    expect((await rulesOf(chain.sites.paris)).find((r) => r.libelle === 'comptageEspeces')?.active).toBe(
      true,
    );
  });
});
