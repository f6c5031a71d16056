/**
 * Creating a user (SPEC.md §7 POST bo/infra/newUtilisateur, issue #18): the query's fields, the
 * body's key/value extras (only USER_EXTRA_KEYS; `code_exploitant` is SPEC.md §3's codeExploitant)
 * and a password from the body (our client) or the query (SPEC.md's). Without a password the user
 * gets a random one nobody knows: they set theirs through a reset link.
 *
 * Guarantees: every refusal comes before the insert and writes nothing; the insert and its audit
 * entry (`user.create`, without secrets) share the caller's transaction.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  type NewUtilisateurBodySchema,
  type NewUtilisateurQuerySchema,
  THEME_COLOURS,
  USER_EXTRA_KEYS,
  type Utilisateur,
} from '../../contract/administration.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { hashPassword } from '../auth/users.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import {
  type AdminActor,
  checkEmail,
  checkIdsExist,
  checkNewPassword,
  invalidField,
  profileRights,
  requireAdministrator,
} from './user-guards.ts';
import { requireUser, userAuditView } from './users.ts';
import { adminReach, requireCompaniesHeld, requireProfileHeld } from './admin-scope.ts';

/** newUtilisateur's query as the contract's schema parsed it. */
export type NewUserQuery = z.output<typeof NewUtilisateurQuerySchema>;
/** newUtilisateur's body as parsed: SPEC.md's list of extras, ours `{ extras, password, … }`, or none. */
export type NewUserBody = z.output<typeof NewUtilisateurBodySchema> | undefined;

/**
 * The extras of `body` as columns.
 * @throws DomainError invalid `UnknownExtra` with `details.keys` when a key is not in USER_EXTRA_KEYS.
 */
export function readExtras(body: NewUserBody): { codeExploitant: string | null } {
  const extras = body === undefined ? [] : Array.isArray(body) ? body : body.extras;
  const known = new Set<string>(USER_EXTRA_KEYS);
  const unknown = [...new Set(extras.map((e) => e.key).filter((k) => !known.has(k)))];
  if (unknown.length > 0) {
    throw new DomainError('invalid', 'UnknownExtra', `unknown extras: ${unknown.join(', ')}`, {
      keys: unknown,
    });
  }
  const code = extras.find((e) => e.key === 'code_exploitant')?.value.trim();
  return { codeExploitant: code ? code : null };
}

/**
 * The password to hash: the body's (preferred: not in a URL), else the query's, checked with its
 * confirmation; a random one (no usable password) when neither is given.
 */
function chosenPassword(query: NewUserQuery, body: NewUserBody): string {
  const fromBody = body !== undefined && !Array.isArray(body) ? body : undefined;
  const password = fromBody?.password || query.password || undefined;
  if (password === undefined) return `${randomBytes(24).toString('base64url')}aA1!`;
  const confirmation = fromBody?.password ? fromBody.rePasswordKey : query.rePasswordKey;
  checkNewPassword(password, confirmation);
  return password;
}

/** A theme colour of SPEC.md §9, or null when empty. */
export function checkColour(couleur: string | undefined | null): string | null {
  if (!couleur) return null;
  if (!(THEME_COLOURS as readonly string[]).includes(couleur)) {
    throw invalidField('couleur', `couleur must be one of ${THEME_COLOURS.join(', ')}`);
  }
  return couleur;
}

/** Checks the query's references and values; answers the e-mail and colour as stored. */
async function checkNewUser(
  db: Queryable,
  query: NewUserQuery,
): Promise<{ email: string | null; couleur: string | null }> {
  const email = query.email === undefined || query.email === '' ? null : checkEmail(query.email);
  const couleur = checkColour(query.couleur);
  await profileRights(db, query.profileId);
  await checkIdsExist(db, 'companies', query.societesIdPlus ?? [], 'societesIdPlus');
  await checkIdsExist(db, 'companies', query.societesIdMoins ?? [], 'societesIdMoins');
  return { email, couleur };
}

/**
 * Creates a user and writes `user.create` to the audit log, in `db`'s transaction.
 * @returns the new user as getUtilisateur answers it.
 * @throws DomainError forbidden `Forbidden` (actor without CONFIGURATION); invalid `UnknownExtra`,
 *   `PasswordPolicy`, `PasswordMismatch`, `InvalidField` (email, couleur, profileId,
 *   societesIdPlus/Moins); conflict `LoginTaken` when the login exists (SPEC.md §5, issue #18).
 */
export async function createUtilisateur(
  db: Queryable,
  actor: AdminActor,
  query: NewUserQuery,
  body: NewUserBody,
): Promise<Utilisateur> {
  requireAdministrator(actor);
  // Nobody gives a profile or companies they do not hold (issue #32 C.2).
  const reach = await adminReach(db, actor);
  await requireProfileHeld(db, reach, query.profileId);
  await requireCompaniesHeld(db, reach, query.societesIdPlus ?? []);
  const { codeExploitant } = readExtras(body);
  const password = chosenPassword(query, body);
  const { email, couleur } = await checkNewUser(db, query);
  const taken = await db.query('SELECT 1 FROM users WHERE login = $1', [query.login]);
  if (taken.rows.length > 0) throw loginTaken(query.login);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (login, password_hash, profile_id, email, role, theme, couleur, societes_plus,
                        societes_moins, country, language, code_exploitant, activation_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (login) DO NOTHING RETURNING id`,
    [
      query.login,
      await hashPassword(password),
      query.profileId,
      email,
      query.role ?? '',
      query.theme || null,
      couleur,
      query.societesIdPlus ?? [],
      query.societesIdMoins ?? [],
      query.country || null,
      query.language ?? null,
      codeExploitant,
      query.activationKey || null,
    ],
  );
  if (!rows[0]) throw loginTaken(query.login); // created meanwhile by another request
  const user = await requireUser(db, rows[0].id);
  await recordAudit(db, actor, { action: 'user.create', targetId: user.id, after: userAuditView(user) });
  return user;
}

/** The refusal of a login that exists (409 `LoginTaken`). */
export function loginTaken(login: string): DomainError {
  return new DomainError('conflict', 'LoginTaken', `the login ${login} exists`, { login });
}
