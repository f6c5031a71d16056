/**
 * /config/bdd (issue #30) in French against the demo chain: the screen passes axe; a backup name
 * with `..` is refused with its reason and the name typed stays; a backup started from the screen
 * runs to its end with SaveOk, is listed among the backups to restore, and its run is found again
 * after a reload. (Restore is not run here: it would sign every other spec out of the shared
 * server; tests/server/database-*.test.ts prove it.)
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('the administrator backs the database up from /config/bdd', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page.goto('/config/bdd');
  await expect(page.getByRole('heading', { level: 1, name: 'Base de données' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sauvegarder' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );

  const name = page.getByLabel('Nom du fichier (dossier/nom.backup)');
  await name.fill('../dehors.backup');
  await page.getByRole('button', { name: 'Sauvegarder' }).click();
  await expect(page.getByText('« .. » interdit', { exact: false })).toBeVisible();
  await expect(name).toHaveValue('../dehors.backup');

  const file = `e2e/sauvegarde-${Date.now()}.backup`;
  await name.fill(file);
  await page.getByRole('button', { name: 'Sauvegarder' }).click();
  await expect(page.getByText('Sauvegarde effectuée.')).toBeVisible({ timeout: 240_000 });
  const runs = page.getByRole('list', { name: 'Opérations' });
  await expect(runs.getByRole('listitem').filter({ hasText: file }).first()).toContainText('Terminée');
  await expect(page.getByRole('button', { name: `Restaurer ${file}` })).toBeVisible();

  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Opérations' }).getByRole('listitem').filter({ hasText: file }).first(),
  ).toContainText('Terminée');
});
