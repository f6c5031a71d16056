/**
 * The "Needs attention" card of /home (issues #29 and #30, decision 0045) in Chromium against the
 * demo chain: an automatic backup whose folder could not be written and an e-cash delivery whose
 * endpoint answered 500, both failed after their retries, show on the administrator's /home with
 * their reasons in French, then in English and German; each line opens the screen that retries
 * it; the card passes axe on a tablet (768 px) and on a phone.
 *
 * The two failed runs are written into the run history (`job_runs`) as the queue records a run
 * whose last try failed, with the errors those jobs throw: waiting out their real retries (3 from
 * 5 minutes, 5 from 60 s, doubling) has no place in a browser test. The runs themselves are made
 * to fail for real in tests/server/attention.test.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, type Page, test } from '@playwright/test';
import { defaultLayout } from '../src/server/integrations/partners.ts';
import { e2eDatabase, signIn } from './helpers.ts';

const runIds: string[] = [];
let createdIntegration: number | null = null;

test.beforeAll(async () => {
  const pool = e2eDatabase();
  try {
    const inserted = await pool.query<{ id: number }>(
      `INSERT INTO integrations (partner, enabled, sites, destination, layout) VALUES ('ecash', false, '{}', $1, $2)
       ON CONFLICT (partner) DO NOTHING RETURNING id`,
      [
        { type: 'https', url: 'https://127.0.0.1:9/in', methode: 'POST', entetes: [] },
        defaultLayout('ecash'),
      ],
    );
    createdIntegration = inserted.rows[0]?.id ?? null;
    const { rows } = await pool.query<{ id: number }>("SELECT id FROM integrations WHERE partner = 'ecash'");
    const failed = (kind: string, data: object, attempts: number, error: string) =>
      pool.query<{ id: string }>(
        `INSERT INTO job_runs (kind, data, planned_at, queued_at, started_at, ended_at, status, attempts, error)
         VALUES ($1, $2, now() - interval '2 hours', now(), now(), now(), 'failed', $3, $4) RETURNING id`,
        [kind, data, attempts, error],
      );
    for (const run of [
      await failed(
        'database.autobackup',
        { due: new Date().toISOString() },
        4,
        "EEXIST: file already exists, mkdir '/var/lib/comptoir/backups/auto'",
      ),
      await failed(
        'integration.ecash',
        { integrationId: rows[0]!.id, plannedAt: new Date().toISOString() },
        6,
        'ecash: site 1 2026-12-06: the endpoint answered HTTP 500',
      ),
    ])
      runIds.push(run.rows[0]!.id);
  } finally {
    await pool.end();
  }
});

test.afterAll(async () => {
  const pool = e2eDatabase();
  try {
    await pool.query('DELETE FROM job_runs WHERE id = ANY($1::uuid[])', [runIds]);
    if (createdIntegration !== null)
      await pool.query('DELETE FROM integrations WHERE id = $1', [createdIntegration]);
  } finally {
    await pool.end();
  }
});

async function chooseLanguage(page: Page, language: 'fr' | 'en' | 'de') {
  await page.locator(`.app-header__languages button[lang="${language}"]`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

const LABELS = {
  fr: {
    title: 'À surveiller',
    backup: 'Sauvegarde automatique de la base',
    backupWhy: 'Le dossier ne peut pas être écrit.',
    ecash: 'Intégration e-cash',
    ecashWhy: 'Le partenaire a répondu HTTP 500.',
  },
  en: {
    title: 'Needs attention',
    backup: 'Automatic database backup',
    backupWhy: 'The folder cannot be written.',
    ecash: 'e-cash integration',
    ecashWhy: 'The partner answered HTTP 500.',
  },
  de: {
    title: 'Erfordert Aufmerksamkeit',
    backup: 'Automatische Datenbanksicherung',
    backupWhy: 'In den Ordner kann nicht geschrieben werden.',
    ecash: 'Integration e-cash',
    ecashWhy: 'Der Partner hat mit HTTP 500 geantwortet.',
  },
} as const;

/** The card's two lines in `language`, each with its reason. */
async function expectLines(page: Page, language: keyof typeof LABELS) {
  const l = LABELS[language];
  const card = page.getByRole('region', { name: l.title });
  await expect(card).toBeVisible({ timeout: 30_000 });
  const backup = card.getByRole('listitem').filter({ has: page.getByRole('link', { name: l.backup }) });
  await expect(backup).toContainText(l.backupWhy);
  const ecash = card.getByRole('listitem').filter({ has: page.getByRole('link', { name: l.ecash }) });
  await expect(ecash).toContainText(l.ecashWhy);
}

test('the administrator sees the failed backup and delivery on /home in fr, en and de, and opens their screens', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await expectLines(page, 'fr');
  await chooseLanguage(page, 'en');
  await expectLines(page, 'en');
  await chooseLanguage(page, 'de');
  await expectLines(page, 'de');

  await chooseLanguage(page, 'fr');
  await page.getByRole('link', { name: LABELS.fr.backup }).click();
  await expect(page).toHaveURL(/\/config\/bdd$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Base de données' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: LABELS.fr.ecash }).click();
  await expect(page).toHaveURL(/\/config\/ecash$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Intégration e-cash' })).toBeVisible();
});

for (const [name, device] of [
  ['tablet', { viewport: { width: 768, height: 1024 } }],
  ['phone', devices['Pixel 7']],
] as const) {
  test(`the card passes axe on a ${name}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ ...device });
    const page = await context.newPage();
    await signIn(page);
    await expectLines(page, 'fr');
    await page.waitForLoadState('networkidle');
    const result = await new AxeBuilder({ page })
      .include('.home-widget--attention')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(result.violations.map((v) => `${v.id} ${v.nodes[0]?.html.slice(0, 200)}`)).toEqual([]);
    // Nothing wider than the screen: the lines wrap.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });
}
