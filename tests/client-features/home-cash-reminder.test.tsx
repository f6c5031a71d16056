/**
 * The home "coffre" widget's reminder for a terminal not counted yesterday, against the real
 * server and a real SMTP server (home-reminder-api.ts): each terminal has its button; pressing it
 * asks for confirmation and the recipients' role (required, refused at the field, nothing sent);
 * confirming mails the site's directors once and tells MailEnvoye; nobody to mail is said in the
 * dialog, which keeps the role typed; offline the buttons are disabled and say why.
 */
import { mailbox, PASSWORD, received, t } from './home-reminder-api.ts';
import { waitForMail } from '../helpers/smtp.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import { setDeviceOnline } from './counting-dom.ts';
import {
  inputLabelled,
  press,
  renderRoutedScreen,
  type Screen,
  submitForm,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

let screen: Screen | undefined;
const Empty = () => null;
const REMIND_PARIS_2 = 'Remind by e-mail: terminal 2, Paris';

beforeAll(async () => {
  await signIn('compteur', PASSWORD);
});
afterEach(() => {
  setDeviceOnline(true);
  if (screen) unmountScreen(screen);
  screen = undefined;
});
afterAll(async () => {
  await signOut();
  t.app.server.closeAllConnections();
  await t.close();
  await mailbox.close();
});

/** /home on 02/03/2026 (yesterday 01/03/2026), once the safe widget has answered. */
async function renderHome(): Promise<HTMLElement> {
  clearNotifications();
  resetSelection();
  await loadReferenceData();
  screen = await renderRoutedScreen(
    { '/home': () => <HomePage datePerso="2026-03-02" />, '/analyses/comptageCaisses': Empty },
    '/home',
    'en',
    en,
  );
  const safe = () => screen!.container.querySelector<HTMLElement>('.home-widget--coffre');
  await waitUntil(() => safe()?.querySelector('.home-terminals') != null, 10_000, 25);
  return safe()!;
}
function button(scope: ParentNode, name: string): HTMLElement {
  const found = [...scope.querySelectorAll<HTMLElement>('button')].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name,
  );
  if (!found) throw new Error(`no button named ${name}`);
  return found;
}
const form = () => document.querySelector<HTMLFormElement>('[data-testid="cash-reminder-form"]');
const submit = () => submitForm('cash-reminder-form');
/** The error shown at `field` (its FieldError among aria-describedby), or null. */
function errorOf(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return (
    ids.map((id) => document.getElementById(id)).find((e) => e?.classList.contains('ui-field__error'))
      ?.textContent ?? null
  );
}

describe('reminder for a terminal not counted, from the home safe widget', () => {
  it('asks for confirmation and the role, then mails the directors once and says MailEnvoye', async () => {
    const safe = await renderHome();
    expect(safe.querySelectorAll('.home-terminals button')).toHaveLength(2);
    await press(button(safe, REMIND_PARIS_2));
    await waitUntil(() => form() !== null, 5_000, 20);
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.querySelector('h2, [slot="title"]')?.textContent).toBe(
      'Remind of the cash count of terminal 2 — Paris, 01/03/2026',
    );
    // No role: refused at the field, nothing sent, the dialog stays.
    await submit();
    const role = inputLabelled("Recipients' role");
    expect(role.getAttribute('aria-required')).toBe('true');
    expect(errorOf(role)).toBe("Enter the recipients' role.");
    expect(received).toHaveLength(0);

    await typeInto(role, 'DIRECTEUR');
    await submit();
    await waitUntil(() => form() === null, 5_000, 20);
    expect(notifications.items.map((n) => n.code)).toEqual(['MailEnvoye']);
    await waitForMail({ received }, 1);
    expect(received.map((m) => m.subject)).toEqual(['Missing cash count: Paris, terminal 2, 01/03/2026']);
  });

  it('says in the dialog when nobody of the role can be mailed, keeping the role typed', async () => {
    received.length = 0;
    const safe = await renderHome();
    await press(button(safe, 'Remind by e-mail: terminal 1, Nantes'));
    await waitUntil(() => form() !== null, 5_000, 20);
    await typeInto(inputLabelled("Recipients' role"), 'DIRECTEUR');
    await submit();
    await waitUntil(() => form()?.querySelector('[role="alert"]') != null, 5_000, 20);
    expect(form()?.querySelector('[role="alert"]')?.textContent).toBe(en['home.cash.remindNoRecipient']);
    expect(inputLabelled("Recipients' role").value).toBe('DIRECTEUR');
    expect(received).toHaveLength(0);
    expect(notifications.items).toEqual([]);
  });

  it('disables the reminders offline and says they need the network', async () => {
    const safe = await renderHome();
    setDeviceOnline(false);
    await waitUntil(() => safe.querySelector('.home-offline-note') !== null, 5_000, 20);
    expect(safe.querySelector('.home-offline-note')?.textContent).toBe(en['home.cash.remindOffline']);
    const remind = button(safe, REMIND_PARIS_2);
    expect(remind.hasAttribute('disabled') || remind.getAttribute('aria-disabled') === 'true').toBe(true);
  });
});
