/**
 * /config/bdd, the archive-first partial empty (issue #30), in French against the demo chain: the
 * administrator picks a site and one day of long ago (so the other specs' recent figures stay),
 * is stopped without a reason (what was typed stays), confirms in the dialog, and sees the
 * archive's path once the queued run ended; a reload shows the run again; the archive exists in
 * the server's data folder, the day's tickets are gone and its totals were kept. The screen passes
 * axe with the form, with the dialog open and with the result.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { e2eDatabase, signIn } from './helpers.ts';

async function axeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** DD/MM/YYYY and YYYY-MM-DD of the day `daysAgo` days before today. */
function dayAgo(daysAgo: number): { display: string; wire: string } {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return { display: `${dd}/${mm}/${d.getFullYear()}`, wire: `${d.getFullYear()}-${mm}-${dd}` };
}

test("the administrator empties one site's day, archive first", async ({ page }) => {
  test.setTimeout(120_000);
  const day = dayAgo(300);
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{ id: number; libelle: string; n: number }>(
      `SELECT s.id, s.libelle, count(*)::int AS n FROM tickets t JOIN sites s ON s.id = t.site_id
        WHERE t.fiscal_date = $1 GROUP BY s.id, s.libelle ORDER BY s.libelle LIMIT 1`,
      [day.wire],
    );
    const site = rows[0]!;
    expect(site.n).toBeGreaterThan(0);

    await signIn(page);
    await page.goto('/config/bdd');
    await expect(page.getByRole('heading', { level: 1, name: 'Base de données' })).toBeVisible();
    await page.getByRole('button', { name: / Site$/ }).click();
    await page.getByRole('option', { name: site.libelle, exact: true }).click();
    await page.getByLabel('Du', { exact: true }).fill(day.display);
    await page.getByLabel('Au', { exact: true }).fill(day.display);
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);

    // No reason: refused at the field, nothing asked, what was typed stays.
    await page.getByRole('button', { name: 'Vider la période…' }).click();
    await expect(page.getByText('Indiquez le motif de la suppression.')).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByLabel('Du', { exact: true })).toHaveValue(day.display);

    await page.getByRole('textbox', { name: /Motif/ }).fill('Test e2e : archivage d’une journée');
    await page.getByRole('button', { name: 'Vider la période…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Vider cette période ?' });
    await expect(dialog).toContainText(site.libelle);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Archiver et supprimer' }).click();

    const result = page.getByTestId('purge-result');
    await expect(result).toContainText('Archivé puis supprimé', { timeout: 30_000 });
    await expect(page.getByText('Données de la période supprimées.')).toBeVisible();
    const archive = (await result.locator('code').textContent()) ?? '';
    expect(archive).toMatch(/^archives\/purge-site\d+-/);
    expect((await fs.stat(path.join(E2E.dataDir, archive))).size).toBeGreaterThan(0);

    // The purge ran on the job queue: after a reload the section shows the run again, as it ended.
    await page.reload();
    await expect(page.getByTestId('purge-result')).toContainText(archive, { timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    const after = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM tickets WHERE site_id = $1 AND fiscal_date = $2',
      [site.id, day.wire],
    );
    expect(after.rows[0]!.n).toBe(0);
    const kept = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM fiscal_day_totals WHERE site_id = $1 AND fiscal_date = $2',
      [site.id, day.wire],
    );
    expect(kept.rows[0]!.n).toBe(1);
  } finally {
    await pool.end();
  }
});
