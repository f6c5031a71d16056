/**
 * Signing in as a demo user (src/server/demo/catalogue.ts DEMO_USERS) in e2e specs: their
 * passwords are generated at the demo's creation and shown once, so the spec sets a known one in
 * the e2e server's database first (an argon2id hash, as the server writes it), then signs in
 * through the login screen.
 */
import { hash } from '@node-rs/argon2';
import { expect, type Page } from '@playwright/test';
import { e2eDatabase } from './helpers.ts';

/** The password the demo users get in these specs (meets SPEC.md §5's policy). */
export const DEMO_PASSWORD = 'Demo-E2e-2026!';

/** Sets {@link DEMO_PASSWORD} for `login` (a demo user) in the e2e server's database. */
export async function setDemoPassword(login: string): Promise<void> {
  const db = e2eDatabase();
  try {
    const { rowCount } = await db.query('UPDATE users SET password_hash = $2 WHERE login = $1', [
      login,
      await hash(DEMO_PASSWORD),
    ]);
    if (rowCount !== 1) throw new Error(`no demo user ${login}`);
  } finally {
    await db.end();
  }
}

/** Runs `sql` with `params` on the e2e server's database (a profile's rights, a user's data…). */
export async function e2eQuery(sql: string, params: readonly unknown[] = []): Promise<void> {
  const db = e2eDatabase();
  try {
    await db.query(sql, [...params]);
  } finally {
    await db.end();
  }
}

/** Signs in as the demo user `login` on the login screen (French labels) and waits for /home. */
export async function signInAsDemo(page: Page, login: string): Promise<void> {
  await setDemoPassword(login);
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(login);
  await page.getByLabel('Mot de passe').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * The Administrateur profile is made with every right (src/server/auth/users.ts), LIMITATION_SITE
 * too, which makes the administrator choose one site at a time; issue #32 B has it removed from
 * that profile (server side). Specs that walk the administrator's multi-site pickers call this
 * first, to take the administrator as that change leaves them.
 */
export async function adminWithoutOneSiteLimit(): Promise<void> {
  await e2eQuery(
    "UPDATE profiles SET droits = array_remove(droits, 'LIMITATION_SITE') WHERE titre = 'Administrateur'",
  );
}

/** Chooses yesterday as the period of /rapports (today, at dawn, may have no sale yet). */
export async function chooseYesterday(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Hier', exact: true }).click();
}
