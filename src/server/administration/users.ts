/**
 * Reading the chain's users as administration and "my account" see them (issue #18; SPEC.md §3
 * Utilisateur, §7 GET bo/infra/getUtilisateurs and getUtilisateur?login). Shapes in
 * src/contract/administration.ts.
 *
 * Guarantees: an answer never holds a password, hash or key (activation or reset); a user's
 * `sites` is the same scope the session check computes (auth/scope.ts); `droits` are the
 * profile's. The fields the audit log keeps of a user ({@link userAuditView}) are these same
 * public ones.
 */
import type { Utilisateur } from '../../contract/administration.ts';
import { siteScopeSql } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

interface UserRow {
  id: number;
  login: string;
  email: string | null;
  profile_id: number;
  profile_titre: string;
  active: boolean;
  theme: string | null;
  couleur: string | null;
  societes_plus: number[];
  societes_moins: number[];
  role: string;
  country: string | null;
  language: string | null;
  code_exploitant: string | null;
  droits: string[];
  sites: number[];
  created_at: Date;
}

const USER_SELECT = `SELECT u.id, u.login, u.email, u.profile_id, p.titre AS profile_titre, u.active, u.theme,
       u.couleur, u.societes_plus, u.societes_moins, u.role, u.country, u.language, u.code_exploitant,
       p.droits, ${siteScopeSql('u.id')} AS sites, u.created_at
  FROM users u JOIN profiles p ON p.id = u.profile_id`;

function toUtilisateur(row: UserRow): Utilisateur {
  return {
    id: row.id,
    login: row.login,
    email: row.email,
    profile: row.profile_id,
    profileTitre: row.profile_titre,
    active: row.active,
    theme: row.theme,
    couleur: row.couleur,
    societesPlus: row.societes_plus,
    societesMoins: row.societes_moins,
    role: row.role,
    country: row.country,
    language: row.language,
    codeExploitant: row.code_exploitant,
    sites: row.sites,
    droits: row.droits,
    createdAt: row.created_at.toISOString(),
  };
}

/** Every user of the chain, by login (case-insensitive), then id. */
export async function listUsers(db: Queryable): Promise<Utilisateur[]> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} ORDER BY lower(u.login), u.id`);
  return rows.map(toUtilisateur);
}

/** User `id`, or null when there is none. */
export async function findUserById(db: Queryable, id: number): Promise<Utilisateur | null> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} WHERE u.id = $1`, [id]);
  return rows[0] ? toUtilisateur(rows[0]) : null;
}

/** The user of `login` (exact, as sign-in compares it), or null when there is none. */
export async function findUserByLogin(db: Queryable, login: string): Promise<Utilisateur | null> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} WHERE u.login = $1`, [login]);
  return rows[0] ? toUtilisateur(rows[0]) : null;
}

/**
 * User `id`, read again after a change.
 * @throws DomainError notFound `NotFound` when there is no such user.
 */
export async function requireUser(db: Queryable, id: number): Promise<Utilisateur> {
  const user = await findUserById(db, id);
  if (!user) throw new DomainError('notFound', 'NotFound', `no user ${id}`);
  return user;
}

/**
 * What the audit log keeps of a user: the fields an administrator edits, never a password,
 * hash or key (computed fields such as `sites` and `droits` follow from the profile).
 */
export function userAuditView(user: Utilisateur): Record<string, unknown> {
  return {
    login: user.login,
    email: user.email,
    profile: user.profile,
    active: user.active,
    theme: user.theme,
    couleur: user.couleur,
    societesPlus: user.societesPlus,
    societesMoins: user.societesMoins,
    role: user.role,
    country: user.country,
    language: user.language,
    codeExploitant: user.codeExploitant,
  };
}
