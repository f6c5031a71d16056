/**
 * The cash count on a phone, in German (issue #20 items 4 and 20): every denomination label
 * ("500,00 €-Schein") stays on one line while the grid still fits the screen, from a 360 px phone
 * to a Pixel 7; and the sync badge's accessible name holds its visible text (axe's
 * label-content-name-mismatch, which needs a real browser).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';

/** Opens the cash count in German on a phone of `width` CSS pixels (a Pixel 7 otherwise). */
async function germanCashCount(browser: Browser, width?: number): Promise<Page> {
  const phone = devices['Pixel 7'];
  const context = await browser.newContext({
    ...phone,
    ...(width ? { viewport: { width, height: 740 } } : {}),
    baseURL: E2E.baseURL,
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await page.getByLabel('Benutzername').fill(E2E.login);
  await page.getByLabel('Passwort').fill(E2E.password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/analyses/comptageCaisses/saisie');
  await expect(page.getByRole('heading', { name: 'Kassenzählung' })).toBeVisible();
  await expect(page.getByText('500,00 €-Schein')).toBeVisible();
  return page;
}

/** Each denomination label's text, height and line height, and whether its row overflows. */
function measureLabels(page: Page) {
  return page.locator('.denomination-row__label').evaluateAll((labels) =>
    labels.map((label) => {
      const style = getComputedStyle(label);
      const row = label.closest('.denomination-row') as HTMLElement;
      return {
        // Intl puts a no-break space between the amount and the currency sign.
        text: (label.textContent ?? '').replace(/\s/g, ' '),
        height: label.getBoundingClientRect().height,
        lineHeight: Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2,
        // The label's text fits its box (a label forced on one line must not spill over the − button).
        spills: label.scrollWidth > label.clientWidth + 1,
        rowRight: row.getBoundingClientRect().right,
      };
    }),
  );
}

for (const width of [360, undefined]) {
  test(`denomination labels stay on one line in German on a ${width ?? 'Pixel 7'} px phone, and the grid fits`, async ({
    browser,
  }) => {
    const page = await germanCashCount(browser, width);
    // The quantity field still shows a four-digit count whole.
    const quantity = page.getByTestId('cash-denomination-1');
    await quantity.fill('1250');
    await expect(page.getByTestId('counted-cash')).toContainText('12,50');
    expect(await quantity.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
    const labels = await measureLabels(page);
    await page.screenshot({ path: test.info().outputPath('cash-count-de.png'), fullPage: true });
    expect(labels.map((l) => l.text)).toContain('500,00 €-Schein');
    for (const l of labels) {
      expect({ text: l.text, oneLine: l.height <= 1.5 * l.lineHeight, spills: l.spills }).toEqual({
        text: l.text,
        oneLine: true,
        spills: false,
      });
    }
    const viewport = page.viewportSize()?.width ?? 0;
    expect(Math.max(...labels.map((l) => l.rowRight))).toBeLessThanOrEqual(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport);
    await page.context().close();
  });
}

test('the sync badge is named by its visible text (axe label-content-name-mismatch)', async ({ browser }) => {
  const page = await germanCashCount(browser);
  const badge = page.getByTestId('sync-badge');
  await expect(badge).toBeVisible();
  const result = await new AxeBuilder({ page })
    .include('[data-testid="sync-badge"]')
    .withRules(['label-content-name-mismatch'])
    .analyze();
  expect(result.violations).toEqual([]);
  // Named from what it shows: the accessible name starts with the visible text.
  // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered (a phone hides a part of it) is the point
  const visible = (await badge.locator('.sync-badge__text').innerText()).trim();
  await expect(badge).toHaveAccessibleName(new RegExp(`^${visible.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await page.context().close();
});
