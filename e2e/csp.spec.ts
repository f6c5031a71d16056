/**
 * The pages run under the server's Content-Security-Policy (no 'unsafe-eval') without tripping
 * it (issue #20 item 21): zod must not probe `new Function` to decide whether it may compile
 * its parsers, since the browser reports that probe as a violation even though zod catches it.
 */
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers.ts';

declare global {
  interface Window {
    /** What the init script saw: one entry per `securitypolicyviolation` event. */
    cspViolations?: string[];
  }
}

/** Collects the console's CSP messages of `page` from now on. */
function cspConsoleMessages(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy|unsafe-eval/i.test(message.text())) {
      seen.push(`${message.type()}: ${message.text()}`);
    }
  });
  return seen;
}

/**
 * The violations seen so far: the `securitypolicyviolation` events of the current document (the
 * init script's list) and the console's CSP messages since the test began.
 */
async function violations(page: Page, consoleMessages: string[]) {
  return { events: await page.evaluate(() => window.cspViolations ?? []), console: [...consoleMessages] };
}

const NONE = { events: [], console: [] };

test('the login page and the signed-in screens raise no Content-Security-Policy violation', async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  const consoleMessages = cspConsoleMessages(page);

  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  expect(await violations(page, consoleMessages)).toEqual(NONE);

  await signIn(page);
  // Home's figures parsed with the contract's schemas: the first object schema is where zod probes.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations(page, consoleMessages)).toEqual(NONE);

  await page.getByRole('link', { name: 'Rapports' }).click();
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  expect(await violations(page, consoleMessages)).toEqual(NONE);
});
