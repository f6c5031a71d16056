/**
 * The signed-in header fits its screen (issue #19): on the e2e tablet (Galaxy Tab S4, 712 px
 * portrait) the first row — brand, sync badge, languages, sign-out — stays one row, with the
 * steering and settings buttons beside the bar of screens below; on a 412 px phone the header is
 * one row with the Menu button. In fr, en and de (German labels are the longest); the page never
 * scrolls sideways. Screenshots of each header go to test-results/e2e/header-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers.ts';

const LANGUAGES = ['fr', 'en', 'de'] as const;

/** The header's visible children: class and box (px, rounded). */
function headerItems(page: Page) {
  return page.locator('.app-header').evaluate((header) =>
    [...header.children]
      .filter((child) => getComputedStyle(child).display !== 'none')
      .map((child) => {
        const box = child.getBoundingClientRect();
        return {
          name: child.className.split(' ')[0] ?? '',
          top: Math.round(box.top),
          bottom: Math.round(box.bottom),
          right: Math.round(box.right),
        };
      }),
  );
}

async function chooseLanguage(page: Page, language: (typeof LANGUAGES)[number]) {
  await page.locator(`.app-header__languages button[lang="${language}"]`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

test('the header fits a 712 px tablet and a 412 px phone in fr, en and de', async ({ page }) => {
  await page.setViewportSize({ width: 712, height: 1138 });
  await signIn(page);
  for (const language of LANGUAGES) {
    await page.setViewportSize({ width: 712, height: 1138 });
    await chooseLanguage(page, language);
    const items = await headerItems(page);
    const first = items.filter((i) => !['app-nav', 'app-tools'].includes(i.name));
    expect(first.map((i) => i.name)).toEqual([
      'app-header__brand',
      'sync-badge',
      'language-choice',
      'ui-button',
    ]);
    // One row: every first-row item shares the brand's line, and the rest starts below it.
    const brand = first[0]!;
    for (const item of first) expect(item.top, `${language} ${item.name}`).toBeLessThan(brand.bottom);
    for (const item of items.filter((i) => ['app-nav', 'app-tools'].includes(i.name)))
      expect(item.top, `${language} ${item.name}`).toBeGreaterThanOrEqual(brand.bottom);
    for (const item of items) expect(item.right, `${language} ${item.name}`).toBeLessThanOrEqual(712);
    await expect(page.locator('.app-tools').getByRole('link').last()).toBeVisible();
    await expect(page.locator('.app-header__logout')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(712);
    await page
      .locator('.app-header')
      .screenshot({ path: test.info().outputPath(`header-712-${language}.png`) });

    await page.setViewportSize({ width: 412, height: 915 });
    const phone = await headerItems(page);
    expect(new Set(phone.map((i) => i.top)).size, `${language} phone: one row`).toBe(1);
    await expect(page.locator('.app-menu__button')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await page
      .locator('.app-header')
      .screenshot({ path: test.info().outputPath(`header-412-${language}.png`) });
  }
});
