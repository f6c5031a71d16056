/**
 * Saving a user (SPEC.md §7 POST bo/infra/saveUtilisateur?id, issue #18): an administrator's edit
 * of anyone, or a user's own "my account" (e-mail, theme, colour, language and, with their
 * current password, their password).
 *
 * Guarantees:
 * - a user without CONFIGURATION saving another user, or changing a field of their own other
 *   than the self-service ones, is refused (403 `Forbidden`, `details.fields` naming the body's
 *   fields); a field sent unchanged (SPEC.md's form sends every field) is no change;
 * - nobody deactivates or demotes themselves (`SelfChange`, or `LastAdministrator` when they are
 *   the only active administrator) nor leaves the chain without an active administrator;
 * - a password change revokes the user's other sessions (the caller's own is kept when they
 *   change their own password); a deactivation revokes them all;
 * - the update and its audit entries (`user.save` with the changed fields before → after, no key;
 *   `user.passwordChange` without any secret) share the caller's transaction: a refusal writes
 *   nothing.
 */
import type { z } from 'zod';
import type { SaveUtilisateurBodySchema, Utilisateur } from '../../contract/administration.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { revokeUserSessions } from '../auth/tokens.ts';
import { hashPassword, verifyPassword } from '../auth/users.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { checkColour, loginTaken } from './user-create.ts';
import {
  type AdminActor,
  checkAdministratorsLeft,
  checkEmail,
  checkIdsExist,
  checkNewPassword,
  forbidden,
  invalidField,
  isAdministrator,
  lockAdministrators,
  profileRights,
  selfChange,
} from './user-guards.ts';
import { requireUser } from './users.ts';
import {
  adminReach,
  requireCompaniesHeld,
  requireProfileHeld,
  requireUserAdministered,
} from './admin-scope.ts';

/** saveUtilisateur's body as the contract's schema parsed it. */
export type SaveUserBody = z.output<typeof SaveUtilisateurBodySchema>;

/** Columns of the fields a save may change, by their audit (wire) name. */
const COLUMNS = {
  login: 'login',
  email: 'email',
  profile: 'profile_id',
  theme: 'theme',
  couleur: 'couleur',
  societesPlus: 'societes_plus',
  societesMoins: 'societes_moins',
  language: 'language',
  codeExploitant: 'code_exploitant',
  active: 'active',
  activationKey: 'activation_key',
} as const;
type Field = keyof typeof COLUMNS;
type Values = Partial<Record<Field, unknown>>;

/** What a user may change of their own account without CONFIGURATION (issue #18 "my account"). */
const SELF_SERVICE: ReadonlySet<Field> = new Set<Field>(['email', 'theme', 'couleur', 'language']);
/** The body's name of a field where it differs from the audit's (refusals name the body's). */
const BODY_NAMES: Partial<Record<Field, string>> = {
  profile: 'profileId',
  societesPlus: 'societesIdPlus',
  societesMoins: 'societesIdMoins',
};
/** Never written to the audit log. */
const SECRET_FIELDS: ReadonlySet<Field> = new Set<Field>(['activationKey']);

interface CurrentRow extends Record<Field, unknown> {
  password_hash: string;
}

async function lockCurrent(db: Queryable, id: number): Promise<CurrentRow> {
  const { rows } = await db.query<CurrentRow>(
    `SELECT login, email, profile_id AS profile, theme, couleur, societes_plus AS "societesPlus",
            societes_moins AS "societesMoins", language, code_exploitant AS "codeExploitant", active,
            activation_key AS "activationKey", password_hash
       FROM users WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw new DomainError('notFound', 'NotFound', `no user ${id}`);
  return rows[0];
}

const idSet = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const empty = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v.trim());

/** The values `body` asks for, checked one by one (fields absent from the body are left out). */
async function wantedValues(db: Queryable, body: SaveUserBody): Promise<Values> {
  const wanted: Values = {
    login: body.login,
    // An empty e-mail is refused below only when it would clear one (SPEC.md's form sends every
    // field, '' for a user who never had an address).
    email: body.email === undefined ? undefined : body.email.trim() === '' ? null : checkEmail(body.email),
    profile: body.profileId,
    theme: empty(body.theme),
    couleur: body.couleur === undefined ? undefined : checkColour(body.couleur),
    societesPlus: body.societesIdPlus && idSet(body.societesIdPlus),
    societesMoins: body.societesIdMoins && idSet(body.societesIdMoins),
    language: body.language,
    codeExploitant: empty(body.codeExploitant),
    active: body.active,
    activationKey: empty(body.activationKey),
  };
  if (body.profileId !== undefined) await profileRights(db, body.profileId);
  await checkIdsExist(db, 'companies', body.societesIdPlus ?? [], 'societesIdPlus');
  await checkIdsExist(db, 'companies', body.societesIdMoins ?? [], 'societesIdMoins');
  return wanted;
}

/** The fields whose wanted value differs from the current one. */
function changedFields(current: CurrentRow, wanted: Values): Field[] {
  return (Object.keys(COLUMNS) as Field[]).filter((f) => {
    const w = wanted[f];
    if (w === undefined) return false;
    const c = current[f];
    return Array.isArray(w) ? JSON.stringify(w) !== JSON.stringify(idSet(c as number[])) : w !== c;
  });
}

/**
 * Refuses what the actor may not do: another user's save without CONFIGURATION, a non-self-
 * service field of their own, deactivating or demoting themselves.
 */
async function checkAllowed(
  db: Queryable,
  actor: AdminActor,
  self: boolean,
  changed: Field[],
  wanted: Values,
  administrators: number,
) {
  if (!isAdministrator(actor.droits)) {
    const refused = changed.filter((f) => !SELF_SERVICE.has(f));
    if (refused.length > 0) {
      const fields = refused.map((f) => BODY_NAMES[f] ?? f);
      throw forbidden('needs the right CONFIGURATION', { fields });
    }
    return;
  }
  if (!self) return;
  if (changed.includes('active') && wanted.active === false) {
    throw selfChange('cannot deactivate oneself', administrators);
  }
  if (changed.includes('profile') && !isAdministrator(await profileRights(db, wanted.profile as number))) {
    throw selfChange('cannot take the right CONFIGURATION from oneself', administrators);
  }
}

/** Writes the changed fields and their `user.save` audit entry. */
async function writeChanges(
  db: Queryable,
  actor: AdminActor,
  id: number,
  current: CurrentRow,
  wanted: Values,
  changed: Field[],
) {
  if (changed.includes('login')) {
    const taken = await db.query('SELECT 1 FROM users WHERE login = $1 AND id <> $2', [wanted.login, id]);
    if (taken.rows.length > 0) throw loginTaken(String(wanted.login));
  }
  const sets = changed.map((f, i) => `${COLUMNS[f]} = $${i + 2}`);
  await db.query(`UPDATE users SET ${sets.join(', ')} WHERE id = $1`, [id, ...changed.map((f) => wanted[f])]);
  const audited = changed.filter((f) => !SECRET_FIELDS.has(f));
  await recordAudit(db, actor, {
    action: 'user.save',
    targetId: id,
    before: Object.fromEntries(audited.map((f) => [f, current[f]])),
    after: Object.fromEntries(audited.map((f) => [f, wanted[f]])),
  });
}

/**
 * Changes the password of user `id` when `body.updatePassword` asks, revoking their other
 * sessions and writing `user.passwordChange`.
 */
async function changePassword(
  db: Queryable,
  actor: AdminActor,
  id: number,
  current: CurrentRow,
  body: SaveUserBody,
) {
  const password = body.password ?? '';
  checkNewPassword(password, body.rePasswordKey);
  const self = actor.userId === id;
  // One's own password needs the current one (a session left open must not be enough); an
  // administrator setting another user's does not.
  if (self && !(await verifyPassword(current.password_hash, body.currentPassword ?? ''))) {
    throw new DomainError('invalid', 'WrongPassword', 'the current password is wrong');
  }
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, await hashPassword(password)]);
  const ended = await revokeUserSessions(db, id, self ? actor.tokenHash : null);
  await recordAudit(db, actor, {
    action: 'user.passwordChange',
    targetId: id,
    after: { sessionsEnded: ended },
  });
}

/**
 * Another user is changed only within `actor`'s reach (issue #32 C.2, administration/
 * admin-scope.ts): the user's sites in their scope, a new profile and added companies theirs.
 * @throws DomainError forbidden `Forbidden` (details.sites or details.rights).
 */
async function checkWithinReach(
  db: Queryable,
  actor: AdminActor,
  id: number,
  changed: readonly Field[],
  wanted: Values,
): Promise<void> {
  const reach = await adminReach(db, actor);
  await requireUserAdministered(db, reach, id);
  if (changed.includes('profile') && typeof wanted.profile === 'number') {
    await requireProfileHeld(db, reach, wanted.profile);
  }
  if (changed.includes('societesPlus') && Array.isArray(wanted.societesPlus)) {
    await requireCompaniesHeld(db, reach, wanted.societesPlus as number[]);
  }
}

/**
 * Saves user `id` as `actor` asks (see the module comment), in `db`'s transaction.
 * @returns the user as saved.
 * @throws DomainError forbidden `Forbidden`; notFound `NotFound`; invalid `InvalidField` (email,
 *   couleur, profileId, societesIdPlus/Moins), `PasswordPolicy`, `PasswordMismatch`,
 *   `WrongPassword`; conflict `LoginTaken`, `SelfChange`, `LastAdministrator` (issue #18).
 */
export async function saveUtilisateur(
  db: Queryable,
  actor: AdminActor,
  id: number,
  body: SaveUserBody,
): Promise<Utilisateur> {
  const self = actor.userId === id;
  if (!self && !isAdministrator(actor.droits)) throw forbidden("another user's account needs CONFIGURATION");
  // The administrators' lock before the row's, in the same order as every other change.
  const mayDemote = body.active !== undefined || body.profileId !== undefined;
  const administrators = mayDemote ? await lockAdministrators(db) : 0;
  const current = await lockCurrent(db, id);
  const wanted = await wantedValues(db, body);
  const changed = changedFields(current, wanted);
  if (changed.includes('email') && wanted.email === null)
    throw invalidField('email', 'an e-mail is required');
  await checkAllowed(db, actor, self, changed, wanted, administrators);
  if (!self) await checkWithinReach(db, actor, id, changed, wanted);
  if (changed.length > 0) await writeChanges(db, actor, id, current, wanted, changed);
  if (mayDemote) await checkAdministratorsLeft(db, administrators);
  if (changed.includes('active') && wanted.active === false) await revokeUserSessions(db, id);
  if (body.updatePassword) await changePassword(db, actor, id, current, body);
  return requireUser(db, id);
}
