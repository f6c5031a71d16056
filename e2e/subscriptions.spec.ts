/**
 * Recurring report e-mails end to end (issue #28): the area manager of the three brasseries
 * subscribes from the reports page to "sales of yesterday, my three brasseries, PDF + XLSX, every
 * day at 06:00"; the run is triggered with "send now" on "My subscriptions"; the mail arrives at
 * the real SMTP server with both files, and the XLSX's total equals yesterday's sales of those
 * sites in the database, to the cent.
 */
import ExcelJS from 'exceljs';
import { devices, expect, test } from '@playwright/test';
import { localDate } from '../src/server/subscriptions/occurrences.ts';
import { hashPassword } from '../src/server/auth/users.ts';
import { E2E } from './env.ts';
import { e2eDatabase } from './helpers.ts';
import { type Mailbox, openMailbox } from './mailbox.ts';

const LOGIN = 'responsable.brasseries';
/** The demo password is generated and shown once at start; the spec sets its own. */
const PASSWORD = 'E2e-Brasseries-2026!';
const EMAIL = 'responsable.brasseries@example.com';

let mailbox: Mailbox;
let sites: { id: number; libelle: string }[] = [];

test.beforeAll(async () => {
  mailbox = await openMailbox();
  const pool = e2eDatabase();
  try {
    await pool.query('UPDATE users SET password_hash = $2, email = $3 WHERE login = $1', [
      LOGIN,
      await hashPassword(PASSWORD),
      EMAIL,
    ]);
    // The area manager's scope: the sites of the company their profile adds (catalogue.ts).
    const { rows } = await pool.query<{ id: number; libelle: string }>(
      `SELECT s.id, s.libelle FROM sites s JOIN profiles p ON s.company_id = ANY(p.societes_plus)
         JOIN users u ON u.profile_id = p.id WHERE u.login = $1 ORDER BY s.libelle`,
      [LOGIN],
    );
    sites = rows;
  } finally {
    await pool.end();
  }
  expect(sites).toHaveLength(3);
});
test.afterAll(async () => mailbox.close());

/** Yesterday's net sales (cents) of `siteIds`, Paris calendar, from the daily aggregate. */
async function yesterdaySales(siteIds: number[]): Promise<number> {
  const today = localDate(new Date(), 'Europe/Paris');
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{ net: string }>(
      `SELECT coalesce(sum(net_cents), 0)::bigint AS net FROM daily_sales
        WHERE site_id = ANY($1::int[]) AND fiscal_date = $2::date - 1`,
      [siteIds, today],
    );
    return Number(rows[0]!.net);
  } finally {
    await pool.end();
  }
}

test('the area manager subscribes to yesterday’s sales of the three brasseries, and "send now" mails the PDF and the XLSX', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(LOGIN);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto('/rapports');
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Sites/ }).click();
  for (const site of sites) await page.getByRole('option', { name: new RegExp(`^${site.libelle}`) }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Hier', exact: true }).click();

  await page.getByRole('button', { name: 'Envoyer par e-mail régulièrement' }).click();
  const form = page.getByTestId('subscription-form');
  await expect(form).toBeVisible();
  await form.getByLabel('Nom').fill('Ventes d’hier — brasseries');
  await form.getByRole('checkbox', { name: 'PDF' }).check({ force: true });
  await form.getByRole('checkbox', { name: 'XLSX' }).check({ force: true });
  // A new rule, every day, at 06:00 (the form's defaults, checked here), to oneself.
  await expect(form.getByLabel(/^Heure/)).toHaveValue('06:00');
  await expect(form.getByRole('checkbox', { name: 'Moi-même' })).toBeChecked();
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Abonnement ajouté.')).toBeVisible();

  await page.getByRole('link', { name: 'Mes abonnements' }).click();
  await expect(page.getByRole('heading', { name: 'Mes abonnements', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('rowheader', { name: 'Ventes d’hier — brasseries', exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Tous les jours à 06:00').first()).toBeVisible();
  const before = mailbox.received.length;
  await page.getByRole('button', { name: 'Envoyer maintenant : Ventes d’hier — brasseries' }).click();
  await expect(page.getByText('Envoi en file d’attente : l’historique montre où il en est.')).toBeVisible();

  // The demo's own daily subscription may mail the same address meanwhile: find ours by subject.
  const ours = () =>
    mailbox.received.slice(before).find((m) => m.subject?.includes('Ventes d’hier — brasseries'));
  await expect.poll(() => ours() !== undefined, { timeout: 30_000 }).toBe(true);
  // The row follows the queued run to its end; the history shows it with its files.
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Ventes d’hier — brasseries', exact: true }) });
  await expect(row).toContainText('envoyé', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Historique des envois : Ventes d’hier — brasseries' }).click();
  const history = page.getByRole('dialog');
  await expect(history.getByRole('cell', { name: 'envoyé' })).toBeVisible();
  await expect(history).toContainText('.pdf');
  await expect(history).toContainText('.xlsx');
  await history.getByRole('button', { name: 'Fermer' }).click();
  const mail = ours()!;
  expect(mail.to).toMatchObject({ text: EMAIL });
  expect(mail.subject).toContain('Ventes d’hier — brasseries');
  for (const site of sites) expect(mail.text).toContain(site.libelle);
  const pdf = mail.attachments.find((a) => a.filename?.endsWith('.pdf'));
  const xlsx = mail.attachments.find((a) => a.filename?.endsWith('.xlsx'));
  expect(pdf?.content.subarray(0, 5).toString()).toBe('%PDF-');
  expect(xlsx).toBeDefined();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(xlsx!.content).buffer);
  const sheet = workbook.worksheets[0]!;
  const totals = sheet.getRow(sheet.rowCount);
  expect(totals.getCell(1).value).toBe('Total');
  const net = Math.round((totals.getCell(5).value as { result: number }).result * 100);
  expect(net).toBe(await yesterdaySales(sites.map((s) => s.id)));
});

test('on a phone, the administrator sees the subscription with its owner and last run on /config/recurrences, and the page fits the screen', async ({
  browser,
}) => {
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    baseURL: E2E.baseURL,
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(E2E.login);
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/config/recurrences');
  await expect(page.getByRole('heading', { name: 'Envois récurrents', level: 1 })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Ventes d’hier — brasseries', exact: true }) });
  await expect(row).toContainText(LOGIN);
  await expect(row).toContainText('envoyé');
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await context.close();
});

test('at 1024 px the subscriptions table of /config/recurrences fits its box, without a sideways scroll', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(E2E.login);
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/config/recurrences');
  const table = page.getByRole('table', { name: 'Abonnements' });
  await expect(table.getByRole('rowheader').first()).toBeVisible();
  // As e2e/narrow-tables.spec.ts: the table against the box it would scroll in.
  const sizes = await table.evaluate((t) => {
    let box: HTMLElement | null = t.parentElement;
    while (box && box !== document.body) {
      const x = getComputedStyle(box).overflowX;
      if (x === 'auto' || x === 'scroll' || x === 'hidden') break;
      box = box.parentElement;
    }
    const holder = box && box !== document.body ? box : document.documentElement;
    return {
      table: t.scrollWidth,
      box: holder.clientWidth,
      dbg: [...t.querySelectorAll('tbody tr:first-child > *')]
        .map((c) => `${c.textContent?.slice(0, 60)}:${(c as HTMLElement).offsetWidth}`)
        .join(' | '),
    };
  });
  expect(sizes.table, sizes.dbg).toBeLessThanOrEqual(sizes.box);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
});

test('the administrator changes a subscription’s name, report, sites and owner on /config/recurrences', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(E2E.login);
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/config/recurrences');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Ventes du mois — toute la chaîne', exact: true }) });
  await row.getByRole('button', { name: 'Modifier' }).click();
  const form = page.getByTestId('subscription-form');
  await expect(form).toBeVisible();
  await expect(form.getByRole('group', { name: 'Sites' })).toBeVisible();
  await form.getByLabel('Nom').fill('Ventes du mois — brasseries');
  await form
    .getByRole('button', { name: /Rapport/ })
    .first()
    .click();
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: /Propriétaire/ }).click();
  await page.getByRole('option', { name: LOGIN, exact: true }).click();
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Abonnement modifié.')).toBeVisible();
  const changed = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Ventes du mois — brasseries', exact: true }) });
  await expect(changed).toContainText(LOGIN);
});
