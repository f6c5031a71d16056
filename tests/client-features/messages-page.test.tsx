/**
 * /config/messages against the real API server (messages-server.ts), rendered with react-dom in
 * happy-dom: an administrator writes a message for one site, or one profile (bo/infra/getProfils),
 * through the form and it reaches that site's users or that profile's holders only; refusals show at their field and keep what was typed; editing and deleting (after
 * its confirmation) are told with SuccessMod, a creation with messageCreated (issue #32 D.12).
 */
import { chain, server as t } from './messages-server.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { MessagesPage } from '../../src/client/features/messages/components/messages-page.tsx';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { signIn } from '../../src/client/lib/session.ts';
import { zoneWhoseTodayIsNotParis } from '../helpers/other-day-zone.ts';
import { buttonNamed, press, renderScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

// The administrator's browser in a zone whose today is not the sites' (Europe/Paris): a new
// message's default dates must be the sites' today (message-draft.ts todaysSpan), as the server's
// is, or a message for today reaches nobody (seen in CI from 23:00 to midnight UTC).
process.env.TZ = zoneWhoseTodayIsNotParis();

const PASSWORD = 'Comptoir-2026!';
let screen: Screen;
let paris: Record<string, string>;
let lyon: Record<string, string>;

const page = () => screen.container;
const form = () => document.querySelector<HTMLFormElement>('[data-testid="message-form"]');
const listed = () => [...page().querySelectorAll<HTMLElement>('.msg-item')];
const successes = () => notifications.items.filter((n) => n.kind === 'success').map((n) => n.code);

/** The input or text area of the label in `scope` whose text starts with `text`. */
function fieldLabelled(text: string, scope: ParentNode = document): HTMLInputElement | HTMLTextAreaElement {
  const label = [...scope.querySelectorAll('label')].find((l) => l.textContent?.startsWith(text));
  const id = label?.getAttribute('for');
  const field = id ? scope.querySelector(`#${CSS.escape(id)}`) : null;
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) {
    throw new Error(`no field labelled ${text}`);
  }
  return field;
}
async function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  await act(async () => {
    const proto =
      field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
async function submit() {
  await act(async () => {
    form()?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}
/** The error text shown for `field` (its aria-describedby), or null. */
function errorOf(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const texts = ids.map((id) => document.getElementById(id)?.textContent ?? '');
  // Besides the error, a date field describes its format.
  return texts.find((x) => x.trim() !== '' && x !== 'Au format JJ/MM/AAAA') ?? null;
}
const messagesFor = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/messages/all', headers })).json<{ text: string }[]>();

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
  paris = await t.signIn('paris', PASSWORD);
  lyon = await t.signIn('lyon', PASSWORD);
  await signIn('admin', PASSWORD);
  i18nState.language = 'fr';
});
beforeEach(async () => {
  clearNotifications();
  screen = await renderScreen(<MessagesPage />, 'fr', fr);
  await waitUntil(
    () => page().querySelector('.msg-list, .msg-page > p.msg-muted:last-of-type') !== null,
    5_000,
    20,
  );
});
afterEach(async () => {
  unmountScreen(screen);
  await t.database.pool.query('DELETE FROM admin_messages');
});
afterAll(async () => {
  await t.close();
});

describe('/config/messages', () => {
  it('writes a message for one site that reaches the users of that site only', async () => {
    await waitUntil(() => page().textContent?.includes('Aucun message') ?? false, 5_000, 20);
    await press(buttonNamed(page(), 'Nouveau message'));
    await typeInto(fieldLabelled('Texte en français'), 'Inventaire dimanche à 8 h');
    // The site picker: open it, choose Paris.
    await press(buttonNamed(page(), 'Sites visésAucun site choisi▾'));
    // Under load the list may show before the sites are in it: wait for Paris itself.
    const parisOption = () =>
      [...page().querySelectorAll<HTMLElement>('[role="option"]')].find((o) =>
        o.textContent?.includes('Paris'),
      );
    await waitUntil(() => parisOption() !== undefined, 5_000, 20);
    await press(parisOption()!);
    await submit();
    await waitUntil(() => listed().length === 1, 5_000, 20);
    // The dialog closes once the save has answered; under load the list may show a frame earlier.
    await waitUntil(() => form() === null, 2_000, 20);
    expect(form()).toBeNull();
    // The focus is not lost with the form: it is back on "New message" (moved in the frame after
    // the list shows, so under load it may come a moment later).
    await waitUntil(() => document.activeElement?.textContent === 'Nouveau message', 2_000, 20);
    expect(document.activeElement?.textContent).toBe('Nouveau message');
    expect(successes()).toEqual(['messageCreated']);
    expect(listed()[0]?.textContent).toContain('Inventaire dimanche à 8 h');
    expect(listed()[0]?.textContent).toContain('Sites visésParis');
    expect((await messagesFor(paris)).map((m) => m.text)).toEqual(['Inventaire dimanche à 8 h']);
    expect(await messagesFor(lyon)).toEqual([]);
  });

  it("targets a profile chosen from bo/infra/getProfils: the message reaches that profile's holders only", async () => {
    const lyonProfile = (
      await t.database.pool.query<{ titre: string }>(
        `SELECT p.titre FROM profiles p JOIN users u ON u.profile_id = p.id WHERE u.login = 'lyon'`,
      )
    ).rows[0]!.titre;
    await press(buttonNamed(page(), 'Nouveau message'));
    await typeInto(fieldLabelled('Texte en français'), 'Formation des gérants lundi');
    await press(buttonNamed(page(), 'Profils visésAucun profil choisi▾'));
    const option = () =>
      [...page().querySelectorAll<HTMLElement>('[role="option"]')].find((o) => o.textContent === lyonProfile);
    await waitUntil(() => option() !== undefined, 5_000, 20);
    await press(option()!);
    await submit();
    await waitUntil(() => listed().length === 1, 5_000, 20);

    expect(listed()[0]?.textContent).toContain(`Profils visés${lyonProfile}`);
    expect((await messagesFor(lyon)).map((m) => m.text)).toEqual(['Formation des gérants lundi']);
    expect(await messagesFor(paris)).toEqual([]);
  });

  it('refuses a message without text or ending before it starts, at the field, keeping what was typed', async () => {
    await press(buttonNamed(page(), 'Nouveau message'));
    await typeInto(fieldLabelled('Texte en français'), '   ');
    await typeInto(fieldLabelled('Premier jour'), '10/06/2026');
    await typeInto(fieldLabelled('Dernier jour'), '09/06/2026');
    await submit();

    const french = fieldLabelled('Texte en français');
    expect(errorOf(french)).toBe('Écrivez le message dans au moins une langue.');
    expect(document.activeElement).toBe(french);
    expect(errorOf(fieldLabelled('Dernier jour'))).toBe(
      'La date de fin doit être une date, le jour de début ou après.',
    );
    expect((fieldLabelled('Premier jour') as HTMLInputElement).value).toBe('10/06/2026');
    expect((fieldLabelled('Dernier jour') as HTMLInputElement).value).toBe('09/06/2026');

    await typeInto(fieldLabelled('Dernier jour'), '31/02/2026');
    expect(errorOf(fieldLabelled('Dernier jour'))).toBe(
      "Ce n'est pas une date\u00a0: saisissez-la au format JJ/MM/AAAA.",
    );
    await typeInto(french, 'Fermeture');
    expect(errorOf(french)).toBeNull();
    await submit();
    expect(errorOf(fieldLabelled('Dernier jour'))).toBe('Saisissez la date au format JJ/MM/AAAA.');
    // Nothing reached the server.
    const stored = await t.database.pool.query('SELECT count(*)::int AS n FROM admin_messages');
    expect(stored.rows[0].n).toBe(0);
    expect(successes()).toEqual([]);
  });

  it('edits a message in English and deletes it after its confirmation', async () => {
    await press(buttonNamed(page(), 'Nouveau message'));
    await typeInto(fieldLabelled('Texte en français'), 'Nouvelle carte');
    await submit();
    await waitUntil(() => listed().length === 1, 5_000, 20);

    await press(buttonNamed(page(), 'Modifier le message «\u00a0Nouvelle carte\u00a0»'));
    expect((fieldLabelled('Texte en français') as HTMLTextAreaElement).value).toBe('Nouvelle carte');
    await typeInto(fieldLabelled('Texte en anglais'), 'New menu');
    await submit();
    await waitUntil(() => form() === null, 5_000, 20);
    const { rows } = await t.database.pool.query('SELECT texts FROM admin_messages');
    expect(rows[0].texts).toEqual({ fr: 'Nouvelle carte', en: 'New menu' });

    await press(buttonNamed(page(), 'Supprimer le message «\u00a0Nouvelle carte\u00a0»'));
    const dialog = document.querySelector<HTMLElement>('[role="alertdialog"]');
    expect(dialog?.textContent).toContain('Le message «\u00a0Nouvelle carte\u00a0» sera supprimé');
    await press(buttonNamed(dialog!, 'Supprimer'));
    await waitUntil(() => listed().length === 0 && page().textContent!.includes('Aucun message'), 5_000, 20);
    expect(successes()).toEqual(['messageCreated', 'SuccessMod', 'SuccessMod']);
    const audit = await t.database.pool.query(
      `SELECT action FROM audit_log WHERE kind = 'message' ORDER BY id DESC LIMIT 3`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['message.remove', 'message.save', 'message.create']);
  });

  it('keeps a refused deletion in its dialog, in French, until cancelled (ui/removal-dialog.tsx)', async () => {
    await press(buttonNamed(page(), 'Nouveau message'));
    await typeInto(fieldLabelled('Texte en français'), 'Déjà parti');
    await submit();
    await waitUntil(() => listed().length === 1, 5_000, 20);
    // Another administrator removes it meanwhile.
    await t.database.pool.query('DELETE FROM admin_messages');

    await press(buttonNamed(page(), 'Supprimer le message «\u00a0Déjà parti\u00a0»'));
    const dialog = () => document.querySelector<HTMLElement>('[role="alertdialog"]');
    await press(buttonNamed(dialog()!, 'Supprimer'));
    await waitUntil(() => dialog()?.querySelector('[role="alert"]') !== null, 5_000, 20);
    expect(dialog()?.querySelector('[role="alert"]')?.textContent).toBe('Introuvable.');
    expect(notifications.items.filter((n) => n.kind === 'error')).toEqual([]);

    await press(buttonNamed(dialog()!, 'Annuler'));
    await waitUntil(() => dialog() === null, 5_000, 20);
  });
});
