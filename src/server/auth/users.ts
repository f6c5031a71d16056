/**
 * Users and passwords (DESIGN.md §4): argon2id hashes (@node-rs/argon2, whose default
 * algorithm is argon2id), user creation, and the administrator created on a fresh database
 * (issue #2: "creates the administrator when no user exists, who sees every site").
 */
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { passwordProblems } from '../../contract/password.ts';
import { RIGHTS } from '../../contract/rights.ts';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/connect.ts';
import { profiles, users } from '../db/schema.ts';
import { SITE_LIMIT_RIGHT } from './site-limit.ts';

/** Title of the administrators' profile created on a fresh database. */
export const ADMIN_PROFILE = 'Administrateur';

/** An argon2id PHC string (`$argon2id$v=19$…`) of `password`. */
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches the argon2 PHC string `passwordHash`; false on a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * A hash of a random password, verified when the login is unknown so that an unknown login
 * costs the same time as a wrong password (no user enumeration by timing).
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${randomInt(1e9)}-Aa1!`);
  return dummyHash;
}

/** The database or an open transaction on it. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** What {@link createUser} needs; ids of companies in `societesPlus`/`societesMoins` (SPEC.md §6). */
export interface NewUser {
  login: string;
  password: string;
  profileId: number;
  email?: string | null;
  role?: string;
  currency?: string;
  language?: string | null;
  codeExploitant?: string | null;
  societesPlus?: number[];
  societesMoins?: number[];
}

/**
 * Creates a user with an argon2id hash of `password`.
 * @throws Error listing the policy problems when `password` breaks SPEC.md §5's rules
 *   (`passwordProblems`); the database's unique-violation error when the login exists.
 * @returns the new user's id.
 */
export async function createUser(db: DbOrTx, input: NewUser): Promise<number> {
  const problems = passwordProblems(input.password);
  if (problems.length > 0) throw new Error(`password rejected by the policy: ${problems.join(', ')}`);
  const [row] = await db
    .insert(users)
    .values({
      login: input.login,
      passwordHash: await hashPassword(input.password),
      profileId: input.profileId,
      email: input.email ?? null,
      role: input.role ?? '',
      currency: input.currency ?? 'EUR',
      language: input.language ?? null,
      codeExploitant: input.codeExploitant ?? null,
      societesPlus: input.societesPlus ?? [],
      societesMoins: input.societesMoins ?? [],
    })
    .returning({ id: users.id });
  return row!.id;
}

const PASSWORD_SETS = [
  'ABCDEFGHJKLMNPQRSTUVWXYZ',
  'abcdefghijkmnopqrstuvwxyz',
  '23456789',
  '!#$%*+-=?@_',
] as const;

/**
 * A random 16-character password meeting SPEC.md §5's policy (one character of each class,
 * the rest from all classes, shuffled), without look-alike characters (0/O, 1/l/I).
 */
export function generatePassword(length = 16): string {
  const all = PASSWORD_SETS.join('');
  const chars = PASSWORD_SETS.map((set) => set[randomInt(set.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** What {@link ensureAdministrator} did. */
export interface AdministratorResult {
  /** True when the database had no user and the administrator was created now. */
  created: boolean;
  login: string;
  /** The generated password, only when created now without COMPTOIR_ADMIN_PASSWORD: print it once. */
  generatedPassword?: string;
}

/**
 * When the database holds no user, creates the profile "Administrateur" (every right of
 * RIGHTS, every site present and future) and the user `config.adminLogin` with
 * `config.adminPassword`, or with a generated password returned to be printed once.
 * Does nothing when a user exists (the administrator may have changed their password).
 */
export async function ensureAdministrator(
  database: Database,
  config: Pick<Config, 'adminLogin' | 'adminPassword'>,
  log: (message: string) => void = () => {},
): Promise<AdministratorResult> {
  return database.db.transaction(async (tx) => {
    // Two servers starting on the same database must not both create the administrator.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('comptoir.ensureAdministrator'))`);
    const [any] = await tx.select({ id: users.id }).from(users).limit(1);
    if (any) return { created: false, login: config.adminLogin };
    // Every right but LIMITATION_SITE, which takes from its holder the multi-site reports
    // (auth/site-limit.ts): the chain's administrator reads every site at once (issue #32 B).
    const droits = RIGHTS.filter((right) => right !== SITE_LIMIT_RIGHT);
    await tx
      .insert(profiles)
      .values({ titre: ADMIN_PROFILE, droits, allSites: true })
      .onConflictDoUpdate({ target: profiles.titre, set: { droits, allSites: true } });
    const [profile] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.titre, ADMIN_PROFILE));
    const generatedPassword = config.adminPassword === undefined ? generatePassword() : undefined;
    await createUser(tx, {
      login: config.adminLogin,
      password: config.adminPassword ?? generatedPassword!,
      profileId: profile!.id,
      role: 'ADMIN',
    });
    log(`Administrator "${config.adminLogin}" created (profile ${ADMIN_PROFILE}).`);
    return generatedPassword === undefined
      ? { created: true, login: config.adminLogin }
      : { created: true, login: config.adminLogin, generatedPassword };
  });
}
