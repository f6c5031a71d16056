/**
 * Figures readable on a phone and a small tablet without discovering a sideways scroll (issue #32
 * D.7): on /totalKPI, /home's day parts, /tracker and /graphs at 412 px, and on
 * /analyses/listExports and /rapports' on-screen result at 768 px, every table fits the box that
 * holds it (its rows stacked into cards where columns do not fit), or that box shows that it
 * scrolls (a `data-scrolls` cue, see ui/table-scroll-cue). The page itself never scrolls sideways.
 * The events calendar on a phone shows each day's amount whole, not cut ("10.348,…").
 */
import { expect, type Page, test } from '@playwright/test';
import { adminWithoutOneSiteLimit, chooseYesterday } from './demo-users.ts';
import { signIn } from './helpers.ts';

test.beforeAll(adminWithoutOneSiteLimit);

/**
 * Tables of the page that are wider than the box they scroll in, with no cue that the box scrolls:
 * each as "caption or first header — table width / box width".
 */
function hiddenOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      if (!(table instanceof HTMLElement) || table.offsetParent === null) continue;
      let box: HTMLElement | null = table.parentElement;
      while (box && box !== document.body) {
        const x = getComputedStyle(box).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden') break;
        box = box.parentElement;
      }
      const holder = box && box !== document.body ? box : document.documentElement;
      const over = table.scrollWidth - holder.clientWidth;
      if (over > 1 && holder.dataset.scrolls !== 'true') {
        const name = table.querySelector('caption, th')?.textContent?.trim().slice(0, 40) ?? '?';
        out.push(`${name} — ${table.scrollWidth} / ${holder.clientWidth}`);
      }
    }
    return out;
  });
}

/** How far the page itself scrolls sideways (px; 0 when it does not). */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

const PHONE = { width: 412, height: 915 };
const TABLET = { width: 768, height: 1024 };

for (const [screen, viewport, ready] of [
  ['/totalKPI', PHONE, 'table'],
  ['/home', PHONE, 'table'],
  ['/tracker', PHONE, 'table'],
  ['/graphs', PHONE, 'table'],
  ['/analyses/listExports', TABLET, 'table'],
] as const) {
  test(`${screen} at ${viewport.width} px: every table fits its box or shows that it scrolls (D.7)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    if (screen === '/analyses/listExports') {
      // A file in the list: the sales report of today as CSV.
      await page.goto('/rapports');
      await chooseYesterday(page);
      await page.getByText('CSV (tableur)').click();
      await page.getByRole('button', { name: 'Générer', exact: true }).click();
      await expect(page.locator('.notification').filter({ hasText: 'Export terminé.' })).toBeVisible();
    }
    await page.goto(screen);
    if (screen === '/graphs') {
      // The figures of each chart are folded under it: open them all.
      const summaries = page.locator('main details summary');
      await expect(summaries.first()).toBeVisible({ timeout: 60_000 });
      for (const summary of await summaries.all()) await summary.click();
    }
    await expect(page.locator(`main ${ready}`).first()).toBeVisible({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    expect(await hiddenOverflow(page)).toEqual([]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
}

test("/rapports' on-screen result at 768 px fits its box or shows that it scrolls (D.7)", async ({
  page,
}) => {
  await page.setViewportSize(TABLET);
  await signIn(page);
  await page.goto('/rapports');
  await chooseYesterday(page);
  await page.getByRole('button', { name: "Afficher à l'écran" }).click();
  await expect(page.locator('.rep-preview table')).toBeVisible({ timeout: 60_000 });
  expect(await hiddenOverflow(page)).toEqual([]);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});

test('the events calendar on a 412 px phone shows each forecast whole inside its day (D.7)', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.goto('/evenements');
  const forecasts = page.locator('.ev-cal__forecast');
  await expect(forecasts.first()).toBeVisible({ timeout: 60_000 });
  const cut = await forecasts.evaluateAll((spans) =>
    spans.flatMap((span) => {
      const cell = span.closest('.ev-cal__cell');
      if (!cell) return [];
      const s = span.getBoundingClientRect();
      const c = cell.getBoundingClientRect();
      const whole =
        span.scrollWidth <= span.clientWidth + 1 && s.right <= c.right + 0.5 && s.bottom <= c.bottom + 0.5;
      return whole
        ? []
        : [`${span.getAttribute('data-text')}: ${Math.round(s.width)} px in ${Math.round(c.width)} px`];
    }),
  );
  expect(cut).toEqual([]);
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
});
