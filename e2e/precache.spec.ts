/**
 * The installed app's precache (issue #20 item 22): the service worker of the production build
 * lists every file once — the web manifest and its icons, which vite-plugin-pwa adds itself, were
 * listed a second time by the glob — and what it lists is served.
 */
import { expect, test } from '@playwright/test';

test('the service worker precaches each file once, and each is served', async ({ request }) => {
  const sw = await (await request.get('/sw.js')).text();
  const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1] ?? '');
  expect(urls.length).toBeGreaterThan(20);
  const counts = new Map<string, number>();
  for (const u of urls) counts.set(u, (counts.get(u) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
  for (const u of ['manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png', 'index.html']) {
    expect(urls).toContain(u);
  }
  for (const u of urls.filter((x) => !x.startsWith('assets/'))) {
    expect((await request.get(`/${u}`)).status(), u).toBe(200);
  }
});
