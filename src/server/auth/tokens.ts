/**
 * Session tokens (DESIGN.md §4): 256-bit random values handed to the client once, stored only
 * as their SHA-256, expiring `minutes` after the last use (sliding, written at most once a
 * minute so a burst of calls does not write a row per call) but never later than `maxDays`
 * after they were opened (absolute end, issue #17 item 8), revoked at logout, on a password
 * change (but the caller's own), when the user is deactivated or removed, and — the oldest
 * first — when the user opens more than `perUser` of them. A deactivated user's token is
 * refused even before its row goes (`users.active`, issue #18).
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { TicketCriterion } from '../../contract/tickets.ts';
import type { ChangeFeed, TableCache } from '../db/changes.ts';
import type { Queryable } from '../db/queryable.ts';
import type { Session } from './session.ts';
import { siteScopeSql } from './scope.ts';
import { allowedTicketCriteriaSql } from './ticket-criteria.ts';

/** SHA-256 of a token, hex: what the `sessions` table stores. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** How long sessions live (settings COMPTOIR_SESSION_MINUTES and COMPTOIR_SESSION_MAX_DAYS). */
export interface SessionLifetime {
  /** Sliding expiry: minutes after the last use. */
  minutes: number;
  /** Absolute end: days after the session was opened, however much it is used. */
  maxDays: number;
}

/** What {@link openSession} needs: the lifetime and the cap on live sessions per user. */
export interface SessionLimits extends SessionLifetime {
  /** Live sessions one user may hold (COMPTOIR_SESSIONS_PER_USER); the oldest go beyond it. */
  perUser: number;
}

/**
 * Opens a session for `userId` valid `limits.minutes` minutes (never beyond `limits.maxDays`
 * days), dropping the user's expired ones and, beyond `limits.perUser` live ones, the oldest.
 * @returns the token (base64url of 32 random bytes) to send back to the client, once.
 */
export async function openSession(pool: pg.Pool, userId: number, limits: SessionLimits): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Expired sessions of this user go now, so the table does not grow with abandoned tokens.
  await pool.query('DELETE FROM sessions WHERE user_id = $1 AND expires_at <= now()', [userId]);
  await pool.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at)
     VALUES ($1, $2, least(now() + make_interval(mins => $3), now() + make_interval(days => $4)))`,
    [tokenHash(token), userId, limits.minutes, limits.maxDays],
  );
  // After the insert, so two sign-ins at once still leave at most perUser (each keeps the newest).
  await pool.query(
    `DELETE FROM sessions WHERE token_hash IN (
       SELECT token_hash FROM sessions WHERE user_id = $1
        ORDER BY created_at DESC, token_hash OFFSET $2)`,
    [userId, limits.perUser],
  );
  return token;
}

/**
 * Checked sessions by token hash (db/changes.ts): users, profiles, sites and companies make the
 * session's rights and scope; sessions, its end. Entries hold the expiry read from the database.
 */
export type SessionCache = TableCache<CachedSession>;

/**
 * A checked session, when it expires (ms since the epoch, from `sessions.expires_at`) and when
 * it was opened (`sessions.created_at`), from which its absolute end follows.
 */
export interface CachedSession {
  session: Session;
  expiresAt: number;
  createdAt: number;
}

/** The tables a {@link SessionCache} must be emptied on. */
export const SESSION_TABLES = ['sessions', 'users', 'profiles', 'sites', 'companies'] as const;

/** A session cache on `feed` (one per server). */
export function sessionCache(feed: ChangeFeed): SessionCache {
  // A hit waits for the feed to catch up: a token revoked through another server is refused
  // from that server's answer on (issue #32 C.3).
  return feed.cache<CachedSession>(SESSION_TABLES, { caughtUp: true });
}

/** Deletes the session of `token` (and drops it from `cache`); nothing happens when it does not exist. */
export async function revokeSession(pool: pg.Pool, token: string, cache?: SessionCache): Promise<void> {
  const hashed = tokenHash(token);
  await pool.query('DELETE FROM sessions WHERE token_hash = $1', [hashed]);
  cache?.forget(hashed);
}

/**
 * Ends every session of user `userId` but the one whose token hash is `keepTokenHash` (the
 * caller's own, after changing their password), in `db`'s transaction when it is one. Caches
 * learn it through the change feed once committed (migration 0007's trigger on `sessions`).
 * @returns how many sessions were ended.
 */
export async function revokeUserSessions(
  db: Queryable,
  userId: number,
  keepTokenHash: string | null = null,
): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR token_hash <> $2)',
    [userId, keepTokenHash],
  );
  return rowCount ?? 0;
}

interface SessionRow {
  user_id: number;
  login: string;
  droits: string[];
  role: string;
  currency: string;
  code_exploitant: string | null;
  language: string | null;
  expires_at: Date;
  created_at: Date;
  site_ids: number[];
  ticket_criteria: TicketCriterion[];
}

/**
 * The session check: a named (prepared) statement, so each pool connection parses and plans it
 * once rather than on every call (decision record 0007).
 */
const SESSION_CHECK_SQL = `SELECT u.id AS user_id, u.login, p.droits, u.role, u.currency, u.code_exploitant, u.language,
            s.expires_at, s.created_at, ${siteScopeSql('u.id')} AS site_ids,
            ${allowedTicketCriteriaSql('p.options_tickets')} AS ticket_criteria
       FROM sessions s JOIN users u ON u.id = s.user_id JOIN profiles p ON p.id = u.profile_id
      WHERE s.token_hash = $1 AND u.login = $2 AND s.expires_at > now() AND u.active
        AND s.created_at > now() - make_interval(days => $3)`;

async function readSession(
  pool: pg.Pool,
  hashed: string,
  login: string,
  maxDays: number,
): Promise<CachedSession | null> {
  const { rows } = await pool.query<SessionRow>({
    name: 'comptoir_session_check',
    text: SESSION_CHECK_SQL,
    values: [hashed, login, maxDays],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    expiresAt: row.expires_at.getTime(),
    createdAt: row.created_at.getTime(),
    session: {
      userId: row.user_id,
      login: row.login,
      droits: row.droits,
      role: row.role,
      currency: row.currency,
      codeExploitant: row.code_exploitant,
      language: row.language,
      siteIds: row.site_ids,
      ticketCriteria: row.ticket_criteria,
    },
  };
}

/**
 * The session of `login` holding `token`, or null when the token is unknown, expired, or
 * belongs to another login. Pushes the expiry to now + `lifetime.minutes`, but never beyond
 * `lifetime.maxDays` after the session opened, when that moves it by more than a minute. With
 * `cache`, a session checked before is not read again until one of {@link SESSION_TABLES}
 * changes (or a minute passes): the check then costs no round trip.
 * The returned session is shared with later calls: read-only.
 */
export async function resolveSession(
  pool: pg.Pool,
  login: string,
  token: string,
  lifetime: SessionLifetime,
  cache?: SessionCache,
): Promise<Session | null> {
  const hashed = tokenHash(token);
  const read = () => readSession(pool, hashed, login, lifetime.maxDays);
  const found = cache ? await cache.get(hashed, read) : await read();
  if (!found || found.session.login !== login) return null;
  const now = Date.now();
  const endsAt = found.createdAt + lifetime.maxDays * 86_400_000;
  // The absolute end too: a session slid before the cap existed may expire later than it.
  if (found.expiresAt <= now || endsAt <= now) {
    cache?.forget(hashed);
    return null;
  }
  if (Math.min(now + lifetime.minutes * 60_000, endsAt) - found.expiresAt > 60_000) {
    const { rows } = await pool.query<{ expires_at: Date }>(
      `UPDATE sessions SET expires_at = least(now() + make_interval(mins => $2), created_at + make_interval(days => $3))
        WHERE token_hash = $1 RETURNING expires_at`,
      [hashed, lifetime.minutes, lifetime.maxDays],
    );
    const slid = rows[0];
    if (!slid) {
      cache?.forget(hashed); // revoked meanwhile
      return null;
    }
    found.expiresAt = slid.expires_at.getTime();
  }
  return found.session;
}

/**
 * Splits `Authorization: Basic base64(login:secret)`; null when absent or malformed, and when
 * it does not decode to valid UTF-8 without NUL (PostgreSQL refuses a NUL in text): such a
 * header is no credentials, so the call answers 401 like any other (issue #17 item 1).
 * The secret is the password at login and the token afterwards (DESIGN.md §4).
 */
export function parseBasic(header: string | undefined): { login: string; secret: string } | null {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(m[1]!, 'base64'));
  } catch {
    return null;
  }
  if (text.includes('\u0000')) return null;
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { login: text.slice(0, colon), secret: text.slice(colon + 1) };
}
