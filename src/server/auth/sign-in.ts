/**
 * Sign-in and sign-out (DESIGN.md §4): a login and password checked against the user's argon2id
 * hash open a session whose token the client then sends instead of the password (tokens.ts);
 * sign-out revokes that token.
 *
 * Guarantees: an unknown login, a wrong password and a login that differs from the one the
 * client named all fail alike (`unauthenticated`, `badCredentials`), in about the same time (a
 * hash is verified even for an unknown login), so a caller cannot learn which logins exist. A
 * deactivated user (`users.active` false, issue #18) is refused the same way, as an unknown login.
 *
 * Brute force (issue #17 item 4, decision record 0020): failures are counted in PostgreSQL per
 * account (the login tried, lower case, known or not, so a lock-out tells nothing about which
 * logins exist) and per client address (security/throttle.ts). A locked account or address is
 * refused with 429 before the password is even looked at, so the answer is the same whether it
 * was right or wrong; the lock-out of an account is written to the audit log (never the password).
 */
import type pg from 'pg';
import type { ConnexionAnswer } from '../../contract/api.ts';
import type { TicketCriterion } from '../../contract/tickets.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { DomainError } from '../errors.ts';
import { accountKey, ipKey, type Throttle } from '../security/throttle.ts';
import { allowedTicketCriteriaSql } from './ticket-criteria.ts';
import { openSession, revokeSession, type SessionCache, type SessionLimits } from './tokens.ts';
import { dummyPasswordHash, verifyPassword } from './users.ts';

interface LoginRow {
  id: number;
  login: string;
  password_hash: string;
  droits: string[];
  role: string;
  currency: string;
  code_exploitant: string | null;
  language: string | null;
  ticket_criteria: TicketCriterion[];
}

/**
 * Prepares sign-in at start-up (the hash verified for unknown logins), so the first sign-in
 * with an unknown login does not take twice as long as a wrong password.
 */
export async function prepareSignIn(): Promise<void> {
  await dummyPasswordHash();
}

/** What a client signs in with. */
export interface Credentials {
  login: string;
  password: string;
  /** The login the client named besides (`username` of bo/connexion); must equal `login` when given. */
  expectedLogin?: string | undefined;
}

function badCredentials(): DomainError {
  return new DomainError('unauthenticated', 'badCredentials', 'incorrect login or password');
}

/** Where a sign-in comes from and what bounds it. */
export interface SignInContext {
  /** Lifetime of the session opened and the cap on a user's live sessions (tokens.ts). */
  limits: SessionLimits;
  /** The brute-force counters (security/throttle.ts), on the pool. */
  throttle: Throttle;
  /** The client address (`request.ip`), counted and written to the audit log. */
  address: string;
}

/**
 * Checks `credentials` and opens a session (sliding, with an absolute end, tokens.ts).
 * @returns the user as GET bo/connexion answers it (SPEC.md §7) with the new session `token`,
 *   handed out this once, and the ticket search criteria the profile allows (`criteresTickets`).
 * @throws DomainError unauthenticated `badCredentials` when the login is unknown or deactivated,
 *   the password wrong, or `expectedLogin` differs from `login`; tooManyAttempts
 *   `TooManyRequests` (with `details.retryAfterSeconds`) while the account or the address is
 *   locked (issue #17 item 4), whatever the password.
 */
export async function signIn(
  pool: pg.Pool,
  credentials: Credentials | null,
  context: SignInContext,
): Promise<ConnexionAnswer> {
  if (!credentials) throw badCredentials();
  if (credentials.expectedLogin !== undefined && credentials.expectedLogin !== credentials.login) {
    throw badCredentials();
  }
  const keys = [accountKey(credentials.login), ipKey(context.address)] as const;
  await context.throttle.requireUnlocked(keys);
  const { rows } = await pool.query<LoginRow>(
    `SELECT u.id, u.login, u.password_hash, p.droits, u.role, u.currency, u.code_exploitant, u.language,
            ${allowedTicketCriteriaSql('p.options_tickets')} AS ticket_criteria
     FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.login = $1 AND u.active`,
    [credentials.login],
  );
  const user = rows[0];
  // Verify even for an unknown login, so the answer time does not reveal which logins exist.
  const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), credentials.password);
  if (!user || !ok) {
    await countFailure(pool, context, credentials.login, user?.id ?? null);
    throw badCredentials();
  }
  await context.throttle.clearFailures(keys[0]);
  const token = await openSession(pool, user.id, context.limits);
  return {
    id: user.id,
    login: user.login,
    droits: user.droits,
    currency: user.currency,
    role: user.role,
    token,
    codeExploitant: user.code_exploitant,
    language: user.language,
    criteresTickets: user.ticket_criteria,
  };
}

/**
 * Counts a failed password of `login` (user `userId`, null when unknown) against the account
 * and the address, and audit-logs the account's lock-out when this failure causes it.
 */
export async function countFailure(
  pool: pg.Pool,
  context: Pick<SignInContext, 'throttle' | 'address'>,
  login: string,
  userId: number | null,
): Promise<void> {
  const [account] = await Promise.all([
    context.throttle.recordFailure(accountKey(login)),
    context.throttle.recordFailure(ipKey(context.address)),
  ]);
  if (!account.lockedNow) return;
  await recordAudit(
    pool,
    { userId: null, address: context.address },
    {
      action: 'user.lockout',
      targetId: userId,
      after: { login, lockouts: account.lockouts, lockedSeconds: account.lockedSeconds },
    },
  );
}

/**
 * Revokes the session of `token` (and drops it from `cache`, so this process stops honouring
 * it at once); nothing happens for an unknown or absent token.
 */
export async function signOut(pool: pg.Pool, token: string | undefined, cache?: SessionCache): Promise<void> {
  if (token !== undefined) await revokeSession(pool, token, cache);
}
