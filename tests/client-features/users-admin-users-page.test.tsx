/**
 * /config/users against the real server and a real SMTP server (users-admin-api.ts), rendered with
 * react-dom in happy-dom, in French: the list and its search and filters; creating a user — a weak
 * password refused before any call with what it lacks, a taken login refused at its field with
 * everything typed kept, then created with its operator code (SuccessMod); a user invited without
 * a password gets the link by e-mail; editing a user's companies changes the sites shown by name;
 * deactivating, removing after a confirmation, and the refusal to deactivate oneself.
 */
import { adminGet, chain, closeAll, received, t } from './users-admin-api.ts';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { Utilisateur } from '../../src/contract/administration.ts';
import { UsersPage } from '../../src/client/features/users-admin/components/users-page.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { PASSWORD } from './users-admin-api.ts';
import { choose, dialogText, isTicked, press, tableRows, tick } from './users-admin-dom.ts';
import { inputLabelled, renderScreen, submitForm, typeInto, unmountScreen, waitUntil } from './support.tsx';

let container: HTMLDivElement;
let root: Root;

const LIST = 'Liste des utilisateurs';
/** French typography: the catalogue puts a no-break space before a colon. */
const nb = (text: string) => text.replaceAll(' :', '\u00a0:');
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 15_000, 25);
const type = (label: string, value: string) => typeInto(inputLabelled(label), value);
const logins = () => tableRows(LIST).map((r) => r[0]);
const rowOf = (login: string) => tableRows(LIST).find((r) => r[0] === login);
const fieldError = (label: string) => {
  const input = inputLabelled(label);
  return input.getAttribute('aria-invalid') === 'true'
    ? input.closest('.ui-field')?.querySelector('.ui-field__error')?.textContent
    : undefined;
};
const successes = () => notifications.items.filter((n) => n.kind === 'success').map((n) => n.messageId);
const userCount = async () =>
  Number((await t.database.pool.query<{ n: string }>('SELECT count(*) AS n FROM users')).rows[0]?.n);

beforeAll(async () => {
  await signIn('admin', PASSWORD);
});
afterAll(async () => {
  await closeAll();
});
beforeEach(async () => {
  clearNotifications();
  ({ container, root } = await renderScreen(<UsersPage />, 'fr', fr));
  await waitFor(() => {
    const options = [...document.querySelectorAll('.ua-filters option')].map((o) => o.textContent);
    return logins().length > 0 && options.includes('Lyon') && options.includes('profile-gerant');
  });
});
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0 && queryClient.isMutating() === 0);
  unmountScreen({ container, root });
});

describe('/config/users', () => {
  it('lists every user with profile, state and sites; searches by login or e-mail and filters by profile and site', async () => {
    expect(rowOf('gerant')).toEqual([
      'gerant',
      'gerant@example.com',
      'profile-gerant',
      'Actif',
      '1',
      'Modifier',
    ]);
    expect(rowOf('admin')?.slice(2, 5)).toEqual(['profile-admin', 'Actif', '4']);

    await type('Rechercher', 'EXAMPLE.com');
    expect(logins()).toEqual(['gerant']);
    await type('Rechercher', '');
    await choose('Site', 'Lyon', container);
    expect(logins()).toEqual(['admin']);
    await choose('Site', 'Tous', container);
    await choose('Profil', 'profile-gerant', container);
    expect(logins()).toEqual(['gerant']);
  });

  it('refuses a weak password before any call and a taken login at its field, keeping what was typed; then creates the user', async () => {
    const before = await userCount();
    await press('Nouvel utilisateur');
    await waitFor(() => dialogText().includes('Nouvel utilisateur'));
    await type('Identifiant', 'gerant');
    await type('E-mail', 'marie@example.com');
    await choose('Profil', 'profile-gerant', document.querySelector('[role="dialog"]')!);
    await type('Code exploitant', 'EX-12');
    await tick('Définir un mot de passe maintenant');
    await type('Mot de passe', 'abcdefgh');
    await type('Confirmation du mot de passe', 'abcdefgh');
    expect(document.querySelector('.ui-password-rules')?.textContent).toContain('✗ une majuscule (manquant)');
    await submitForm('user-form');
    expect(fieldError('Mot de passe')).toBe(
      nb(
        'Mot de passe trop faible : il manque au moins 10 caractères, une majuscule, un chiffre, un caractère spécial.',
      ),
    );
    expect(await userCount()).toBe(before);

    await type('Mot de passe', 'Marie-Lyon-2026');
    await type('Confirmation du mot de passe', 'Marie-Lyon-2026');
    await submitForm('user-form');
    await waitFor(() => fieldError('Identifiant') !== undefined);
    expect(fieldError('Identifiant')).toBe('Cet identifiant est déjà pris.');
    expect(inputLabelled('E-mail').value).toBe('marie@example.com');
    expect(inputLabelled('Code exploitant').value).toBe('EX-12');

    await type('Identifiant', 'marie');
    await submitForm('user-form');
    await waitFor(() => rowOf('marie') !== undefined && dialogText() === '');
    expect(successes()).toEqual(['success.userCreated']);
    const marie = await adminGet<Utilisateur>('bo/infra/getUtilisateur?login=marie');
    expect(marie).toMatchObject({
      email: 'marie@example.com',
      profileTitre: 'profile-gerant',
      codeExploitant: 'EX-12',
      language: 'fr',
    });
    await t.signIn('marie', 'Marie-Lyon-2026');
  });

  it('invites a user created without a password: the reset link arrives by e-mail', async () => {
    await press('Nouvel utilisateur');
    await type('Identifiant', 'paul');
    await type('E-mail', 'paul@example.com');
    await submitForm('user-form');
    expect(dialogText()).toContain('Ce champ est obligatoire.');
    await choose('Profil', 'profile-gerant', document.querySelector('[role="dialog"]')!);
    await submitForm('user-form');
    await waitFor(() => rowOf('paul') !== undefined);
    await waitFor(() => received.some((m) => m.to && JSON.stringify(m.to).includes('paul@example.com')));
    expect(successes()).toContain('success.userCreated');
  });

  it("shows a user's sites by name and changes them with the added companies; deactivates, then removes after a confirmation", async () => {
    await press('Modifier gerant');
    await waitFor(() => dialogText().includes('Utilisateur gerant'));
    expect(document.querySelector('.ua-sites')?.textContent).toBe('1 siteParis');
    // A company is added or removed, never both: ticking it among the removed takes it off the added.
    const side = (label: string) =>
      [...document.querySelectorAll<HTMLElement>('.ua-fieldset [role="group"]')].find((g) =>
        g.textContent?.startsWith(label),
      )!;
    await tick('Beta SARL', side('Sociétés retirées'));
    expect(isTicked('Beta SARL', side('Sociétés retirées'))).toBe(true);
    await tick('Beta SARL', document.querySelector('.ua-fieldset')!);
    expect(isTicked('Beta SARL', side('Sociétés ajoutées'))).toBe(true);
    expect(isTicked('Beta SARL', side('Sociétés retirées'))).toBe(false);
    await submitForm('user-form');
    await waitFor(() => rowOf('gerant')?.[4] === '3');
    const saved = await adminGet<Utilisateur>('bo/infra/getUtilisateur?login=gerant');
    expect(saved.societesPlus).toEqual([chain.companies.beta]);

    await press('Modifier gerant');
    await waitFor(() => dialogText().includes('Utilisateur gerant'));
    expect(document.querySelector('.ua-sites')?.textContent).toBe('3 sitesLilleNantesParis');
    await press('Désactiver');
    await waitFor(() => rowOf('gerant')?.[3] === 'Désactivé');
    await press('Réactiver');
    await waitFor(() => rowOf('gerant')?.[3] === 'Actif');
    await press('Supprimer');
    await waitFor(
      () =>
        dialogText().includes('Supprimer l’utilisateur') || dialogText().includes("Supprimer l'utilisateur"),
    );
    expect(dialogText()).toContain('gerant');
    await press('Supprimer', document.querySelector('[role="alertdialog"]')!);
    await waitFor(() => rowOf('gerant') === undefined);
    expect(successes().filter((s) => s === 'success.SuccessMod')).toHaveLength(4);
  });

  it('refuses to deactivate oneself, and says so until the next action', async () => {
    await press('Modifier admin');
    await waitFor(() => dialogText().includes('Utilisateur admin'));
    await press('Désactiver');
    await waitFor(() => document.querySelector('.ua-actions [role="alert"]') !== null);
    expect(document.querySelector('.ua-actions [role="alert"]')?.textContent).toMatch(/^Refusé/);
    expect(rowOf('admin')?.[3]).toBe('Actif');
    await press('Annuler');
  });
});
