/**
 * /config/profils against the real server (users-admin-api.ts), rendered with react-dom in
 * happy-dom, in English: the profiles with how many users hold each; the rights offered as the
 * server labels them in the interface language (getDroits); a profile created with rights, chosen
 * sites, a ticket option and a criterion comes back from the server as typed (SuccessMod); an
 * empty title is refused at its field before any call; removing a profile still held is refused
 * naming its users, removing an unused one succeeds after the confirmation; taking administration
 * away from one's own profile is refused and said so.
 */
import { adminGet, chain, closeAll } from './users-admin-api.ts';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import type { Droit, Profile } from '../../src/contract/administration.ts';
import { ProfilesPage } from '../../src/client/features/users-admin/components/profiles-page.tsx';
import { setLanguage } from '../../src/client/lib/i18n.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { PASSWORD } from './users-admin-api.ts';
import { dialogText, isTicked, press, tableRows, tick } from './users-admin-dom.ts';
import { inputLabelled, renderScreen, submitForm, typeInto, unmountScreen, waitUntil } from './support.tsx';

let container: HTMLDivElement;
let root: Root;
let rights: Droit[];

const LIST = 'List of profiles';
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 15_000, 25);
const type = (label: string, value: string) => typeInto(inputLabelled(label), value);
const rowOf = (titre: string) => tableRows(LIST).find((r) => r[0] === titre);
const dialog = () => document.querySelector<HTMLElement>('[role="dialog"]')!;
const successes = () => notifications.items.filter((n) => n.kind === 'success').map((n) => n.messageId);

beforeAll(async () => {
  await setLanguage('en');
  await signIn('admin', PASSWORD);
  rights = await adminGet<Droit[]>('bo/infra/getDroits?language=en');
});
afterAll(async () => {
  await closeAll();
});
beforeEach(async () => {
  clearNotifications();
  ({ container, root } = await renderScreen(<ProfilesPage />, 'en', en));
  await waitFor(() => tableRows(LIST).length >= 2);
});
afterEach(async () => {
  await waitFor(() => queryClient.isFetching() === 0 && queryClient.isMutating() === 0);
  unmountScreen({ container, root });
});

describe('/config/profils', () => {
  it('lists each profile with its rights as the server names them, its sites and how many users hold it', async () => {
    const name = (code: string) => rights.find((r) => r.code === code)?.libelle;
    await waitFor(() => rowOf('profile-admin')?.[1] !== 'CONFIGURATION, RAPPORTS');
    expect(rowOf('profile-admin')).toEqual([
      'profile-admin',
      `${name('CONFIGURATION')}, ${name('RAPPORTS')}`,
      'Every site, present and future',
      '1',
      'EditDelete',
    ]);
    expect(rowOf('profile-gerant')?.slice(2, 4)).toEqual(['1 chosen site', '1']);
  });

  it('refuses an empty title at its field; creates a profile that comes back as typed', async () => {
    await press('New profile');
    await waitFor(() => dialogText().includes('New profile'));
    const offered = [...dialog().querySelectorAll('.ua-rights .ua-group__option')].map((o) => o.textContent);
    expect(offered).toEqual(rights.map((r) => `${r.libelle}${r.description}`));
    await submitForm('profile-form');
    expect(inputLabelled('Title').getAttribute('aria-invalid')).toBe('true');
    expect(dialog().textContent).toContain('This field is required.');

    await type('Title', 'Area manager');
    const reports = rights.find((r) => r.code === 'RAPPORTS')!;
    await tick(reports.libelle, dialog());
    await tick('Paris', dialog());
    await tick('Lyon', dialog());
    await tick('Cancellations', dialog());
    await press('Add a criterion');
    await type('Key of criterion 1', 'region');
    await type('Value of criterion 1', 'Nord');
    expect(inputLabelled('Title').value).toBe('Area manager');
    await submitForm('profile-form');
    await waitFor(() => rowOf('Area manager') !== undefined);
    expect(successes()).toEqual(['success.profileCreated']);
    const saved = (await adminGet<Profile[]>('bo/infra/getProfils')).find((p) => p.titre === 'Area manager');
    expect(saved).toMatchObject({
      droits: ['RAPPORTS'],
      allSites: false,
      criteres: { region: 'Nord' },
      optionsTickets: { cancellations: true, corrections: false },
      users: 0,
    });
    expect([...(saved?.restaurantIds ?? [])].sort()).toEqual([chain.sites.paris, chain.sites.lyon].sort());
  });

  it('edits a profile: what the server holds is ticked', async () => {
    await press('Edit profile-gerant');
    await waitFor(() => dialogText().includes('Profile profile-gerant') && dialogText().includes('Lyon'));
    expect(isTicked('Paris', dialog())).toBe(true);
    expect(isTicked('Lyon', dialog())).toBe(false);
    await press('Cancel', dialog());
  });

  it("refuses to take administration away from one's own profile, keeping the form as it was typed", async () => {
    const administration = rights.find((r) => r.code === 'CONFIGURATION')!;
    await press('Edit profile-admin');
    await waitFor(() => dialogText().includes('Profile profile-admin'));
    await tick(administration.libelle, dialog());
    await submitForm('profile-form');
    await waitFor(() => dialog().querySelector('[role="alert"]') !== null);
    expect(dialog().querySelector('[role="alert"]')?.textContent).toMatch(/^Refused: /);
    expect(isTicked(administration.libelle, dialog())).toBe(false);
    const admin = (await adminGet<Profile[]>('bo/infra/getProfils')).find((p) => p.titre === 'profile-admin');
    expect(admin?.droits).toContain('CONFIGURATION');
    await press('Cancel', dialog());
  });

  it('refuses to remove a profile still held, naming its users; removes an unused one after the confirmation', async () => {
    await press('Delete profile-gerant');
    await waitFor(() => dialogText().includes('Delete the profile?'));
    await press('Delete', document.querySelector('[role="alertdialog"]')!);
    await waitFor(() => document.querySelector('[role="alertdialog"] [role="alert"]') !== null);
    expect(document.querySelector('[role="alertdialog"] [role="alert"]')?.textContent).toBe(
      'Deletion refused: this profile is still held by gerant.',
    );
    await press('Cancel', document.querySelector('[role="alertdialog"]')!);

    await press('Delete Area manager');
    await waitFor(() => dialogText().includes('Delete the profile?'));
    await press('Delete', document.querySelector('[role="alertdialog"]')!);
    await waitFor(() => rowOf('Area manager') === undefined);
    expect(successes()).toEqual(['success.SuccessMod']);
  });
});
