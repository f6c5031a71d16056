/**
 * Password reset by e-mail (SPEC.md §7 `reinit/sendReinitMail`, `reinit/reinitPassword`; §8
 * `userNull`, `expiredToken`, `seeUrMail`; issue #18).
 *
 * Guarantees:
 * - a reset key is 32 random bytes (node:crypto), base64url, sent once in the mail and stored
 *   only as its SHA-256 (like session tokens): a copy of the database cannot be used to reset;
 * - the link points at the configured public address (COMPTOIR_PUBLIC_URL), never at the Host
 *   the request named, so nobody can have a victim's link sent to their own server;
 * - a key works once, expires after `resetMinutes`, and setting a password marks every other
 *   key of the user used too, so an older mail cannot undo a newer reset;
 * - a successful reset revokes all the user's sessions and writes `user.passwordReset` to the
 *   audit log in the same transaction; no password, hash or key goes into the log;
 * - a wrong key and a key of another e-mail answer `expiredToken` alike: the reset form does not
 *   tell whether an e-mail address is known.
 */
import { createHash, randomBytes } from 'node:crypto';
import { passwordProblems } from '../../contract/password.ts';
import { type Language, LanguageSchema } from '../../contract/reports.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { hashPassword } from '../auth/users.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { formatInstant, message } from '../i18n.ts';
import { takeMailQuota } from '../mail/mail-quota.ts';
import { type MailQueue, queueEachOnce } from '../mail/send-once.ts';
import type { MailMessage } from '../mail/transport.ts';

/** Path of the client screen that reads `email` and `key` (SPEC.md §2 `/reinit/changePassword`). */
export const RESET_SCREEN_PATH = '/reinit/changePassword';

/** SHA-256 (hex) of a reset key: what `password_resets.key_hash` holds. */
export function resetKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A fresh reset key: base64url of 32 random bytes (256 bits). */
export function newResetKey(): string {
  return randomBytes(32).toString('base64url');
}

/** What sending a reset link needs from the configuration. */
export interface ResetMailSettings {
  /** Public address of the app without a trailing slash (config.publicUrl). */
  publicUrl: string;
  /** Minutes the link stays valid (config.resetMinutes). */
  resetMinutes: number;
  /** Chain (distribution) name, shown in the mail. */
  chain: string;
  /** IANA zone the expiry time is written in; the server's own by default. */
  timeZone?: string;
}

interface ResetTarget {
  id: number;
  login: string;
  email: string;
  language: string | null;
}

/**
 * The active users `user` names: the one whose login it is, else those whose e-mail it is
 * (compared without case), with an e-mail address to write to.
 */
async function resetTargets(db: Queryable, user: string): Promise<ResetTarget[]> {
  const { rows } = await db.query<ResetTarget & { by_login: boolean }>(
    `SELECT id, login, email, language, login = $1 AS by_login FROM users
      WHERE active AND email IS NOT NULL AND email <> ''
        AND (login = $1 OR lower(email) = lower($1))
      ORDER BY (login = $1) DESC, id`,
    [user],
  );
  const byLogin = rows.filter((r) => r.by_login);
  return byLogin.length > 0 ? byLogin.slice(0, 1) : rows;
}

/** The reset link of `key` for `email`, on the public address. */
export function resetLink(publicUrl: string, email: string, key: string): string {
  const query = new URLSearchParams({ email, key });
  return `${publicUrl}${RESET_SCREEN_PATH}?${query.toString()}`;
}

/** The mail carrying `link` to `target`, in their language (French when none or unknown). */
function resetMessage(
  target: ResetTarget,
  link: string,
  expiresAt: Date,
  settings: ResetMailSettings,
): MailMessage {
  const parsed = LanguageSchema.safeParse(target.language);
  const language: Language = parsed.success ? parsed.data : 'fr';
  const zone = settings.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { date, time } = formatInstant(expiresAt, zone);
  const values = {
    chain: settings.chain,
    login: target.login,
    link,
    minutes: settings.resetMinutes,
    date,
    time,
  };
  return {
    to: [target.email],
    language,
    subject: message(language, 'reset.mail.subject', values),
    text: message(language, 'reset.mail.body', values),
  };
}

/**
 * Queues a reset link mail to the user that `user` names (login, or e-mail address), after
 * storing the key's hash with its expiry through `tx`: the caller's transaction, in which the
 * mail is queued too, so a key is kept if and only if its mail is queued.
 *
 * Enumeration: SPEC.md §8 answers `userNull` for an unknown user, so this call tells whether a
 * login or address exists (and has an e-mail). That is the product's documented behaviour; the
 * route's rate limit bounds how fast anyone can probe it, and a reset still needs the mailbox.
 * @returns `{ code: 'seeUrMail' }` (SPEC.md §8).
 * The mail leaves from the job queue (mail/mail-job.ts), through SMTP or into the `.eml` outbox.
 * @throws DomainError notFound `userNull` when no active user with an e-mail address matches.
 */
export async function sendResetMail(
  tx: Queryable,
  queue: MailQueue,
  user: string,
  settings: ResetMailSettings,
): Promise<{ code: 'seeUrMail' }> {
  const targets = await resetTargets(tx, user.trim());
  if (targets.length === 0)
    throw new DomainError('notFound', 'userNull', 'no such user with an e-mail address');
  const messages: MailMessage[] = [];
  let mailKey = 'reset';
  for (const target of targets) {
    // Flood limit (issue #32 C.5): past the hourly quota the answer is the same, with no new key
    // and no mail; the key mailed last stays the live one.
    if (!(await takeMailQuota(tx, 'mail-reset', String(target.id)))) continue;
    // One live key per user: a new link ends the older ones.
    await tx.query(
      'UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL AND expires_at > now()',
      [target.id],
    );
    const key = newResetKey();
    mailKey += `:${resetKeyHash(key).slice(0, 16)}`;
    const { rows } = await tx.query<{ expires_at: Date }>(
      `INSERT INTO password_resets (key_hash, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING expires_at`,
      [resetKeyHash(key), target.id, settings.resetMinutes],
    );
    const link = resetLink(settings.publicUrl, target.email, key);
    messages.push(resetMessage(target, link, rows[0]!.expires_at, settings));
  }
  // Queued with the keys in `tx`: a mail is queued if and only if its key is kept.
  if (messages.length > 0) await queueEachOnce(tx, queue, messages, mailKey);
  return { code: 'seeUrMail' };
}

/** A reset asked with the link's e-mail and key and the new password. */
export interface ResetRequest {
  email: string;
  resetPasswordKey: string;
  password: string;
}

interface KeyRow {
  user_id: number;
  email: string | null;
  used: boolean;
  expired: boolean;
}

/**
 * The user whose key `request` carries, the key locked for this transaction.
 * @throws DomainError invalid `expiredToken` for an unknown key, a key of another e-mail or an
 *   expired key; `usedToken` for a key already used.
 */
async function userOfKey(tx: Queryable, request: ResetRequest): Promise<number> {
  const { rows } = await tx.query<KeyRow>(
    `SELECT r.user_id, u.email, r.used_at IS NOT NULL AS used, r.expires_at <= now() AS expired
       FROM password_resets r JOIN users u ON u.id = r.user_id
      WHERE r.key_hash = $1 AND u.active
      FOR UPDATE OF r`,
    [resetKeyHash(request.resetPasswordKey)],
  );
  const row = rows[0];
  const sameEmail = row?.email?.toLowerCase() === request.email.trim().toLowerCase();
  if (!row || !sameEmail) throw new DomainError('invalid', 'expiredToken', 'unknown or expired reset key');
  if (row.used) throw new DomainError('invalid', 'usedToken', 'reset key already used');
  if (row.expired) throw new DomainError('invalid', 'expiredToken', 'unknown or expired reset key');
  return row.user_id;
}

/**
 * Sets the password of the user whose reset key `request` carries, through `tx` (the caller's
 * transaction): the argon2id hash, every key of the user marked used, every session revoked, and
 * one audit entry `user.passwordReset` by that user from `address`.
 * @returns `{ code: 'SuccessMod' }` (SPEC.md §8).
 * @throws DomainError invalid `expiredToken` / `usedToken` (see {@link userOfKey});
 *   `PasswordPolicy` with `details.problems` (contract/password.ts) when the password breaks
 *   SPEC.md §5.
 */
export async function resetPassword(
  tx: Queryable,
  request: ResetRequest,
  address: string | null,
): Promise<{ code: 'SuccessMod' }> {
  const userId = await userOfKey(tx, request);
  const problems = passwordProblems(request.password);
  if (problems.length > 0) {
    throw new DomainError('invalid', 'PasswordPolicy', 'password rejected by the policy', { problems });
  }
  const sessionsRevoked = await setPasswordAndSignOut(tx, userId, request.password);
  await tx.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [
    userId,
  ]);
  await recordAudit(
    tx,
    { userId, address },
    { action: 'user.passwordReset', targetId: userId, after: { via: 'emailLink', sessionsRevoked } },
  );
  return { code: 'SuccessMod' };
}

/**
 * Stores the argon2id hash of `password` for user `userId` and deletes all their sessions.
 * @returns how many sessions were revoked.
 */
export async function setPasswordAndSignOut(
  tx: Queryable,
  userId: number,
  password: string,
): Promise<number> {
  await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, await hashPassword(password)]);
  const revoked = await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  return revoked.rowCount ?? 0;
}
