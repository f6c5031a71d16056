/**
 * /fec (issue #29) in French against the demo chain: the demo's accountant (`comptable`, right
 * FEC_CONFIGURATION; given the e2e administrator's password through the database, since the demo's
 * own is shown once at its creation) opens /fec, downloads the FEC of the first company for the
 * last week, and the file passes the checker of the official rules under its own name; the screen
 * passes axe (WCAG 2.1 A/AA and best practices).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import iconv from 'iconv-lite';
import fs from 'node:fs/promises';
import { checkFec } from '../src/server/fec/fec-checker.ts';
import { E2E } from './env.ts';
import { e2eDatabase } from './helpers.ts';

test('the accountant downloads a FEC that passes the official rules', async ({ page }) => {
  test.setTimeout(120_000);
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

  await page.goto('/fec');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Fichier des écritures comptables (FEC)' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Télécharger le FEC' })).toBeEnabled({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );

  const day = (daysAgo: number) => {
    const d = new Date(Date.now() - daysAgo * 86_400_000);
    return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
  };
  await page.getByLabel('Du', { exact: true }).fill(day(7));
  await page.getByLabel('Au (date de clôture du fichier)').fill(day(1));
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Télécharger le FEC' }).click();
  const download = await downloading;
  const name = download.suggestedFilename();
  expect(name).toMatch(/^\d{9}FEC\d{8}\.txt$/);
  const text = iconv.decode(await fs.readFile((await download.path())!), 'ISO-8859-15');
  expect(text.split('\r\n').length).toBeGreaterThan(3);
  expect(checkFec(text, name)).toEqual([]);
});
