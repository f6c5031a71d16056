/**
 * /fec (issue #29) in French against the demo chain: the demo's accountant (`comptable`, right
 * FEC_CONFIGURATION; given the e2e administrator's password through the database, since the demo's
 * own is shown once at its creation) opens /fec, downloads the FEC of the first company for the
 * last week, and the file passes the checker of the official rules under its own name; the screen
 * passes axe (WCAG 2.1 A/AA and best practices). Then the account plan: a cash account that is no
 * PCG number is refused at its field, what was typed stays; a valid one is saved and the next file
 * carries it (and still passes the checker); the default plan is put back and saved at the end.
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
  await expect(page.getByRole('button', { name: 'Enregistrer le plan' })).toBeVisible({ timeout: 30_000 });
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
  // A demo company with sales (other specs may add companies without any, listed first).
  await page.getByRole('button', { name: /Société/ }).click();
  await page.getByRole('option', { name: /^SARL Fournil Ferrand/ }).click();
  await page.getByLabel('Du', { exact: true }).fill(day(7));
  await page.getByLabel('Au (date de clôture du fichier)').fill(day(1));
  /** Downloads the FEC of the period filled in; its records split in fields, after its checks. */
  const downloadRecords = async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Télécharger le FEC' }).click();
    const download = await downloading;
    const name = download.suggestedFilename();
    expect(name).toMatch(/^\d{9}FEC\d{8}\.txt$/);
    const text = iconv.decode(await fs.readFile((await download.path())!), 'ISO-8859-15');
    expect(text.split('\r\n').length).toBeGreaterThan(3);
    expect(checkFec(text, name)).toEqual([]);
    return text.split('\r\n').map((r) => r.split('\t'));
  };
  const before = await downloadRecords();
  expect(before.some((r) => r[4] === '530')).toBe(true);

  const cash = page.getByRole('group', { name: 'Encaissements en espèces' });
  const account = cash.getByRole('textbox', { name: 'Compte' });
  const label = cash.getByRole('textbox', { name: 'Libellé' });
  await expect(account).toHaveValue('530');
  await account.fill('930');
  await label.fill('Caisse siège');
  await page.getByRole('button', { name: 'Enregistrer le plan' }).click();
  await expect(cash.getByText('Numéro de compte refusé', { exact: false })).toBeVisible();
  await expect(account).toHaveAttribute('aria-invalid', 'true');
  await expect(account).toBeFocused();
  await expect(account).toHaveValue('930');
  await expect(label).toHaveValue('Caisse siège');

  await account.fill('5310');
  await page.getByRole('button', { name: 'Enregistrer le plan' }).click();
  await expect(page.getByText('Modification enregistrée.')).toBeVisible();
  await expect(page.getByText('La société a son propre plan de comptes', { exact: false })).toBeVisible();
  const after = await downloadRecords();
  expect(after.some((r) => r[4] === '530')).toBe(false);
  expect(after.filter((r) => r[4] === '5310' && r[5] === 'Caisse siège').length).toBe(
    before.filter((r) => r[4] === '530').length,
  );

  await page.getByRole('button', { name: 'Revenir au plan par défaut' }).click();
  await expect(account).toHaveValue('530');
  await page.getByRole('button', { name: 'Enregistrer le plan' }).click();
  await expect(label).toHaveValue('Caisse');
  expect((await downloadRecords()).some((r) => r[4] === '530')).toBe(true);
});
