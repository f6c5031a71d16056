/**
 * /config/sites and /config/groupes against the real server (admin-screens-api.ts), rendered
 * with react-dom in happy-dom: companies with their sites ('NON REMPLI' marked hidden), a company
 * created after SIREN/SIRET refusals at their fields (what was typed kept), a removal refused
 * while the company has sites (naming them) and done once it has none, a site's terminal renamed
 * and its day start refused then saved, and a group made of a company's sites.
 */
import { chain, closeAll, readAsAdmin, t } from './admin-screens-api.ts';
import { act } from 'react';
import { createIntl } from 'react-intl';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { AdminRegroupement, Societe } from '../../src/contract/administration.ts';
import { GroupsPage } from '../../src/client/features/sites-admin/components/groups-page.tsx';
import { SitesPage } from '../../src/client/features/sites-admin/components/sites-page.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { PASSWORD } from './admin-screens-api.ts';
import {
  inputLabelled,
  renderScreen,
  type Screen,
  submitForm,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

let screen: Screen;
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 8_000, 25);

beforeAll(async () => {
  await t.database.pool.query(
    `INSERT INTO sites (libelle, company_id, code_implant, extras) VALUES ('NON REMPLI', $1, NULL, '{}')`,
    [chain.companies.beta],
  );
  await signIn('admin', PASSWORD);
});
afterAll(() => closeAll());
beforeEach(() => clearNotifications());
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0 && queryClient.isMutating() === 0);
  unmountScreen(screen);
});

async function open(page: React.ReactNode, ready: () => boolean) {
  screen = await renderScreen(page, 'fr', fr);
  await waitFor(ready);
}
const companies = () => readAsAdmin<Societe[]>('bo/infra/getSocietes');
const cardOf = (name: string) => {
  const card = [...screen.container.querySelectorAll('section')].find(
    (s) => s.querySelector('h2')?.textContent === name,
  );
  if (!card) throw new Error(`no card ${name}`);
  return card;
};
/** The open dialog (react-aria renders it at the end of document.body). */
const dialog = () => {
  const d = document.querySelector<HTMLElement>('[role="dialog"], [role="alertdialog"]');
  if (!d) throw new Error('no dialog open');
  return d;
};
async function press(scope: ParentNode, name: string) {
  const button = [...scope.querySelectorAll<HTMLButtonElement>('button')].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent) === name,
  );
  if (!button) throw new Error(`no button ${name}`);
  await act(async () => {
    button.click();
  });
}
/** The error text linked to `input` (aria-describedby), '' when none. */
const errorOf = (input: HTMLInputElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .filter((e) => e?.className.includes('ui-field__error'))
    .map((e) => e?.textContent)
    .join('');
const successes = () => notifications.items.filter((n) => n.kind === 'success').map((n) => n.messageId);
const intlFr = createIntl({ locale: 'fr', messages: fr });
/** The text of the last success, as the notification area shows it in French. */
const successText = () => {
  const last = notifications.items.filter((n) => n.kind === 'success').at(-1);
  return last ? intlFr.formatMessage({ id: last.messageId }, last.values) : undefined;
};

describe('/config/sites', () => {
  it("lists each company with its sites, the 'NON REMPLI' one marked hidden with why", async () => {
    await open(<SitesPage />, () => screen.container.querySelectorAll('section').length >= 2);
    const alpha = cardOf('Alpha SAS');
    expect([...alpha.querySelectorAll('h4')].map((h) => h.textContent)).toEqual(['Paris', 'Lyon']);
    expect(alpha.textContent).toContain('12345678900011');
    const hidden = [...cardOf('Beta SARL').querySelectorAll('li')].find((li) => li.dataset.hidden);
    expect(hidden?.querySelector('h4')?.textContent).toBe('NON REMPLIMasqué');
    expect(hidden?.textContent).toContain("n'apparaît qu'ici");
  });

  it('refuses a bad SIREN and a SIRET of another SIREN at their fields, keeps the typing, then creates the company', async () => {
    await open(<SitesPage />, () => screen.container.querySelectorAll('section').length >= 2);
    const before = (await companies()).length;
    await press(screen.container, 'Nouvelle société');
    await typeInto(inputLabelled('Raison sociale', dialog()), 'Gamma SAS');
    await typeInto(inputLabelled('SIREN', dialog()), '12345678');
    await submitForm('company-form');
    expect(errorOf(inputLabelled('SIREN', dialog()))).toBe('Le SIREN compte exactement 9 chiffres.');
    expect(inputLabelled('SIREN', dialog()).value).toBe('12345678');

    await typeInto(inputLabelled('SIREN', dialog()), '987 654 321');
    await typeInto(inputLabelled('SIRET', dialog()), '12345678900022');
    expect(errorOf(inputLabelled('SIRET', dialog()))).toBe(
      'Le SIRET doit commencer par le SIREN de la société.',
    );
    expect(await companies()).toHaveLength(before);

    await typeInto(inputLabelled('SIRET', dialog()), '98765432100022');
    await submitForm('company-form');
    await waitFor(() => successes().length > 0);
    // A creation says what it created (issue #32 D.12), not "Modification enregistrée.".
    expect(successes()).toEqual(['success.companyCreated']);
    expect(successText()).toBe('Société « Gamma SAS » créée.');
    expect((await companies()).find((c) => c.raisonSociale === 'Gamma SAS')).toMatchObject({
      siren: '987654321',
      siret: '98765432100022',
    });
    await waitFor(() => document.querySelector('[role="dialog"]') === null);
    await waitFor(() => screen.container.textContent?.includes('Gamma SAS') ?? false);
  });

  it('asks before removing a company, refuses while it has sites naming them, removes an empty one', async () => {
    await open(<SitesPage />, () => screen.container.textContent?.includes('Gamma SAS') ?? false);
    await press(cardOf('Alpha SAS'), 'Supprimer la société Alpha SAS');
    await press(dialog(), 'Supprimer définitivement');
    await waitFor(() => dialog().querySelector('[role="alert"]') !== null);
    expect(dialog().querySelector('[role="alert"]')?.textContent).toMatch(
      /encore des sites \((Paris, Lyon|Lyon, Paris)\)/,
    );
    expect((await companies()).some((c) => c.raisonSociale === 'Alpha SAS')).toBe(true);
    await press(dialog(), 'Annuler');

    await press(cardOf('Gamma SAS'), 'Supprimer la société Gamma SAS');
    await press(dialog(), 'Supprimer définitivement');
    await waitFor(() => successes().length > 0);
    expect((await companies()).some((c) => c.raisonSociale === 'Gamma SAS')).toBe(false);
  });

  it("renames a site's terminal and refuses a 12-hour day start at its field before saving", async () => {
    await open(<SitesPage />, () => screen.container.querySelectorAll('section').length >= 2);
    await press(cardOf('Alpha SAS'), 'Modifier le site Paris');
    await typeInto(inputLabelled('Nom de la caisse 1', dialog()), 'Comptoir');
    await typeInto(inputLabelled('Début de la journée commerciale', dialog()), '5 AM');
    await submitForm('site-form');
    expect(errorOf(inputLabelled('Début de la journée commerciale', dialog()))).toBe(
      'Heure invalide\u00a0: utilisez HH:MM, de 00:00 à 23:59.',
    );
    expect(inputLabelled('Nom de la caisse 1', dialog()).value).toBe('Comptoir');

    await typeInto(inputLabelled('Début de la journée commerciale', dialog()), '06:30');
    await submitForm('site-form');
    await waitFor(() => successes().length > 0);
    const paris = (await companies())
      .flatMap((c) => c.sites)
      .find((s) => s.restaurantId === chain.sites.paris);
    expect(paris?.dayStart).toBe('06:30');
    expect(paris?.caisses.find((c) => c.id === 1)?.libelle).toBe('Comptoir');
  });
});

describe('/config/groupes', () => {
  it('creates a group of a whole company, showing its effective sites before saving, and removes it after confirming', async () => {
    await open(<GroupsPage />, () => screen.container.querySelectorAll('section').length >= 2);
    await press(screen.container, 'Nouveau groupe');
    await typeInto(inputLabelled('Nom du groupe', dialog()), 'Sud');
    const alphaBox = [...dialog().querySelectorAll('fieldset, [role="group"]')]
      .find((g) => g.textContent?.startsWith('Sociétés ajoutées'))
      ?.querySelector<HTMLInputElement>(`input[value="${chain.companies.alpha}"]`);
    if (!alphaBox) throw new Error('no box for Alpha SAS among the companies added');
    await act(async () => {
      alphaBox.click();
    });
    expect(dialog().querySelector('[role="status"]')?.textContent).toBe(
      'Le groupe comptera 2 sites\u00a0: Paris, Lyon.',
    );
    await submitForm('group-form');
    await waitFor(() => successes().length > 0);
    expect(successes()).toEqual(['success.groupCreated']);
    const sud = (await readAsAdmin<AdminRegroupement[]>('bo/infra/getRegroupements')).find(
      (g) => g.raisonSociale === 'Sud',
    );
    expect(sud).toMatchObject({ societesPlus: [chain.companies.alpha], restaurantIds: [] });
    expect([...(sud?.sites ?? [])].sort()).toEqual([chain.sites.paris, chain.sites.lyon].sort());

    await waitFor(() => screen.container.textContent?.includes('Sud') ?? false);
    await press(cardOf('Sud'), 'Supprimer le groupe Sud');
    await press(dialog(), 'Supprimer définitivement');
    await waitFor(() => successes().length > 1);
    const left = await readAsAdmin<AdminRegroupement[]>('bo/infra/getRegroupements');
    expect(left.some((g) => g.raisonSociale === 'Sud')).toBe(false);
  });
});
