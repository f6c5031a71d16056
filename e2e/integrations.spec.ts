/**
 * The partner integrations' screens (issue #29 "Integrations", decision 0044) in French against
 * the demo chain: the administrator opens /config/ecash, enables it on a site into a folder,
 * chooses, renames, reorders and removes columns, sees a refused name in place with what was typed
 * kept, sees the server's preview of the file, saves, sends a test file now and finds it in the
 * folder with the chosen columns; on /config/consolidations an HTTPS destination with a public and
 * a secret header, the secret shown "••• enregistré" after the save; the labels in English and
 * German; /config/adoria, /config/ecash and /config/consolidations pass axe (WCAG 2.x A/AA and
 * best practices) on a tablet and on a phone.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

async function chooseLanguage(page: Page, language: 'fr' | 'en' | 'de') {
  await page.locator(`.app-header__languages button[lang="${language}"]`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

test('the administrator lays out the e-cash file, previews it, saves and sends a test file now', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto('/config/ecash');
  await expect(page.getByRole('heading', { level: 1, name: 'Intégration e-cash' })).toBeVisible();
  await expect(page.getByLabel('Dossier', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Dossier', { exact: true }).fill('e2e-ecash');
  const sites = page.getByRole('group', { name: 'Sites envoyés' }).getByRole('checkbox');
  await expect(sites.first()).toBeVisible({ timeout: 30_000 });
  await sites.first().check({ force: true });
  // Default e-cash columns: SITE, DATE, MODE_REGLEMENT, NB_REGLEMENTS, MONTANT.
  await page.getByLabel('Nom de la colonne 1', { exact: true }).fill('CODE_SITE');
  await page.getByRole('button', { name: 'Monter la colonne 5' }).click();
  await page.getByRole('button', { name: 'Retirer la colonne 2' }).click();
  await page.getByRole('button', { name: 'Ajouter une colonne' }).click();
  await expect(page.getByLabel('Nom de la colonne 5', { exact: true })).toHaveValue('Site');
  await page.getByLabel('Nom de la colonne 5', { exact: true }).fill('LIB;SITE');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  const refused = 'Le nom ne peut contenir ni le séparateur, ni guillemet, ni retour à la ligne.';
  await expect(page.getByText(refused).first()).toBeVisible();
  await expect(page.getByLabel('Nom de la colonne 5', { exact: true })).toHaveValue('LIB;SITE');
  await expect(page.getByLabel('Nom de la colonne 1', { exact: true })).toHaveValue('CODE_SITE');
  await page.getByLabel('Nom de la colonne 5', { exact: true }).fill('LIB_SITE');
  await page.getByRole('button', { name: "Afficher l'aperçu" }).click();
  const preview = page.getByRole('region', { name: 'Premières lignes du fichier' });
  await expect(preview).toContainText('CODE_SITE;MODE_REGLEMENT;MONTANT;NB_REGLEMENTS;LIB_SITE');
  await expect(
    page.getByText(/ECASH_.*_\d{8}\.csv, journée du \d{4}-\d{2}-\d{2} : \d+ lignes? en tout/),
  ).toBeVisible();
  const firstLine = ((await preview.textContent()) ?? '').split('\n')[1] ?? '';
  expect(firstLine).toMatch(/^[^;]+;[^;]+;-?\d+,\d\d;\d+;[^;]+$/);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Modification enregistrée.').first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Envoyer un fichier de test' }).click();
  const runs = page.getByRole('table', { name: 'Exécutions' });
  await expect(runs.getByText('Réussie')).toBeVisible({ timeout: 60_000 });
  await expect(runs.getByText(/TEST_ECASH_/)).toBeVisible();
  const folder = path.join(E2E.dataDir, 'exports', 'e2e-ecash');
  const [file] = (await readdir(folder)).filter((f) => f.startsWith('TEST_ECASH_'));
  const text = await readFile(path.join(folder, file!), 'utf8');
  expect(text.split('\r\n')[0]).toBe('CODE_SITE;MODE_REGLEMENT;MONTANT;NB_REGLEMENTS;LIB_SITE');
});

test('the administrator sends consolidations to HTTPS with a public and a secret header', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto('/config/consolidations');
  await expect(page.getByLabel('Dossier', { exact: true })).toBeVisible({ timeout: 30_000 });
  // react-aria's Select names its button by its value, then its label.
  await page.getByRole('button', { name: /Dossier sur le serveur.*Destination/ }).click();
  await page.getByRole('option', { name: 'Adresse HTTPS', exact: true }).click();
  await page.getByLabel('Adresse (https://…)').fill('https://partner.example/consolidations');
  await page.getByRole('button', { name: 'Ajouter un en-tête' }).click();
  await page.getByLabel("Nom de l'en-tête 1", { exact: true }).fill('Host');
  await page.getByLabel("Valeur de l'en-tête 1", { exact: true }).fill('evil.example');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText(/Cet en-tête est fixé par Comptoir ou par HTTP/).first()).toBeVisible();
  await page.getByLabel("Nom de l'en-tête 1", { exact: true }).fill('X-Client');
  await page.getByLabel("Valeur de l'en-tête 1", { exact: true }).fill('comptoir');
  await page.getByRole('button', { name: 'Ajouter un en-tête' }).click();
  await page.getByLabel("Nom de l'en-tête 2", { exact: true }).fill('Authorization');
  await page.getByRole('checkbox', { name: 'Secret : en-tête 2' }).check({ force: true });
  await page.getByLabel("Valeur de l'en-tête 2", { exact: true }).fill('Bearer e2e-t0ken');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Modification enregistrée.').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('••• enregistré')).toBeVisible();
  await expect(page.getByLabel("Valeur de l'en-tête 2", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Valeur de l'en-tête 1", { exact: true })).toHaveValue('comptoir');
  expect(await page.content()).not.toContain('e2e-t0ken');
  // Saved again without typing it: the stored value stays; "replace" offers the field again.
  await page.reload();
  await expect(page.getByText('••• enregistré')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: "Remplacer la valeur de l'en-tête 2" }).click();
  await expect(page.getByLabel("Valeur de l'en-tête 2", { exact: true })).toHaveValue('');

  await chooseLanguage(page, 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Consolidations integration' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'HTTP headers' })).toBeVisible();
  await expect(page.getByLabel('Name of column 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show the preview' })).toBeVisible();
  await chooseLanguage(page, 'de');
  await expect(page.getByRole('group', { name: 'HTTP-Header' })).toBeVisible();
  await expect(page.getByLabel('Name der Spalte 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vorschau anzeigen' })).toBeVisible();
  await chooseLanguage(page, 'fr');
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
    for (const screen of ['/config/ecash', '/config/adoria', '/config/consolidations']) {
      await page.goto(screen);
      await expect(page.locator('h1').first()).toBeVisible();
      await expect(page.getByLabel('Nom de la colonne 1', { exact: true })).toBeVisible({ timeout: 30_000 });
      await page.getByRole('button', { name: "Afficher l'aperçu" }).click();
      await expect(page.getByText(/en tout|Aucun site/).first()).toBeVisible();
      const result = await new AxeBuilder({ page })
        .withTags([
          'wcag2a',
          'wcag2aa',
          'wcag21a',
          'wcag21aa',
          'wcag22a',
          'wcag22aa',
          'best-practice',
          'experimental',
        ])
        .analyze();
      expect(result.violations.map((v) => `${screen}: ${v.id} ${v.nodes[0]?.html.slice(0, 200)}`)).toEqual(
        [],
      );
    }
    await context.close();
  });
}
