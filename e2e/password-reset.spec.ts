/**
 * A forgotten password, end to end in Chromium (issue #18): from the login screen the demo
 * administrator asks a reset link, the mail arrives on a real SMTP server this spec runs, its link
 * opens the reset screen, the new password is set and signs in; the old one no longer does, and
 * the link does not work twice. Afterwards the administrator gets E2E.password back (the same way,
 * through the API), so the specs that follow sign in as before.
 *
 * The e2e server mails to this spec's SMTP server (e2e/mailbox.ts) at SMTP_URL, which
 * playwright.config.ts sets (port E2E_PORT + 5000 when unset) for the server and the workers alike.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { e2eDatabase } from './helpers.ts';
import { type Mailbox, openMailbox } from './mailbox.ts';

const NEW_PASSWORD = 'Reinit-E2e-2026!';
const ADMIN_EMAIL = 'admin@comptoir.example';

let mailbox: Mailbox;

/** The link of the next mail to the administrator (after `before` mails), as the server wrote it. */
function nextLink(before: number): Promise<URL> {
  return mailbox.nextLink(before, ADMIN_EMAIL);
}

test.beforeAll(async () => {
  mailbox = await openMailbox();
  // The demo administrator has no e-mail address: give them one, as /config/users would.
  const db = e2eDatabase();
  try {
    await db.query('UPDATE users SET email = $1 WHERE login = $2', [ADMIN_EMAIL, E2E.login]);
  } finally {
    await db.end();
  }
});

test.afterAll(async ({ request }) => {
  // Give the administrator their usual password back, through the same two calls.
  const before = mailbox.received.length;
  const headers = { 'X-Requested-With': 'XMLHttpRequest' };
  const sent = await request.get(`/api/reinit/sendReinitMail?user=${E2E.login}`, { headers });
  expect(sent.status()).toBe(200);
  const link = await nextLink(before);
  const reset = await request.post('/api/reinit/reinitPassword', {
    headers,
    data: {
      email: link.searchParams.get('email'),
      resetPasswordKey: link.searchParams.get('key'),
      password: E2E.password,
    },
  });
  expect(reset.status()).toBe(200);
  await mailbox.close();
});

test('a forgotten password: the link of the mail sets a new one, which signs in; the link works once', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
  await expect(page).toHaveURL(/\/reinit\/changePassword$/);
  await expect(page.getByRole('heading', { name: 'Mot de passe oublié', level: 1 })).toBeVisible();
  const before = mailbox.received.length;
  await page.getByLabel('Identifiant ou e-mail').fill(E2E.login);
  await page.getByRole('button', { name: 'Envoyer le lien' }).click();
  await expect(page.getByText('Un e-mail de réinitialisation vous a été envoyé.')).toBeVisible();

  const link = await nextLink(before);
  const mail = await mailbox.nextMail(before, ADMIN_EMAIL);
  expect(mail.subject).toContain('réinitialisation de votre mot de passe');
  expect(link.pathname).toBe('/reinit/changePassword');
  expect(link.searchParams.get('email')).toBe(ADMIN_EMAIL);
  // The link points at COMPTOIR_PUBLIC_URL (default http://localhost:<PORT>); open it on this server.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Nouveau mot de passe', level: 1 })).toBeVisible();
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill(NEW_PASSWORD);
  await page.getByLabel('Confirmation du nouveau mot de passe').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(page).toHaveURL(new RegExp(`^${E2E.baseURL}/$`));
  await expect(page.getByText('Modification enregistrée.')).toBeVisible();

  // The old password is refused, the new one signs in.
  await page.getByLabel('Identifiant').fill(E2E.login);
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('Identifiant ou mot de passe incorrect.')).toBeVisible();
  await page.getByLabel('Mot de passe').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);

  // The same link a second time says it was used, and offers a new one.
  const second = await page.context().newPage();
  await second.goto(`${link.pathname}${link.search}`);
  await second.getByLabel('Nouveau mot de passe', { exact: false }).first().fill('Encore-E2e-2026!');
  await second.getByLabel('Confirmation du nouveau mot de passe').fill('Encore-E2e-2026!');
  await second.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(second.getByRole('alert').filter({ hasText: 'Ce lien a déjà servi' })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Recevoir un nouveau lien' })).toBeVisible();
});

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags([...WCAG_A_AA, 'best-practice', 'experimental'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${state}: ${v.id} (${v.impact}) ${n.html.slice(0, 300)} — ${n.failureSummary ?? ''}`),
  );
}

/**
 * The reset screens on `device`, driven by the keyboard only: the forgotten-password form refused
 * empty, the link's form with its errors shown, and a link that does not work. Answers axe's
 * violations in each state, and whether the page is wider than the screen.
 */
async function walkByKeyboard(browser: Browser, device: (typeof devices)[string]): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  const found: string[] = [];
  const overflow = async (state: string) => {
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    if (wide) found.push(`${state}: wider than the screen`);
  };
  await page.goto('/reinit/changePassword');
  await page.getByLabel('Identifiant ou e-mail').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Saisissez votre identifiant ou votre e-mail.')).toBeVisible();
  await expect(page.getByLabel('Identifiant ou e-mail')).toBeFocused();
  found.push(...(await violations(page, 'forgotten password, refused')));
  await overflow('forgotten password');

  await page.goto('/reinit/changePassword?email=nobody%40example.com&key=not-a-key');
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().focus();
  await page.keyboard.type('court');
  await page.keyboard.press('Tab');
  await page.keyboard.type('autre');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Il manque : au moins 10 caractères', { exact: false })).toBeVisible();
  found.push(...(await violations(page, 'new password, refused')));
  await overflow('new password');

  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill('Valable-E2e-2026!');
  await page.getByLabel('Confirmation du nouveau mot de passe').fill('Valable-E2e-2026!');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('alert').filter({ hasText: "Ce lien a expiré ou n'est pas valable." }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Recevoir un nouveau lien' })).toBeFocused();
  found.push(...(await violations(page, 'link not valid')));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Identifiant ou e-mail')).toHaveValue('nobody@example.com');
  await context.close();
  return found;
}

test.describe('the reset screens pass axe (WCAG A and AA) and work by keyboard, in French', () => {
  test('on a tablet', async ({ browser }) => {
    expect(await walkByKeyboard(browser, devices['Galaxy Tab S4'])).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walkByKeyboard(browser, devices['Pixel 7'])).toEqual([]);
  });
});
