/**
 * The proof of issue #18 in Chromium, through the screens as an administrator works: the demo
 * administrator makes a profile limited to one site of the demo chain (rights Rapports, Tickets,
 * Comptage) and a user holding it; that user sees only that site in every picker and report,
 * meets the "no access" screen on /config/users and no Administration entry. The administrator
 * mails the user a reset link from /config/users; the mail reaches this spec's SMTP server
 * (e2e/mailbox.ts), its link sets a new password, the user's old session is gone and the new
 * password signs in. A message targeted at that site reaches that user on /home and not a user of
 * another site (made the same way). Every change is in the audit log with before/after, and
 * /config/audit shows it.
 */
import { type Browser, expect, type Locator, type Page, type Response, test } from '@playwright/test';
import { zoneWhoseTodayIsNotParis } from '../tests/helpers/other-day-zone.ts';
import { E2E } from './env.ts';
import { e2eDatabase, signIn } from './helpers.ts';
import { type Mailbox, openMailbox } from './mailbox.ts';

/** Names of this run (the e2e database is new at each run; the suffix keeps reruns apart anyway). */
const RUN = Date.now().toString(36).slice(-5);
const SITE = 'Le Comptoir Annecy Vieille Ville';
const OTHER_SITE = 'Maison Ferrand Nantes Graslin';
/** Every demo site but SITE: none of them may show to the user of SITE. */
const OTHER_SITES = [
  'Le Comptoir Lyon Bellecour',
  'Le Comptoir Grenoble Grenette',
  OTHER_SITE,
  'Maison Ferrand Angers Ralliement',
  'Maison Ferrand La Rochelle Vieux-Port',
];
const ANNECY = { profile: `Annecy ${RUN}`, login: `annecy-${RUN}`, email: `annecy-${RUN}@comptoir.example` };
const NANTES = { profile: `Nantes ${RUN}`, login: `nantes-${RUN}`, email: `nantes-${RUN}@comptoir.example` };
const FIRST_PASSWORD = 'Premier-E2e-2026!';
const NEW_PASSWORD = 'Nouveau-E2e-2026!';
const MESSAGE = `Inventaire d'Annecy vendredi ${RUN}`;

// The administrator's browser in a zone whose today is not the sites' (Europe/Paris): the message
// form's default dates must be Annecy's today, as the server's are, or a message for "today"
// reaches nobody (seen in CI from 23:00 to midnight UTC, when the browser was in UTC).
test.use({ actionTimeout: 15_000, timezoneId: zoneWhoseTodayIsNotParis() });

let mailbox: Mailbox;
/** audit_log's last id before the scenario: its entries are those above. */
let auditBefore = 0;

test.beforeAll(async () => {
  mailbox = await openMailbox();
  const db = e2eDatabase();
  try {
    const { rows } = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM audit_log');
    auditBefore = Number(rows[0]?.id ?? 0);
  } finally {
    await db.end();
  }
});

test.afterAll(async () => {
  await mailbox.close();
});

/** Signs in as `login` on the login screen and waits for /home. */
async function signInAs(page: Page, login: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(login);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/** A page of a new browser context (its own session), on the tablet the project emulates. */
async function newUserPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: E2E.baseURL, viewport: { width: 1024, height: 900 } });
  return context.newPage();
}

/**
 * Ticks a checkbox or radio by the keyboard (focus, Space), as react-aria's visually hidden inputs
 * inside a scrolling dialog are not for the mouse of a test; waits until it is checked.
 */
async function tick(box: Locator): Promise<void> {
  await box.focus();
  await box.page().keyboard.press('Space');
  await expect(box).toBeChecked();
}

/** On /config/profils, a profile of the rights Rapports, Tickets and Comptage limited to `site`. */
async function createProfile(page: Page, titre: string, site: string): Promise<void> {
  await page.goto('/config/profils');
  await expect(page.getByRole('heading', { level: 1, name: 'Profils' })).toBeVisible();
  await page.getByRole('button', { name: 'Nouveau profil' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Titre')).toBeFocused();
  await page.keyboard.type(titre);
  for (const right of ['Rapports', 'Tickets', 'Comptage des caisses']) {
    await tick(dialog.getByRole('checkbox', { name: right, exact: true }));
  }
  await tick(dialog.getByRole('radio', { name: 'Sites choisis' }));
  await tick(dialog.getByRole('group', { name: 'Sites', exact: true }).getByRole('checkbox', { name: site }));
  await dialog.getByRole('button', { name: 'Créer' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: titre })).toContainText('1 site');
}

/** On /config/users, a user of `profile` with an e-mail and FIRST_PASSWORD set now. */
async function createUser(page: Page, user: typeof ANNECY): Promise<void> {
  await page.goto('/config/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Utilisateurs' })).toBeVisible();
  await page.getByRole('button', { name: 'Nouvel utilisateur' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Identifiant/ }).fill(user.login);
  await dialog.getByRole('textbox', { name: /^E-mail/ }).fill(user.email);
  // react-aria's Select names its button by its value, then its label.
  await dialog.getByRole('button', { name: /Choisir un profil/ }).click();
  await page.getByRole('option', { name: user.profile, exact: true }).click();
  await tick(dialog.getByRole('radio', { name: 'Définir un mot de passe maintenant' }));
  // The fieldset's radio group is labelled "Mot de passe" too: the field is its input.
  const inputs = dialog.locator('input');
  await inputs.and(dialog.getByLabel(/^Mot de passe/)).fill(FIRST_PASSWORD);
  await inputs.and(dialog.getByLabel(/^Confirmation du mot de passe/)).fill(FIRST_PASSWORD);
  await dialog.getByRole('button', { name: 'Créer' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: user.login });
  await expect(row).toContainText(user.profile);
  // The login heads the row; its cells: e-mail, profile, state, sites (how many), actions.
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^\D*1$/);
}

/** The options a picker offers once opened by `trigger`, by name. */
async function offered(page: Page, trigger: RegExp): Promise<string[]> {
  await page.getByRole('button', { name: trigger }).first().click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  return (await options.allTextContents()).map((t) => t.trim());
}

/** Step 2: what the user of SITE sees and may open. */
async function checkUserScope(page: Page): Promise<void> {
  await page.goto('/rapports');
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  // One site: named, not offered as a choice (issue #32 D.13).
  await expect(page.getByTestId('only-site')).toHaveText(`Site ${SITE}`);
  await expect(page.getByRole('button', { name: /^Sites/ })).toHaveCount(0);

  // The sales of last week for "all sites": only SITE's rows.
  await page.getByRole('button', { name: /Rapport à générer/ }).click();
  await page.getByRole('option', { name: 'Ventes', exact: true }).click();
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Semaine précédente' }).click();
  await page.getByRole('button', { name: "Afficher à l'écran" }).click();
  const table = page.getByRole('table');
  await expect(table).toContainText(SITE);
  const report = (await table.textContent()) ?? '';
  for (const other of OTHER_SITES) expect(report).not.toContain(other);

  await page.goto('/tickets');
  await expect(page.getByRole('heading', { name: 'Tickets', level: 1 })).toBeVisible();
  await expect(page.getByTestId('only-site')).toHaveText(`Site ${SITE}`);

  await page.goto('/analyses/comptageCaisses');
  await expect(page.getByRole('heading', { name: 'Comptage des caisses', level: 1 })).toBeVisible();
  const countingSites = await offered(page, / Site$/);
  expect(countingSites).toEqual([SITE]);
  await page.keyboard.press('Escape');

  // No Administration entry; /config/users is "no access", not "not found".
  await expect(page.getByRole('link', { name: 'Rapports' }).first()).toBeAttached();
  await expect(page.getByRole('link', { name: 'Administration' })).toHaveCount(0);
  await page.goto('/config/users');
  await expect(
    page.getByRole('alert').filter({ hasText: "Vous n'avez pas les droits nécessaires" }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page introuvable' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Utilisateurs' })).toHaveCount(0);

  // No administration screen asks the server for what this user may not read: no 403 in the
  // console (issue #32 D.14: /config/messages called getMessages and getProfils).
  const refused: string[] = [];
  const onResponse = (r: Response) => {
    if (r.status() === 403) refused.push(new URL(r.url()).pathname);
  };
  page.on('response', onResponse);
  for (const path of CONFIG_SCREENS) {
    await page.goto(path);
    await expect(
      page.getByRole('alert').filter({ hasText: "Vous n'avez pas les droits nécessaires" }),
    ).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  page.off('response', onResponse);
  expect(refused).toEqual([]);
}

/** The administration screens a user without CONFIGURATION meets as "no access". */
const CONFIG_SCREENS = [
  '/config/messages',
  '/config/users',
  '/config/profils',
  '/config/sites',
  '/config/groupes',
  '/config/rules',
  '/config/audit',
];

/**
 * Step 3: the administrator mails a reset link; the user sets NEW_PASSWORD through it, in the
 * browser of `user`, while `elsewhere` (the same user on another device) keeps its old session.
 */
async function resetByLink(admin: Page, user: Page, elsewhere: Page): Promise<void> {
  await admin.goto('/config/users');
  await admin.getByRole('button', { name: `Modifier ${ANNECY.login}` }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByText(SITE)).toBeVisible();
  const before = mailbox.received.length;
  await dialog.getByRole('button', { name: 'Envoyer un lien de réinitialisation' }).click();
  const link = await mailbox.nextLink(before, ANNECY.email);
  expect((await mailbox.nextMail(before, ANNECY.email)).to).toMatchObject({ text: ANNECY.email });
  expect(link.searchParams.get('email')).toBe(ANNECY.email);
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toBeHidden();

  // The link, opened in the user's context (where their old session still is).
  const linkPage = await user.context().newPage();
  await linkPage.goto(`${link.pathname}${link.search}`);
  await expect(linkPage.getByRole('heading', { name: 'Nouveau mot de passe', level: 1 })).toBeVisible();
  await linkPage.getByLabel('Nouveau mot de passe', { exact: false }).first().fill(NEW_PASSWORD);
  await linkPage.getByLabel('Confirmation du nouveau mot de passe').fill(NEW_PASSWORD);
  await linkPage.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(linkPage.getByText('Modification enregistrée.')).toBeVisible();
  await linkPage.close();

  // This browser is back at the login; the other device's next call is refused, and says so.
  await user.goto('/rapports');
  await expect(user.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await expect(user).toHaveURL(new RegExp(`^${E2E.baseURL}/$`));
  // A fresh load of /home asks the messages of the session, which the server no longer knows.
  await elsewhere.goto('/home');
  await expect(elsewhere.getByText('Session expirée : reconnectez-vous.')).toBeVisible();
  await expect(elsewhere.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await elsewhere.context().close();
  // The first password no longer signs in, the new one does.
  await user.getByLabel('Identifiant').fill(ANNECY.login);
  await user.getByLabel('Mot de passe').fill(FIRST_PASSWORD);
  await user.getByRole('button', { name: 'Se connecter' }).click();
  await expect(user.getByText('Identifiant ou mot de passe incorrect.')).toBeVisible();
  await signInAs(user, ANNECY.login, NEW_PASSWORD);
}

/** Step 4: a message to SITE, made on /config/messages. */
async function createMessage(page: Page): Promise<void> {
  await page.goto('/config/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages aux utilisateurs' })).toBeVisible();
  await page.getByRole('button', { name: 'Nouveau message' }).click();
  const form = page.getByTestId('message-form');
  await expect(form.getByLabel('Texte en français')).toBeFocused();
  await page.keyboard.type(MESSAGE);
  // Loaded straight on this screen, the sites picker has its own style (selection.css: a 56 px
  // high trigger in the page's font), not the browser's default button.
  await expect(form.getByRole('button', { name: /^Sites visés/ })).toHaveCSS('min-height', '56px');
  await form.getByRole('button', { name: /^Sites visés/ }).click();
  await form.getByRole('option', { name: new RegExp(`^${SITE}`) }).click();
  await expect(form.getByRole('button', { name: /^Sites visés/ })).toContainText(SITE);
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText(MESSAGE);
}

/** /home of `page`, once its messages have been asked for and answered. */
async function homeWithMessages(page: Page): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().includes('/api/messages/all') && r.ok());
  await page.goto('/home');
  await answered;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** Step 5: the scenario's entries of audit_log, oldest first. */
async function auditEntries(): Promise<{ action: string; before: unknown; after: unknown }[]> {
  const db = e2eDatabase();
  try {
    const { rows } = await db.query<{ action: string; before: unknown; after: unknown }>(
      'SELECT action, before, after FROM audit_log WHERE id > $1 ORDER BY id',
      [auditBefore],
    );
    return rows;
  } finally {
    await db.end();
  }
}

test('an administrator onboards a one-site user: scope, reset link, message and audit log', async ({
  page: admin,
  browser,
}) => {
  test.setTimeout(120_000);
  // 1. The administrator makes the profiles and users.
  await signIn(admin);
  await createProfile(admin, ANNECY.profile, SITE);
  await createUser(admin, ANNECY);
  await createProfile(admin, NANTES.profile, OTHER_SITE);
  await createUser(admin, NANTES);

  // 2. The user of SITE, in a browser of their own.
  const user = await newUserPage(browser);
  await signInAs(user, ANNECY.login, FIRST_PASSWORD);
  await checkUserScope(user);

  // 3. Reset link from /config/users; the same user is signed in on another device too.
  const elsewhere = await newUserPage(browser);
  await signInAs(elsewhere, ANNECY.login, FIRST_PASSWORD);
  await resetByLink(admin, user, elsewhere);

  // 4. A message to SITE: its user sees it, the user of another site does not.
  await createMessage(admin);
  await homeWithMessages(user);
  const banner = user.getByRole('region', { name: "Messages de l'administration" });
  await expect(banner).toContainText(MESSAGE);
  const other = await newUserPage(browser);
  await signInAs(other, NANTES.login, FIRST_PASSWORD);
  await homeWithMessages(other);
  await expect(other.getByText(MESSAGE)).toHaveCount(0);
  await other.context().close();

  // 5. One audit entry per change, each with before/after; the screen shows them.
  const entries = await auditEntries();
  expect(entries.map((e) => e.action)).toEqual([
    'profile.create',
    'user.create',
    'profile.create',
    'user.create',
    'user.passwordReset',
    'message.create',
  ]);
  for (const e of entries) expect(e.before !== null || e.after !== null, e.action).toBe(true);
  const text = JSON.stringify(entries);
  for (const secret of [FIRST_PASSWORD, NEW_PASSWORD]) expect(text).not.toContain(secret);

  await admin.goto('/config/audit');
  await expect(admin.getByRole('heading', { level: 1, name: "Journal d'audit" })).toBeVisible();
  for (const heading of [
    'Profil · création',
    'Utilisateur · création',
    'Utilisateur · mot de passe réinitialisé',
    'Message · création',
  ]) {
    await expect(admin.getByRole('heading', { name: heading }).first()).toBeVisible();
  }
  const journal = admin.getByRole('list', { name: "Entrées du journal d'audit" });
  for (const value of [ANNECY.profile, ANNECY.login, ANNECY.email, MESSAGE]) {
    await expect(journal.getByRole('cell', { name: new RegExp(value) }).first()).toBeVisible();
  }
  // The message's first and last days, as every date on screen: DD/MM/YYYY.
  const message = journal.getByRole('listitem').filter({ hasText: 'Message · création' });
  await expect(message.getByRole('cell', { name: /^\d{2}\/\d{2}\/\d{4}$/ })).toHaveCount(2);

  // Clean up for the specs that follow: the message goes (the administrator reaches every site).
  await admin.goto('/config/messages');
  await admin.getByRole('button', { name: `Supprimer le message « ${MESSAGE} »` }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
  await expect(admin.getByRole('alertdialog')).toBeHidden();
  await expect(admin.getByText(MESSAGE)).toHaveCount(0);
  await user.context().close();
});
