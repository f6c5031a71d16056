/**
 * Alerts end to end (issue #28 "Alerts"): the area manager adds, on "My subscriptions", an alert
 * "missing count" on one of their brasseries with a rule and a recipient of theirs, sees it listed,
 * checks it now (the success message says what the check found) and deletes it.
 */
import { expect, test } from '@playwright/test';
import { hashPassword } from '../src/server/auth/users.ts';
import { e2eDatabase } from './helpers.ts';

const LOGIN = 'responsable.brasseries';
const PASSWORD = 'E2e-Brasseries-2026!';
const EMAIL = 'responsable.brasseries@example.com';
let site = '';

test.beforeAll(async () => {
  const pool = e2eDatabase();
  try {
    await pool.query('UPDATE users SET password_hash = $2, email = $3 WHERE login = $1', [
      LOGIN,
      await hashPassword(PASSWORD),
      EMAIL,
    ]);
    const { rows } = await pool.query<{ id: number; libelle: string }>(
      `SELECT s.id, s.libelle FROM sites s JOIN profiles p ON s.company_id = ANY(p.societes_plus)
         JOIN users u ON u.profile_id = p.id WHERE u.login = $1 ORDER BY s.libelle LIMIT 1`,
      [LOGIN],
    );
    site = rows[0]!.libelle;
    // A rule and a recipient of theirs (made on the screen above the alerts; not this spec's subject).
    await pool.query(
      `INSERT INTO report_rules (owner_id, libelle, type, hour, minute)
       SELECT id, 'Chaque matin à 7 h', 'DAILY', 7, 0 FROM users WHERE login = $1`,
      [LOGIN],
    );
    await pool.query(
      `INSERT INTO report_recipients (owner_id, email, language)
       SELECT id, 'alertes@example.com', 'fr' FROM users WHERE login = $1`,
      [LOGIN],
    );
  } finally {
    await pool.end();
  }
});

test('the area manager adds a missing-count alert, checks it now and deletes it', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(LOGIN);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto('/abonnements');
  await expect(page.getByRole('heading', { name: 'Alertes' })).toBeVisible();
  await page.getByRole('button', { name: 'Ajouter une alerte' }).click();
  const form = page.getByTestId('alert-form');
  await expect(form).toBeVisible();
  await form.getByRole('textbox', { name: 'Nom' }).fill('Comptages manquants');
  // The demo chain gives this user rules of its own too: choose this spec's rule by its name.
  await form.getByRole('button', { name: /Règle \(quand vérifier\)/ }).click();
  await page.getByRole('option', { name: 'Chaque matin à 7 h', exact: true }).click();
  await form.getByRole('checkbox', { name: site }).check({ force: true });
  await form.getByRole('checkbox', { name: 'alertes@example.com' }).check({ force: true });
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Alerte enregistrée.')).toBeVisible();

  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Comptages manquants' }) });
  await expect(row).toContainText('Comptage de caisse ou de coffre manquant');
  await expect(row).toContainText(site);
  await expect(row).toContainText('Chaque matin à 7 h');
  await page.getByRole('button', { name: "Vérifier maintenant l'alerte Comptages manquants" }).click();
  await expect(page.getByText(/^Alerte vérifiée : /)).toBeVisible();

  await row.getByRole('button', { name: 'Supprimer' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByText('Alerte supprimée.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Comptages manquants' })).toHaveCount(0);
});
