/**
 * The unsubscribe link of a report e-mail (issue #28, RFC 8058): without signing in, the holder
 * of a valid `unsubscribe` token stops that subscription for that recipient — and only that.
 * Recorded in the audit log as `subscription.unsubscribe` with no user.
 */
import type { Language } from '../../contract/reports.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { linkKey, verifyLink } from './signed-links.ts';

/** What an unsubscribe link names: the subscription's name, the address, the language of the page. */
export interface UnsubscribeTarget {
  subscriptionId: number;
  recipientId: number;
  libelle: string;
  address: string | null;
  language: Language;
  /** Already unsubscribed. */
  done: boolean;
}

/** What `token` unsubscribes, or null for a forged, altered or other-purpose token or a gone row. */
export async function unsubscribeTarget(db: Queryable, token: string): Promise<UnsubscribeTarget | null> {
  const payload = verifyLink(await linkKey(db), token, 'unsubscribe');
  if (!payload) return null;
  const { rows } = await db.query<Omit<UnsubscribeTarget, 'subscriptionId' | 'recipientId'>>(
    `SELECT s.libelle, coalesce(u.email, r.email) AS address, r.language, sr.unsubscribed_at IS NOT NULL AS done
       FROM report_subscription_recipients sr
       JOIN report_subscriptions s ON s.id = sr.subscription_id
       JOIN report_recipients r ON r.id = sr.recipient_id
       LEFT JOIN users u ON u.id = r.user_id
      WHERE sr.subscription_id = $1 AND sr.recipient_id = $2`,
    [payload.s, payload.r],
  );
  return rows[0] ? { ...rows[0], subscriptionId: payload.s, recipientId: payload.r } : null;
}

/**
 * Stops the subscription of `token` for its recipient (again is harmless); audit entry on the
 * first time, from `address`.
 * @returns the target, or null for a token {@link unsubscribeTarget} refuses.
 */
export async function unsubscribe(
  db: Queryable,
  token: string,
  address: string | null,
): Promise<UnsubscribeTarget | null> {
  const target = await unsubscribeTarget(db, token);
  if (!target) return null;
  if (!target.done) {
    await db.query(
      `UPDATE report_subscription_recipients SET unsubscribed_at = now()
        WHERE subscription_id = $1 AND recipient_id = $2 AND unsubscribed_at IS NULL`,
      [target.subscriptionId, target.recipientId],
    );
    await recordAudit(
      db,
      { userId: null, address },
      {
        action: 'subscription.unsubscribe',
        targetId: target.subscriptionId,
        after: { destinataire: target.recipientId },
      },
    );
  }
  return { ...target, done: true };
}
