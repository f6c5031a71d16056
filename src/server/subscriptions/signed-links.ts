/**
 * Signed, single-purpose tokens for the links of report e-mails (issue #28): "unsubscribe this
 * recipient from this subscription" (no expiry: a mail read a year later still stops it) and
 * "download this report file" (expires). A token is `base64url(JSON payload).base64url(HMAC-SHA256)`
 * over the payload with the server's link key; the payload names its purpose, so a download
 * token can never unsubscribe and the other way round.
 *
 * The key: there is no key setting, so one is made on first need (32 random bytes) and stored
 * in `server_secrets`; every instance on the same database signs and checks with it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';

/** What a link does, and what it names. Instants are milliseconds since 1970 (UTC). */
export type LinkPayload =
  | { p: 'unsubscribe'; s: number; r: number }
  | { p: 'download'; s: number; t: string; f: string; l: string; e: number };

const KEY_NAME = 'report-mail-links';
const keys = new WeakMap<object, Buffer>();

/** The link key of the database behind `db` (made and stored on first call), cached per `db`. */
export async function linkKey(db: Queryable): Promise<Buffer> {
  const cached = keys.get(db);
  if (cached) return cached;
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    KEY_NAME,
    randomBytes(32).toString('base64'),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [
    KEY_NAME,
  ]);
  const key = Buffer.from(rows[0]!.value, 'base64');
  keys.set(db, key);
  return key;
}

function mac(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(`comptoir-link:${body}`).digest();
}

/** The token of `payload` signed with `key`. */
export function signLink(key: Buffer, payload: LinkPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/**
 * The payload of `token` when it is signed with `key`, is for `purpose` and, for a download,
 * has not expired at `now`; null otherwise (forged, altered, other purpose, expired, garbage).
 */
export function verifyLink<P extends LinkPayload['p']>(
  key: Buffer,
  token: string,
  purpose: P,
  now: Date = new Date(),
): Extract<LinkPayload, { p: P }> | null {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length > 0) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: LinkPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkPayload;
  } catch {
    return null;
  }
  if (payload.p !== purpose) return null;
  if (payload.p === 'download' && payload.e < now.getTime()) return null;
  return payload as Extract<LinkPayload, { p: P }>;
}
