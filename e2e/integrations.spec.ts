/**
 * The partner integrations' screens (issue #29 "Integrations", decision 0044) in French against
 * the demo chain: the administrator opens /config/ecash, enables it on a site into a folder,
 * saves, sends a test file now and sees the run succeed in the history; /config/adoria and
 * /config/ecash pass axe (WCAG 2.x A/AA and best practices) on a tablet and on a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('the administrator saves the e-cash integration and sends a test file now', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto('/config/ecash');
  await expect(page.getByRole('heading', { level: 1, name: 'Intégration e-cash' })).toBeVisible();
  await expect(page.getByLabel('Dossier', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Dossier', { exact: true }).fill('e2e-ecash');
  const sites = page.getByRole('group', { name: 'Sites envoyés' }).getByRole('checkbox');
  await expect(sites.first()).toBeVisible({ timeout: 30_000 });
  await sites.first().check({ force: true });
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Modification enregistrée.').first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Envoyer un fichier de test' }).click();
  const runs = page.getByRole('table', { name: 'Exécutions' });
  await expect(runs.getByText('Réussie')).toBeVisible({ timeout: 60_000 });
  await expect(runs.getByText(/TEST_ECASH_/)).toBeVisible();
});

for (const [name, device] of [
  ['tablet', { viewport: { width: 768, height: 1024 } }],
  ['phone', devices['Pixel 7']],
] as const) {
  test(`the integration screens pass axe on a ${name}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ ...device });
    const page = await context.newPage();
    await signIn(page);
    for (const screen of ['/config/ecash', '/config/adoria']) {
      await page.goto(screen);
      await expect(page.locator('h1').first()).toBeVisible();
      await expect(page.getByLabel('Dossier', { exact: true })).toBeVisible({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      const result = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'])
        .analyze();
      expect(result.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.html.slice(0, 200)}`)).toEqual(
        [],
      );
    }
    await context.close();
  });
}
