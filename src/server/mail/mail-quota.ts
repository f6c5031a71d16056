/**
 * Mail flood limits (issue #32 C.5), counted in PostgreSQL like the sign-in counters (decision
 * record 0020: same table `auth_throttle`, scopes of their own), so they hold across restarts
 * and instances. A count is taken in the caller's transaction: a request that rolls back queued
 * nothing and counts nothing; two requests for one subject wait for each other's row.
 */
import type { Queryable } from '../db/queryable.ts';

/** A mail counter: `mail-reset` (subject: the user id) or `mail-recipient` (subject: the address, lower case). */
export type MailQuotaScope = 'mail-reset' | 'mail-recipient';

/** The limits (decision record 0029): reset mails per user, and mails per recipient, per hour. */
export const MAIL_QUOTAS: Readonly<Record<MailQuotaScope, { max: number; windowSeconds: number }>> = {
  'mail-reset': { max: 5, windowSeconds: 3600 },
  'mail-recipient': { max: 20, windowSeconds: 3600 },
};

/**
 * Counts one mail for (`scope`, `subject`) and answers whether it is within the quota (the
 * `max`-th mail of the window still is). A new window starts when the last one is over.
 */
export async function takeMailQuota(db: Queryable, scope: MailQuotaScope, subject: string): Promise<boolean> {
  const { max, windowSeconds } = MAIL_QUOTAS[scope];
  const { rows } = await db.query<{ failures: number }>(
    `INSERT INTO auth_throttle (scope, subject, failures, window_start) VALUES ($1, $2, 1, now())
     ON CONFLICT (scope, subject) DO UPDATE SET
       failures = CASE WHEN auth_throttle.window_start < now() - make_interval(secs => $3::int)
                       THEN 1 ELSE auth_throttle.failures + 1 END,
       window_start = CASE WHEN auth_throttle.window_start < now() - make_interval(secs => $3::int)
                           THEN now() ELSE auth_throttle.window_start END,
       updated_at = now()
     RETURNING failures`,
    [scope, subject, windowSeconds],
  );
  return rows[0]!.failures <= max;
}
