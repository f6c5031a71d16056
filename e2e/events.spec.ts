/**
 * The events calendar (/evenements, issue #19) in French against the demo chain, on a tablet and
 * on a phone: the chosen day shows its forecast and reliability, in total and per day part (also
 * each day of the week view); it passes axe (WCAG A and AA) on arrival, with the event form open and refused
 * (errors at their fields), and in the week view; an event added through the form shows on its
 * day with eventAdded's message, and is deleted after its confirmation.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags([...WCAG_A_AA, 'best-practice']).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.html.slice(0, 300)} — ${n.failureSummary ?? ''}`),
  );
}

/** Today as the calendar shows it, DD/MM/YYYY (the browser's own clock and zone). */
async function shownToday(page: Page): Promise<string> {
  return page.evaluate(() => {
    const d = new Date();
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()}`;
  });
}

/** Opens the choice labelled `label` of the event form and picks `option`. */
async function choose(page: Page, label: string, option: string) {
  await page.locator('.ui-select', { hasText: label }).getByRole('button').click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Walks the calendar as an administrator (who holds EVENEMENTS) on `device`; the violations found. */
async function walk(browser: Browser, device: (typeof devices)[string], name: string): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const found: string[] = [];
  await signIn(page);
  await page.goto('/evenements');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Événements locaux et prévisions' }),
  ).toBeVisible();
  await expect(page.getByRole('grid')).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The administrator reads the forecast (RAPPORTS): the chosen day shows it with its 80 % range
  // and its reliability, said with its horizon (issue #31), or that the history is too short.
  await expect(page.locator('.ev-day .ev-forecast')).toContainText(
    /^Prévision([\d\s\u202f,]+€ entre [\d\s\u202f,]+€ et [\d\s\u202f,]+€ (écart moyen ±\d+ % pour une prévision à 1–7 jours|fiabilité pas encore mesurée)|Historique trop court)/,
  );
  // …and per day part, each part with its own reliability (a table that holds on a phone).
  const parts = page.locator('.ev-day .ev-parts');
  await expect(parts.getByRole('rowheader', { name: 'Déjeuner' })).toBeVisible();
  await expect(parts.locator('tbody tr').first()).toContainText(/€.*(±\d+ %|non mesurée)/);
  expect(await parts.evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
  await page.screenshot({ path: `test-results/e2e/events-${name}.png`, fullPage: true });
  found.push(...(await violations(page, 'month')));

  const today = await shownToday(page);
  const add = page.getByRole('button', { name: `Ajouter un événement le ${today}` });
  await expect(add).toBeEnabled();
  await add.click();
  const dialog = page.getByRole('dialog', { name: 'Nouvel événement' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
  // Refused before sending: each required field says so, the first one takes the focus.
  await expect(dialog.getByText('Ce champ est obligatoire.').first()).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Désignation' })).toHaveAttribute('aria-invalid', 'true');
  found.push(...(await violations(page, 'form refused')));

  await choose(page, "Type d'événement", 'Concert');
  await dialog.getByRole('textbox', { name: 'Désignation' }).fill(`Concert e2e ${name}`);
  await choose(page, "Type d'impact", 'Hausse');
  await dialog.getByRole('textbox', { name: "Taux d'impact (%)" }).fill('12,5');
  await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Événement ajouté.')).toBeVisible();
  const day = page.locator('.ev-day').first();
  await expect(day).toContainText(`Concert e2e ${name}`);
  await expect(day).toContainText('+12,5 %');

  await page.getByRole('radio', { name: 'Semaine' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Semaine du / })).toBeVisible();
  await expect(page.locator('.ev-week')).toContainText(`Concert e2e ${name}`);
  // The days of the week tell their forecast per day part too (a closed day has none to tell).
  await expect(page.locator('.ev-week .ev-parts').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  found.push(...(await violations(page, 'week')));

  await page.getByRole('button', { name: `Supprimer « Concert e2e ${name} »` }).click();
  const confirm = page.getByRole('alertdialog', { name: "Supprimer l'événement ?" });
  await confirm.getByRole('button', { name: 'Supprimer', exact: true }).click();
  await expect(page.locator('.ev-week')).not.toContainText(`Concert e2e ${name}`);
  await context.close();
  return found;
}

test.describe('/evenements: add, see, delete an event; axe clean (WCAG A and AA), in French', () => {
  test.setTimeout(120_000);
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'], 'tablette')).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walk(browser, devices['Pixel 7'], 'téléphone')).toEqual([]);
  });
});
