/**
 * The demo chain's users besides the administrator (issue #18 "Demo chain", catalogue.ts
 * DEMO_USERS): each gets a profile of its own holding its rights and site scope, and a password
 * generated here (auth/users.ts generatePassword, SPEC.md §5's policy) and stored as an argon2id
 * hash only. The clear passwords are returned once for the start banner (cli/start.ts) and never
 * written anywhere else.
 */
import type pg from 'pg';
import { generatePassword, hashPassword } from '../auth/users.ts';
import { DEMO_USERS, type DemoUserSpec } from './catalogue.ts';

/** A demo user created now: the login and the generated password, to be shown once. */
export interface DemoUser {
  login: string;
  password: string;
  /** Who they are and what they can do (catalogue.ts). */
  description: string;
}

/** The profile columns of `spec`'s scope: its own sites, its added companies, or every site. */
function scopeColumns(
  spec: DemoUserSpec,
  siteIds: readonly number[],
  companyIds: readonly number[],
): { allSites: boolean; restaurantIds: number[]; societesPlus: number[] } {
  if (spec.scope === 'all') return { allSites: true, restaurantIds: [], societesPlus: [] };
  if ('site' in spec.scope) {
    return { allSites: false, restaurantIds: [siteIds[spec.scope.site] as number], societesPlus: [] };
  }
  return { allSites: false, restaurantIds: [], societesPlus: [companyIds[spec.scope.company] as number] };
}

/**
 * The demo user `login`'s e-mail address, on `example.com` (reserved for examples, RFC 2606), so
 * a password reset works for them; without SMTP_URL the mail lands in the outbox (#32 D.2).
 */
export function demoEmail(login: string): string {
  return `${login}@example.com`;
}

/**
 * Creates the demo users and their profiles through `client` (the demo's transaction), for the
 * demo sites `siteIds` and companies `companyIds` (in catalogue order). A login or profile title
 * that already exists is left as it is and its user is not returned (no password to show).
 * @returns the users created now, with their generated passwords.
 * @throws the database's error.
 */
export async function createDemoUsers(
  client: pg.ClientBase,
  siteIds: readonly number[],
  companyIds: readonly number[],
): Promise<DemoUser[]> {
  const created: DemoUser[] = [];
  for (const spec of DEMO_USERS) {
    const scope = scopeColumns(spec, siteIds, companyIds);
    const { rows: profile } = await client.query<{ id: number }>(
      `INSERT INTO profiles (titre, droits, all_sites, restaurant_ids, societes_plus)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (titre) DO NOTHING RETURNING id`,
      [spec.profile, spec.droits, scope.allSites, scope.restaurantIds, scope.societesPlus],
    );
    if (!profile[0]) continue;
    const password = generatePassword();
    const { rowCount } = await client.query(
      `INSERT INTO users (login, password_hash, profile_id, language, currency, email)
       VALUES ($1, $2, $3, 'fr', 'EUR', $4) ON CONFLICT (login) DO NOTHING`,
      [spec.login, await hashPassword(password), profile[0].id, demoEmail(spec.login)],
    );
    if (rowCount) created.push({ login: spec.login, password, description: spec.description });
  }
  return created;
}
