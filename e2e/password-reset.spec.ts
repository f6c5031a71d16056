/**
 * A forgotten password, end to end in Chromium (issue #18): from the login screen the demo
 * administrator asks a reset link, the mail arrives on a real SMTP server this spec runs, its link
 * opens the reset screen, the new password is set and signs in; the old one no longer does, and
 * the link does not work twice. Afterwards the administrator gets E2E.password back (the same way,
 * through the API), so the specs that follow sign in as before.
 *
 * The e2e server must mail to this spec's SMTP server: run it with SMTP_URL set, e.g.
 * `SMTP_URL=smtp://127.0.0.1:2593 E2E_PORT=8093 npx playwright test e2e/password-reset.spec.ts`
 * (Playwright hands its environment to the server it starts); playwright.config.ts may set it too.
 */
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { E2E } from './env.ts';
import { e2eDatabase } from './helpers.ts';

const NEW_PASSWORD = 'Reinit-E2e-2026!';
const ADMIN_EMAIL = 'admin@comptoir.example';

const received: ParsedMail[] = [];
let smtp: SMTPServer | undefined;

/** Port of SMTP_URL, the server the e2e server mails to. */
function smtpPort(): number {
  const url = process.env.SMTP_URL;
  if (!url)
    throw new Error(
      'Set SMTP_URL=smtp://127.0.0.1:<port> for the e2e server: this spec receives its mail there.',
    );
  return Number(new URL(url).port || 25);
}

/** The link of the next mail that arrives (after `before` mails), as the server wrote it. */
async function nextLink(before: number): Promise<URL> {
  await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(before);
  const text = received[before]?.text ?? '';
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in the mail: ${text}`);
  return new URL(match[0]);
}

test.beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  const server = smtp;
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(smtpPort(), '127.0.0.1', resolve);
  });
  expect((server.server.address() as AddressInfo).port).toBe(smtpPort());
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
  const before = received.length;
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
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

test('a forgotten password: the link of the mail sets a new one, which signs in; the link works once', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
  await expect(page).toHaveURL(/\/reinit\/changePassword$/);
  await expect(page.getByRole('heading', { name: 'Mot de passe oublié', level: 1 })).toBeVisible();
  const before = received.length;
  await page.getByLabel('Identifiant ou e-mail').fill(E2E.login);
  await page.getByRole('button', { name: 'Envoyer le lien' }).click();
  await expect(page.getByText('Un e-mail de réinitialisation vous a été envoyé.')).toBeVisible();

  const link = await nextLink(before);
  const mail = received[before]!;
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
