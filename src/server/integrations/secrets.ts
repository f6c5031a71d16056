/**
 * Credentials of an HTTPS destination at rest (issue #29, decision 0044): AES-256-GCM through
 * node:crypto, with a 256-bit key derived (HKDF-SHA-256) from the `COMPTOIR_SECRET_KEY` setting.
 * Stored as `v1:<iv>:<tag>:<ciphertext>` (base64). Without the setting nothing can be encrypted:
 * saving credentials is refused (`SecretKeyMissing`) and a stored secret cannot be sent.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The setting is unset: credentials can be neither stored nor read. */
export class SecretKeyMissingError extends Error {
  constructor() {
    super('COMPTOIR_SECRET_KEY is not set: credentials of HTTPS destinations cannot be stored or used');
  }
}

function keyOf(secretKey: string | undefined): Buffer {
  if (!secretKey) throw new SecretKeyMissingError();
  return Buffer.from(hkdfSync('sha256', secretKey, 'comptoir', 'integrations-credentials', 32));
}

/**
 * Encrypts `plain` (UTF-8) with the key derived from `secretKey`.
 * @throws SecretKeyMissingError when `secretKey` is empty or undefined.
 */
export function encryptSecret(secretKey: string | undefined, plain: string): string {
  const key = keyOf(secretKey);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
    .join(':');
}

/**
 * Decrypts what {@link encryptSecret} gave.
 * @throws SecretKeyMissingError without a key; Error when the text was altered or the key changed.
 */
export function decryptSecret(secretKey: string | undefined, stored: string): string {
  const key = keyOf(secretKey);
  const [version, iv, tag, data] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unreadable stored credentials');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
}
