/**
 * A new password set from the server's own command line (`npm run admin -- reset-password LOGIN`,
 * issue #18): the way back in for a self-hosted chain whose only administrator lost their
 * password. Whoever runs it already holds the database, so it asks for nothing more; it leaves
 * the same traces as a reset by e-mail (every session revoked, pending reset links spent, one
 * `user.passwordReset` audit entry, with `via: 'cli'` and no author or address).
 */
import type pg from 'pg';
import { recordAudit } from '../audit/audit-log.ts';
import { generatePassword } from '../auth/users.ts';
import { DomainError } from '../errors.ts';
import { setPasswordAndSignOut } from './password-reset.ts';

/** What {@link resetPasswordFromCli} did: the new password, to print once, and sessions revoked. */
export interface CliReset {
  login: string;
  password: string;
  sessionsRevoked: number;
}

/**
 * Gives user `login` a generated password (auth/users.ts generatePassword: 16 characters meeting
 * SPEC.md §5), in one transaction with its audit entry.
 * @throws DomainError notFound `userNull` when no user has that login (exact, case included).
 */
export async function resetPasswordFromCli(pool: pg.Pool, login: string): Promise<CliReset> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: number; login: string }>(
      'SELECT id, login FROM users WHERE login = $1 FOR UPDATE',
      [login],
    );
    const user = rows[0];
    if (!user) throw new DomainError('notFound', 'userNull', `no user with login "${login}"`);
    const password = generatePassword();
    const sessionsRevoked = await setPasswordAndSignOut(client, user.id, password);
    await client.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [
      user.id,
    ]);
    await recordAudit(
      client,
      { userId: null, address: null },
      { action: 'user.passwordReset', targetId: user.id, after: { via: 'cli', sessionsRevoked } },
    );
    await client.query('COMMIT');
    return { login: user.login, password, sessionsRevoked };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
