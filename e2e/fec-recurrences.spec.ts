/**
 * /fec/recurrencesfec (issue #29 "FEC recurrences") in French against the demo chain: the demo's
 * accountant (`comptable`, given the e2e administrator's password through the database) creates a
 * recurrence for the bakery company (monthly by default, the previous month), a refused time keeps
 * what was typed, so does a refused recipient line (one address a line), runs it now, sees its run end with a file, and downloads that file from /fec:
 * it passes the checker of the official rules under its own name. Both screens pass axe.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import iconv from 'iconv-lite';
import fs from 'node:fs/promises';
import { checkFec } from '../src/server/fec/fec-checker.ts';
import { E2E } from './env.ts';
import { e2eDatabase } from './helpers.ts';

const NAME = `FEC e2e ${Date.now()}`;

/** axe's WCAG 2.1 A/AA and best-practice violations of `page`, one line each. */
async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the accountant creates a FEC recurrence, runs it now and downloads its file from /fec', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const pool = e2eDatabase();
  try {
    await pool.query(
      `UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE login = $1) WHERE login = 'comptable'`,
      [E2E.login],
    );
  } finally {
    await pool.end();
  }
  await page.goto('/');
  await page.getByLabel('Identifiant').fill('comptable');
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto('/fec/recurrencesfec');
  await expect(page.getByRole('heading', { level: 1, name: 'Récurrences FEC' })).toBeVisible();
  await page.getByRole('button', { name: /Société/ }).click();
  await page.getByRole('option', { name: /^SARL Fournil Ferrand/ }).click();
  await page.getByRole('button', { name: 'Nouvelle récurrence' }).click();
  const form = page.getByTestId('fec-recurrence-form');
  await form.getByRole('textbox', { name: 'Nom' }).fill(NAME);
  const time = form.getByRole('textbox', { name: /^Heure/ });
  await time.fill('25:00');
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(form.getByText('Heure refusée', { exact: false })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Nom' })).toHaveValue(NAME);
  await time.fill('06:00');
  // The recipients, one a line: a refused address is shown at its line and kept; removed, it goes.
  await form.getByRole('button', { name: 'Ajouter un destinataire' }).click();
  await form.getByRole('textbox', { name: 'Destinataire 1' }).fill('compta-e2e@example.com');
  await form.getByRole('button', { name: 'Ajouter un destinataire' }).click();
  const second = form.getByRole('textbox', { name: 'Destinataire 2' });
  await second.fill('pas-une-adresse');
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(form.getByText('Adresse refusée : « pas-une-adresse »')).toBeVisible();
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(second).toHaveValue('pas-une-adresse');
  await form.getByRole('button', { name: 'Retirer le destinataire 2' }).click();
  await expect(form.getByRole('textbox', { name: 'Destinataire 2' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(await axe(page)).toEqual([]);
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Récurrence enregistrée.')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(NAME) });
  await expect(row).toContainText('Le 1 du mois');
  await expect(row).toContainText('Le mois précédent');
  await expect(row).toContainText('compta-e2e@example.com');

  await row.getByRole('button', { name: `Exécuter maintenant ${NAME}` }).click();
  await expect(page.getByText('Exécution demandée', { exact: false })).toBeVisible();
  await expect(row).toContainText('fichier généré', { timeout: 60_000 });

  await page.goto('/fec');
  await page.getByRole('button', { name: /Société/ }).click();
  await page.getByRole('option', { name: /^SARL Fournil Ferrand/ }).click();
  const fileRow = page.getByRole('row', { name: new RegExp(NAME) });
  await expect(fileRow).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(await axe(page)).toEqual([]);
  const downloading = page.waitForEvent('download');
  await fileRow.getByRole('button', { name: /^Télécharger \d{9}FEC\d{8}\.txt$/ }).click();
  const download = await downloading;
  const name = download.suggestedFilename();
  expect(name).toMatch(/^\d{9}FEC\d{8}\.txt$/);
  const text = iconv.decode(await fs.readFile((await download.path())!), 'ISO-8859-15');
  expect(text.split('\r\n').length).toBeGreaterThan(3);
  expect(checkFec(text, name)).toEqual([]);
});
