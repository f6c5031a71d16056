/**
 * The guided start-up (issue #30, /config/miseenroute) in Chromium, walked in French by the
 * demo installation's administrator: signing in still lands on /home (the demo chain changes
 * nothing; the COMPTOIR_DEMO=0 lead is tests/server/startup-landing.test.ts's), the wizard opens
 * from the administration page on the first step not done, the password step is /account's form
 * (the administrator sets their own password — the same one, so the specs that follow sign in as
 * before), the test mail reaches a real SMTP server, and the summary ends the start-up with
 * SuccessMiseEnRoute. Reopened, it shows everything done and when; its labels render in en and de.
 */
import { expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';
import { type Mailbox, openMailbox } from './mailbox.ts';

let mailbox: Mailbox;
test.beforeAll(async () => {
  mailbox = await openMailbox();
});
test.afterAll(async () => {
  await mailbox?.close();
});

/** The step buttons of the wizard's list, by their title. */
function stepButton(page: Page, title: string | RegExp) {
  return page
    .getByRole('navigation', { name: 'Étapes de la mise en route' })
    .getByRole('button', { name: title });
}

async function chooseLanguage(page: Page, language: 'fr' | 'en' | 'de') {
  await page.locator(`.app-header__languages button[lang="${language}"]`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

test('the administrator walks the start-up in French and ends it with SuccessMiseEnRoute', async ({
  page,
}) => {
  await signIn(page); // lands on /home: the demo chain leads nobody to the wizard
  await page.goto('/config');
  await page.getByRole('link', { name: 'Mise en route' }).click();
  await expect(page).toHaveURL(/\/config\/miseenroute$/);
  await expect(page.getByRole('heading', { name: 'Mise en route', level: 1 })).toBeVisible();

  // The demo chain has its companies and sites: the wizard opens on the first step not done — the
  // password step, unless a spec before this one (password-reset) already changed it.
  await expect(stepButton(page, 'Société et sites Fait')).toBeVisible();
  await stepButton(page, /^Votre mot de passe/).click();
  await expect(page.getByRole('heading', { name: 'Votre mot de passe', level: 2 })).toBeVisible();
  await page.getByLabel('Mot de passe actuel').fill(E2E.password);
  await page.getByLabel('Nouveau mot de passe', { exact: false }).first().fill(E2E.password);
  await page.getByLabel('Confirmation du nouveau mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
  await expect(page.getByText('Modification enregistrée.')).toBeVisible();

  await page.getByRole('button', { name: 'Étape suivante' }).click();
  await expect(stepButton(page, 'Votre mot de passe Fait')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'E-mails', level: 2 })).toBeVisible();
  await expect(page.getByTestId('startup-mail-mode')).toContainText('serveur de messagerie');
  const before = mailbox.received.length;
  await page.getByLabel("Adresse de l'e-mail de test").fill('pas-une-adresse');
  await page.getByRole('button', { name: 'Envoyer un e-mail de test' }).click();
  await expect(page.getByText('Saisissez une adresse e-mail valide.')).toBeVisible();
  await expect(page.getByLabel("Adresse de l'e-mail de test")).toHaveValue('pas-une-adresse');
  await page.getByLabel("Adresse de l'e-mail de test").fill('chef@example.com');
  await page.getByRole('button', { name: 'Envoyer un e-mail de test' }).click();
  await expect(page.getByText('E-mail envoyé.')).toBeVisible();
  await expect(page.getByText('Dernier e-mail de test envoyé à chef@example.com.')).toBeVisible();
  const mail = await mailbox.nextMail(before, 'chef@example.com');
  expect(mail.subject).toBe('Comptoir E2E : e-mail de test');
  expect(mail.to).toMatchObject({ value: [{ address: 'chef@example.com' }] });

  await page.getByRole('button', { name: 'Étape suivante' }).click();
  // The automatic backup (advised, not required): /config/bdd's own form, saved from here.
  await expect(page.getByRole('heading', { name: 'Sauvegardes', level: 2 })).toBeVisible();
  const active = page.getByRole('checkbox', { name: 'Sauvegarde automatique active' });
  if (!(await active.isChecked())) await page.getByText('Sauvegarde automatique active').click();
  await expect(active).toBeChecked();
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Modification enregistrée.').first()).toBeVisible();
  await page.getByRole('button', { name: 'Étape suivante' }).click();
  await expect(page.getByRole('heading', { name: 'Récapitulatif', level: 2 })).toBeVisible();
  await expect(page.getByText('E-mails : fait')).toBeVisible();
  await page.getByRole('button', { name: 'Terminer la mise en route' }).click();
  await expect(page.getByText('Mise en route effectuée.')).toBeVisible();

  // Opened again later: everything done, and when.
  await page.goto('/home');
  await page.goto('/config/miseenroute');
  await expect(page.getByRole('heading', { name: 'Récapitulatif', level: 2 })).toBeVisible();
  await expect(
    page.getByText(/^Mise en route terminée le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}\.$/),
  ).toBeVisible();
  for (const title of ['Société et sites', 'Votre mot de passe', 'E-mails', 'Récapitulatif'])
    await expect(stepButton(page, `${title} Fait`)).toBeVisible();
});

test('the start-up’s labels render in English and German', async ({ page }) => {
  await signIn(page);
  await page.goto('/config/miseenroute');
  await expect(page.getByRole('heading', { name: 'Mise en route', level: 1 })).toBeVisible();
  await chooseLanguage(page, 'en');
  await expect(page.getByRole('heading', { name: 'Start-up', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Start-up steps' })).toContainText('Company and sites');
  await page
    .getByRole('navigation', { name: 'Start-up steps' })
    .getByRole('button', { name: /^Summary/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Summary', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Finish the start-up' })).toBeVisible();
  await chooseLanguage(page, 'de');
  await expect(page.getByRole('heading', { name: 'Inbetriebnahme', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Schritte der Inbetriebnahme' })).toContainText(
    'Gesellschaft und Standorte',
  );
  await expect(page.getByRole('heading', { name: 'Zusammenfassung', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Inbetriebnahme abschließen' })).toBeVisible();
  await chooseLanguage(page, 'fr');
});
