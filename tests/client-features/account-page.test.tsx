/**
 * /account against the real server (account-api.ts), rendered with react-dom in happy-dom, in
 * French: my details (an invalid e-mail told at the field and kept, then saved; a new language
 * switches the interface), and my password (the policy named live and at the field, a mismatch,
 * a wrong current password at its field with everything typed kept, then the change, after which
 * the new password signs in and this session still works).
 */
import { PASSWORD, paulId, t } from './account-api.ts';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { AccountPage } from '../../src/client/features/account/components/account-page.tsx';
import { i18nState, setLanguage } from '../../src/client/lib/i18n.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { signIn } from '../../src/client/lib/session.ts';
import {
  inputLabelled,
  renderScreen,
  type Screen,
  submitForm,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

const NEW_PASSWORD = 'Paul-Nouveau-2026!';
let screen: Screen | undefined;

beforeAll(async () => {
  await setLanguage('fr');
  await signIn('paul', PASSWORD);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  clearNotifications();
  screen = await renderScreen(<AccountPage />, 'fr', fr);
  await waitUntil(() => document.querySelector('[data-testid="account-profile-form"]') !== null, 5_000, 20);
});
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
});

/** The error shown at the field of `input`, or null. */
function fieldError(input: HTMLInputElement): string | null {
  return input.closest('.ui-field')?.querySelector('.ui-field__error')?.textContent ?? null;
}

const codes = () => notifications.items.map((n) => `${n.kind}:${n.code}`);

/** Clicks the element, inside act. */
async function press(element: Element | null | undefined): Promise<void> {
  if (!(element instanceof HTMLElement)) throw new Error('nothing to press');
  await act(async () => {
    element.click();
  });
}

describe('my details', () => {
  it('shows my e-mail, refuses an invalid one at the field keeping it, then saves a valid one', async () => {
    const email = () => inputLabelled('Adresse e-mail');
    expect(email().value).toBe('paul@example.com');
    expect(document.body.textContent).toContain('Identifiant : paul');
    await typeInto(email(), 'paul@exemple');
    await submitForm('account-profile-form');
    expect(fieldError(email())).toBe(fr['account.email.invalid']);
    expect(email().value).toBe('paul@exemple');
    expect(document.activeElement).toBe(email());

    await typeInto(email(), 'paul.martin@example.com');
    await submitForm('account-profile-form');
    await waitUntil(() => codes().includes('success:SuccessMod'), 5_000, 20);
    const { rows } = await t.database.pool.query('SELECT email FROM users WHERE id = $1', [paulId]);
    expect(rows[0].email).toBe('paul.martin@example.com');
  });

  it('saving another language switches the interface to it', async () => {
    const button = [...document.querySelectorAll('button')].find((b) =>
      b.closest('.ui-field')?.textContent?.startsWith('Langue'),
    );
    await press(button);
    await waitUntil(() => document.querySelector('[role="option"]') !== null, 5_000, 20);
    await press([...document.querySelectorAll('[role="option"]')].find((o) => o.textContent === 'Deutsch'));
    // The list closes (its exit runs on timers): let it finish inside act before the save.
    await waitUntil(() => document.querySelector('[role="listbox"]') === null, 5_000, 20);
    await submitForm('account-profile-form');
    const saveButton = () =>
      document.querySelector<HTMLButtonElement>('[data-testid="account-profile-form"] button[type="submit"]');
    await waitUntil(() => i18nState.language === 'de' && !saveButton()?.disabled, 5_000, 20);
    const { rows } = await t.database.pool.query('SELECT language FROM users WHERE id = $1', [paulId]);
    expect(rows[0].language).toBe('de');
    await act(() => setLanguage('fr'));
  });
});

describe('my password', () => {
  const current = () => inputLabelled('Mot de passe actuel');
  const password = () => inputLabelled('Nouveau mot de passe');
  const confirmation = () => inputLabelled('Confirmation du nouveau mot de passe');

  it('names what is missing, refuses a mismatch, and tells a wrong current password at its field', async () => {
    await submitForm('account-password-form');
    expect(fieldError(current())).toBe(fr['password.empty']);
    expect(fieldError(password())).toBe(
      'Il manque : au moins 10 caractères, une majuscule, une minuscule, un chiffre et un caractère spécial.',
    );
    expect(fieldError(confirmation())).toBe(fr['password.empty']);

    await typeInto(current(), 'pas-le-bon');
    await typeInto(password(), 'motdepasse1');
    // Live, as typed: the error now names only what is still missing.
    expect(fieldError(password())).toBe('Il manque : une majuscule et un caractère spécial.');
    await typeInto(password(), NEW_PASSWORD);
    await typeInto(confirmation(), `${NEW_PASSWORD}x`);
    await submitForm('account-password-form');
    expect(fieldError(confirmation())).toBe(fr['error.PasswordMismatch']);

    await typeInto(confirmation(), NEW_PASSWORD);
    await submitForm('account-password-form');
    await waitUntil(() => fieldError(current()) !== null, 5_000, 20);
    expect(fieldError(current())).toBe(fr['error.WrongPassword']);
    expect([current().value, password().value, confirmation().value]).toEqual([
      'pas-le-bon',
      NEW_PASSWORD,
      NEW_PASSWORD,
    ]);
    expect(document.activeElement).toBe(current());
  });

  it('changes it: the new password signs in, the old one no longer, and this session goes on', async () => {
    await typeInto(current(), PASSWORD);
    await typeInto(password(), NEW_PASSWORD);
    await typeInto(confirmation(), NEW_PASSWORD);
    await submitForm('account-password-form');
    await waitUntil(() => codes().includes('success:SuccessMod'), 5_000, 20);
    expect([current().value, password().value, confirmation().value]).toEqual(['', '', '']);
    await t.signIn('paul', NEW_PASSWORD);
    await expect(t.signIn('paul', PASSWORD)).rejects.toThrow(/401/);
    // This tab's session was kept (only the others end): the details still load.
    unmountScreen(screen!);
    screen = await renderScreen(<AccountPage />, 'fr', fr);
    await waitUntil(() => document.querySelector('[data-testid="account-profile-form"]') !== null, 5_000, 20);
  });
});
