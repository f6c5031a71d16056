/**
 * Profiles: rights and site scope shared by users (issue #18; SPEC.md §3 Profile, §7 GET
 * bo/infra/getProfils, POST newProfile, saveProfile?id, GET removeProfil?id). Shapes in
 * src/contract/administration.ts.
 *
 * Guarantees:
 * - only rights of contract/rights.ts RIGHTS (`UnknownRight` naming the others), ticket options of
 *   TICKET_OPTIONS, existing sites and companies are stored; titles are unique;
 * - saveProfile replaces the whole profile (the body carries it all, defaults for what is absent);
 * - a profile still held by users is not removed (`InUse` with their logins);
 * - nobody takes CONFIGURATION from their own profile (`SelfChange`), and no save leaves the
 *   chain without an active administrator (`LastAdministrator`);
 * - each change and its audit entry (`profile.create` / `profile.save` / `profile.remove`) share
 *   the caller's transaction. Sessions see the new rights at once: the session check reads the
 *   profile, and its cache is emptied when profiles change (auth/tokens.ts).
 */
import type { z } from 'zod';
import { type Profile, type ProfileInputSchema, TICKET_OPTIONS } from '../../contract/administration.ts';
import { RIGHTS } from '../../contract/rights.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import {
  type AdminActor,
  checkAdministratorsLeft,
  checkIdsExist,
  invalidField,
  isAdministrator,
  lockAdministrators,
  requireAdministrator,
  selfChange,
} from './user-guards.ts';
import {
  adminReach,
  requireProfileAdministered,
  requireRightsHeld,
  requireSitesHeld,
} from './admin-scope.ts';

/** newProfile / saveProfile's body as the contract's schema parsed it (defaults applied). */
export type ProfileInput = z.output<typeof ProfileInputSchema>;

interface ProfileRow {
  id: number;
  titre: string;
  droits: string[];
  criteres: Record<string, unknown>;
  all_sites: boolean;
  restaurant_ids: number[];
  raisons_sociales: string[];
  societes_plus: number[];
  societes_moins: number[];
  options_tickets: Record<string, unknown>;
  profile_caisse: boolean;
  users: number;
}

const PROFILE_SELECT = `SELECT p.id, p.titre, p.droits, p.criteres, p.all_sites, p.restaurant_ids, p.societes_plus,
       p.societes_moins, p.options_tickets, p.profile_caisse,
       (SELECT count(*)::int FROM users u WHERE u.profile_id = p.id) AS users,
       (SELECT coalesce(array_agg(DISTINCT c.raison_sociale ORDER BY c.raison_sociale), '{}')
          FROM sites s JOIN companies c ON c.id = s.company_id
         WHERE (p.all_sites OR s.id = ANY(p.restaurant_ids) OR s.company_id = ANY(p.societes_plus))
           AND NOT s.company_id = ANY(p.societes_moins)) AS raisons_sociales
  FROM profiles p`;

function toProfile(row: ProfileRow): Profile {
  const options = Object.entries(row.options_tickets).filter(([, v]) => typeof v === 'boolean');
  return {
    id: row.id,
    titre: row.titre,
    droits: row.droits,
    criteres: row.criteres,
    allSites: row.all_sites,
    restaurantIds: row.restaurant_ids,
    raisonsSociales: row.raisons_sociales,
    societesPlus: row.societes_plus,
    societesMoins: row.societes_moins,
    optionsTickets: Object.fromEntries(options) as Record<string, boolean>,
    profileCaisse: row.profile_caisse,
    users: row.users,
  };
}

/** Every profile with how many users hold it and the companies its sites belong to, by title. */
export async function listProfiles(db: Queryable): Promise<Profile[]> {
  const { rows } = await db.query<ProfileRow>(`${PROFILE_SELECT} ORDER BY lower(p.titre), p.id`);
  return rows.map(toProfile);
}

async function requireProfile(db: Queryable, id: number): Promise<Profile> {
  const { rows } = await db.query<ProfileRow>(`${PROFILE_SELECT} WHERE p.id = $1`, [id]);
  if (!rows[0]) throw new DomainError('notFound', 'NotFound', `no profile ${id}`);
  return toProfile(rows[0]);
}

/** What the audit log keeps of a profile: every stored field. */
function profileAuditView(p: Profile): Record<string, unknown> {
  return {
    titre: p.titre,
    droits: p.droits,
    allSites: p.allSites,
    restaurantIds: p.restaurantIds,
    societesPlus: p.societesPlus,
    societesMoins: p.societesMoins,
    optionsTickets: p.optionsTickets,
    criteres: p.criteres,
    profileCaisse: p.profileCaisse,
  };
}

const ids = (list: readonly number[]) => [...new Set(list)].sort((a, b) => a - b);

/**
 * Checks a profile's fields.
 * @throws DomainError invalid `UnknownRight` (`details.rights`), `InvalidField` (titre taken,
 *   optionsTicket, restaurantIds, societesIdPlus/Moins).
 */
async function checkProfileInput(db: Queryable, input: ProfileInput, id: number | null): Promise<void> {
  const known = new Set<string>(RIGHTS);
  const unknown = [...new Set(input.droits.filter((d) => !known.has(d)))];
  if (unknown.length > 0) {
    throw new DomainError('invalid', 'UnknownRight', `unknown rights: ${unknown.join(', ')}`, {
      rights: unknown,
    });
  }
  const options = new Set<string>(TICKET_OPTIONS);
  if (Object.keys(input.optionsTicket).some((k) => !options.has(k))) {
    throw invalidField('optionsTicket', `ticket options are ${TICKET_OPTIONS.join(', ')}`);
  }
  const taken = await db.query('SELECT 1 FROM profiles WHERE titre = $1 AND id IS DISTINCT FROM $2', [
    input.titre,
    id,
  ]);
  if (taken.rows.length > 0) throw invalidField('titre', `a profile is titled ${input.titre}`);
  await checkIdsExist(db, 'sites', input.restaurantIds, 'restaurantIds');
  await checkIdsExist(db, 'companies', input.societesIdPlus, 'societesIdPlus');
  await checkIdsExist(db, 'companies', input.societesIdMoins, 'societesIdMoins');
}

/**
 * Nobody grants what they do not hold (issue #32 C.2): the rights `input` adds to `kept` (the
 * profile's rights before the change) and every site it covers must be `actor`'s own.
 * @throws DomainError forbidden `Forbidden` (details.rights or details.sites).
 */
async function checkGrant(db: Queryable, actor: AdminActor, input: ProfileInput, kept: readonly string[]) {
  const reach = await adminReach(db, actor);
  requireRightsHeld(reach, input.droits, kept);
  await requireSitesHeld(
    db,
    reach,
    {
      allSites: input.allSites,
      restaurantIds: input.restaurantIds,
      societesPlus: input.societesIdPlus,
      societesMoins: input.societesIdMoins,
    },
    'profile',
  );
}

/** The row values of `input`, in the column order of the INSERT and UPDATE below. */
function profileValues(input: ProfileInput): unknown[] {
  return [
    input.titre,
    [...new Set(input.droits)],
    input.criteres,
    input.allSites,
    ids(input.restaurantIds),
    ids(input.societesIdPlus),
    ids(input.societesIdMoins),
    input.optionsTicket,
    input.profileCaisse,
  ];
}

/**
 * Creates a profile and writes `profile.create`, in `db`'s transaction.
 * @returns the profile as getProfils answers it.
 * @throws DomainError forbidden `Forbidden`; invalid `UnknownRight`, `InvalidField`.
 */
export async function createProfile(db: Queryable, actor: AdminActor, input: ProfileInput): Promise<Profile> {
  requireAdministrator(actor);
  await checkProfileInput(db, input, null);
  await checkGrant(db, actor, input, []);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO profiles (titre, droits, criteres, all_sites, restaurant_ids, societes_plus, societes_moins,
                           options_tickets, profile_caisse)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    profileValues(input),
  );
  const profile = await requireProfile(db, rows[0]!.id);
  await recordAudit(db, actor, {
    action: 'profile.create',
    targetId: profile.id,
    after: profileAuditView(profile),
  });
  return profile;
}

/** The changed fields of two audit views, as `{ before, after }` holding only those. */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return {
    before: Object.fromEntries(keys.map((k) => [k, before[k]])),
    after: Object.fromEntries(keys.map((k) => [k, after[k]])),
  };
}

/**
 * Replaces profile `id` with `input` and writes `profile.save` (the changed fields), in `db`'s
 * transaction.
 * @returns the profile as saved.
 * @throws DomainError forbidden `Forbidden`; notFound `NotFound`; invalid `UnknownRight`,
 *   `InvalidField`; conflict `SelfChange` (CONFIGURATION taken from one's own profile),
 *   `LastAdministrator`.
 */
export async function saveProfile(
  db: Queryable,
  actor: AdminActor,
  id: number,
  input: ProfileInput,
): Promise<Profile> {
  requireAdministrator(actor);
  const administrators = await lockAdministrators(db);
  await db.query('SELECT 1 FROM profiles WHERE id = $1 FOR UPDATE', [id]);
  const before = await requireProfile(db, id);
  await checkProfileInput(db, input, id);
  await requireProfileAdministered(db, await adminReach(db, actor), id);
  await checkGrant(db, actor, input, before.droits);
  const own = await db.query('SELECT 1 FROM users WHERE id = $1 AND profile_id = $2', [actor.userId, id]);
  if (own.rows.length > 0 && isAdministrator(before.droits) && !isAdministrator(input.droits)) {
    throw selfChange('cannot take the right CONFIGURATION from one’s own profile', administrators);
  }
  await db.query(
    `UPDATE profiles SET titre = $2, droits = $3, criteres = $4, all_sites = $5, restaurant_ids = $6,
            societes_plus = $7, societes_moins = $8, options_tickets = $9, profile_caisse = $10
      WHERE id = $1`,
    [id, ...profileValues(input)],
  );
  await checkAdministratorsLeft(db, administrators);
  const after = await requireProfile(db, id);
  const changed = changes(profileAuditView(before), profileAuditView(after));
  if (Object.keys(changed.after).length > 0) {
    await recordAudit(db, actor, { action: 'profile.save', targetId: id, ...changed });
  }
  return after;
}

/**
 * Removes profile `id` and writes `profile.remove` (its fields as `before`), in `db`'s transaction.
 * @throws DomainError forbidden `Forbidden`; notFound `NotFound`; conflict `InUse` with
 *   `details.users`, the logins of the users holding it.
 */
export async function removeProfile(db: Queryable, actor: AdminActor, id: number): Promise<void> {
  requireAdministrator(actor);
  await db.query('SELECT 1 FROM profiles WHERE id = $1 FOR UPDATE', [id]);
  const profile = await requireProfile(db, id);
  await requireProfileAdministered(db, await adminReach(db, actor), id);
  const { rows } = await db.query<{ login: string }>(
    'SELECT login FROM users WHERE profile_id = $1 ORDER BY lower(login), id',
    [id],
  );
  if (rows.length > 0) {
    const users = rows.map((r) => r.login);
    throw new DomainError('conflict', 'InUse', `profile held by ${users.join(', ')}`, { users });
  }
  await db.query('DELETE FROM profiles WHERE id = $1', [id]);
  await recordAudit(db, actor, { action: 'profile.remove', targetId: id, before: profileAuditView(profile) });
}
