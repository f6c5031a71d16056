/**
 * The forgotten-password and reset-link screens (/reinit/changePassword) against the real server
 * and a real SMTP server (password-reset-api.ts), rendered with react-dom in happy-dom, in French:
 * asking a link (an unknown user told at the field, what was typed kept), the link's form (the
 * policy named at the field, a mismatch, then the password set and the login screen), and a used
 * or expired link saying so and offering a new one.
 */
import { apiBase, closeAll, lastLink, marieId, OLD_PASSWORD, received, t } from './password-reset-api.ts';
import { createHash } from 'node:crypto';
import { act } from 'react';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { ResetPasswordPage } from '../../src/client/features/password-reset/components/reset-password-page.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { session } from '../../src/client/lib/session.ts';
import {
  inputLabelled,
  type RoutedScreen,
  renderRoutedScreen,
  signInAs,
  submitForm,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

const NEW_PASSWORD = 'Nouveau-Mot2passe!';

let screen: RoutedScreen | undefined;
/** The link the reset page is opened with (none: reached from the login). */
let link: { email: string; key: string } | null = null;

afterAll(async () => {
  await closeAll();
});
beforeEach(() => {
  clearNotifications();
  expect(apiBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
});
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
});

function ResetRoute() {
  return (
    <ResetPasswordPage
      email={link?.email}
      resetKey={link?.key}
      onPasswordSet={async () => {
        await screen?.router.navigate({ to: '/' as never });
      }}
    />
  );
}

async function open(withLink: { email: string; key: string } | null): Promise<RoutedScreen> {
  link = withLink;
  screen = await renderRoutedScreen(
    { '/reinit/changePassword': ResetRoute, '/': () => <p>login</p> },
    '/reinit/changePassword',
    'fr',
    fr,
  );
  return screen;
}

/** The error shown at the field of `input`, or null. */
function fieldError(input: HTMLInputElement): string | null {
  return input.closest('.ui-field')?.querySelector('.ui-field__error')?.textContent ?? null;
}

function buttonNamed(text: string): HTMLButtonElement {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent === text);
  if (!button) throw new Error(`no button ${text}`);
  return button;
}

const codes = () => notifications.items.map((n) => `${n.kind}:${n.code}`);

async function askLink(user: string): Promise<void> {
  await typeInto(inputLabelled('Identifiant ou e-mail'), user);
  await submitForm('reset-ask-form');
}

describe('forgotten password', () => {
  it('refuses an empty field, tells an unknown user at the field and keeps it, then mails the link', async () => {
    await open(null);
    expect(document.querySelector('h1')?.textContent).toBe('Mot de passe oublié');
    await submitForm('reset-ask-form');
    const field = inputLabelled('Identifiant ou e-mail');
    expect(fieldError(field)).toBe(fr['reset.user.required']);
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await askLink('personne');
    await waitUntil(() => fieldError(inputLabelled('Identifiant ou e-mail')) !== null, 15_000, 20);
    expect(fieldError(inputLabelled('Identifiant ou e-mail'))).toBe(fr['error.userNull']);
    expect(inputLabelled('Identifiant ou e-mail').value).toBe('personne');
    expect(received).toHaveLength(0);

    await askLink('marie');
    await waitUntil(() => codes().includes('success:seeUrMail'), 15_000, 20);
    expect(fieldError(inputLabelled('Identifiant ou e-mail'))).toBeNull();
    expect(document.querySelector('[role="status"]')?.textContent).toContain('marie');
    await waitUntil(() => received.length === 1, 15_000, 20);
    expect(received).toHaveLength(1);
    expect(lastLink().email).toBe('marie@example.com');
  });
});

describe('the reset link', () => {
  it('names what the password lacks, refuses a mismatch, then sets it and goes to the login', async () => {
    received.length = 0;
    await open(null);
    await askLink('marie@example.com');
    await waitUntil(() => received.length === 1, 15_000, 20);
    unmountScreen(screen!);

    await open(lastLink());
    expect(document.querySelector('h1')?.textContent).toBe('Nouveau mot de passe');
    const password = () => inputLabelled('Nouveau mot de passe');
    const confirmation = () => inputLabelled('Confirmation du nouveau mot de passe');
    await typeInto(password(), 'court');
    // The rules show live: length, upper case, digit, special character missing; lower case met.
    const rules = [...document.querySelectorAll('.ui-password-rules__rule')];
    expect(rules.map((r) => r.hasAttribute('data-met'))).toEqual([false, false, true, false, false]);
    await typeInto(confirmation(), 'court');
    await submitForm('reset-new-form');
    expect(fieldError(password())).toBe(
      'Il manque : au moins 10 caractères, une majuscule, un chiffre et un caractère spécial.',
    );
    expect(document.activeElement).toBe(password());

    await typeInto(password(), NEW_PASSWORD);
    await typeInto(confirmation(), 'Nouveau-Mot2passe?');
    await submitForm('reset-new-form');
    expect(fieldError(password())).toBeNull();
    expect(fieldError(confirmation())).toBe(fr['error.PasswordMismatch']);
    expect(password().value).toBe(NEW_PASSWORD);

    // Marie is still signed in in this browser: once the password is set, that session is gone
    // too, so the login screen shows rather than /home refused ("session expired").
    signInAs({ id: marieId, login: 'marie' });
    await typeInto(confirmation(), NEW_PASSWORD);
    await submitForm('reset-new-form');
    await waitUntil(() => screen!.router.state.location.pathname === '/', 15_000, 20);
    expect(codes()).toContain('success:SuccessMod');
    expect(session.user).toBeNull();
    await t.signIn('marie', NEW_PASSWORD);
    await expect(t.signIn('marie', OLD_PASSWORD)).rejects.toThrow(/401/);
  });

  it('a used link says so and offers a new one, the form filled with the e-mail', async () => {
    const used = lastLink();
    await open(used);
    await typeInto(inputLabelled('Nouveau mot de passe'), 'Encore-1-autre!');
    await typeInto(inputLabelled('Confirmation du nouveau mot de passe'), 'Encore-1-autre!');
    await submitForm('reset-new-form');
    await waitUntil(() => document.querySelector('[data-testid="reset-link-problem"]') !== null, 15_000, 20);
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(fr['reset.link.usedToken']);
    await act(async () => {
      buttonNamed(fr['reset.link.askAgain']).click();
    });
    expect(document.querySelector('h1')?.textContent).toBe('Mot de passe oublié');
    expect(inputLabelled('Identifiant ou e-mail').value).toBe('marie@example.com');
  });

  it('an expired link says so', async () => {
    received.length = 0;
    await open(null);
    await askLink('marie');
    await waitUntil(() => received.length === 1, 15_000, 20);
    unmountScreen(screen!);
    const fresh = lastLink();
    await t.database.pool.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE key_hash = $1`,
      [createHash('sha256').update(fresh.key).digest('hex')],
    );
    await open(fresh);
    await typeInto(inputLabelled('Nouveau mot de passe'), 'Encore-1-autre!');
    await typeInto(inputLabelled('Confirmation du nouveau mot de passe'), 'Encore-1-autre!');
    await submitForm('reset-new-form');
    await waitUntil(() => document.querySelector('[data-testid="reset-link-problem"]') !== null, 15_000, 20);
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(fr['reset.link.expiredToken']);
  });
});
