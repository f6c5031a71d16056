/**
 * Password reset by e-mail (SPEC.md §7 reinit/*, §8 userNull / expiredToken / seeUrMail; issue
 * #18) through the real app on a fresh PostgreSQL, the mail received by a real SMTP server on a
 * loopback port and read with mailparser.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail } from '../../helpers/smtp.ts';

const PASSWORD = 'Ancien-Mot2passe';
const NEW_PASSWORD = 'Nouveau-Mot2passe!';
const PUBLIC_URL = 'https://comptoir.example.com/chaine';

let mailbox: TestMailbox;
let t: TestApp;
let marieId: number;
let hansId: number;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({
    config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, distribution: 'Chaîne Test' },
  });
  marieId = await t.createUser({ login: 'marie', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
  hansId = await t.createUser({
    login: 'hans',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    allSites: true,
    language: 'de',
  });
  await t.createUser({ login: 'sans-mail', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
  await t.database.pool.query(`UPDATE users SET email = 'Marie.Dupont@example.com' WHERE id = $1`, [marieId]);
  await t.database.pool.query(`UPDATE users SET email = 'hans@example.de' WHERE id = $1`, [hansId]);
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});
beforeEach(() => {
  mailbox.reset();
});

const PUBLIC = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };

function sendMail(user: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    url: `/api/reinit/sendReinitMail?user=${encodeURIComponent(user)}`,
    headers: { ...PUBLIC, ...headers },
  });
}

function reinit(fields: { email: string; resetPasswordKey: string; password: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reinit/reinitPassword',
    headers: PUBLIC,
    payload: fields,
  });
}

/** The link of the one mail received (waiting for it: it leaves from the job queue), and its e-mail and key. */
async function receivedLink(): Promise<{ link: URL; email: string; key: string }> {
  await waitForMail(mailbox, 1);
  expect(mailbox.received).toHaveLength(1);
  const match = /https?:\/\/\S+/.exec(mailbox.received[0]!.text ?? '');
  expect(match).not.toBeNull();
  const link = new URL(match![0]);
  return { link, email: link.searchParams.get('email')!, key: link.searchParams.get('key')! };
}

/** Asks a link for `user` and answers its e-mail and key. */
async function linkFor(user: string): Promise<{ email: string; key: string }> {
  mailbox.received.length = 0;
  const res = await sendMail(user);
  expect(res.statusCode).toBe(200);
  return receivedLink();
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('reinit/sendReinitMail', () => {
  it('mails a link to the public address, in French by default, and keeps only the key’s hash', async () => {
    // A forged Host must not change where the link points (reset-link poisoning).
    const res = await sendMail('marie', { host: 'evil.example.net' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'seeUrMail' });
    const { link, email, key } = await receivedLink();
    const mail = mailbox.received[0]!;
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : null).toBe(
      'Marie.Dupont@example.com',
    );
    expect(mail.subject).toBe('Chaîne Test — réinitialisation de votre mot de passe');
    expect(mail.text).toContain('Bonjour marie');
    expect(mail.text).toContain('valable 60 minutes');
    expect(mail.text).toMatch(/jusqu'au \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/);
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/reinit/changePassword`);
    expect(email).toBe('Marie.Dupont@example.com');
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    // The HTML alternative (mail/layout.ts), in French, with the link as a button.
    expect(mail.html).toContain('lang="fr"');
    expect(mail.html).toContain('Ouvrir le lien');
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reinit/changePassword?email=`);

    const { rows } = await t.database.pool.query(
      `SELECT key_hash, extract(epoch FROM expires_at - created_at)::int AS seconds, used_at
         FROM password_resets WHERE user_id = $1`,
      [marieId],
    );
    expect(rows).toEqual([{ key_hash: sha256(key), seconds: 3600, used_at: null }]);
  });

  it('finds the user by e-mail address whatever its case, and writes in their language', async () => {
    const res = await sendMail('HANS@example.DE');
    expect(res.statusCode).toBe(200);
    expect((await receivedLink()).email).toBe('hans@example.de');
    const mail = mailbox.received[0]!;
    expect(mail.subject).toBe('Chaîne Test — Passwort zurücksetzen');
    expect(mail.text).toContain('Hallo hans');
    expect(mail.html).toContain('lang="de"');
    expect(mail.html).toContain('Link öffnen');
  });

  it('answers 404 userNull for an unknown user or one without an e-mail address, and mails nothing', async () => {
    for (const user of ['personne', 'nobody@example.com', 'sans-mail']) {
      const res = await sendMail(user);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'userNull' });
    }
    expect(mailbox.received).toEqual([]);
  });

  it('answers once the mail is queued: a refusing mail server makes the mail retry, not the request fail', async () => {
    mailbox.refuse(true);
    const res = await sendMail('marie');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'seeUrMail' });
    const end = Date.now() + 15_000;
    for (;;) {
      const { rows } = await t.database.pool.query(
        `SELECT 1 FROM job_runs r JOIN job_mails m ON r.data = jsonb_build_object('key', m.key, 'recipients', m.recipients)
          WHERE r.kind = 'mail.send' AND r.status = 'retrying' AND m.recipients = 'Marie.Dupont@example.com'`,
      );
      if (rows.length > 0) break;
      if (Date.now() > end) throw new Error('the refused mail was not retried');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(mailbox.received).toEqual([]);
    mailbox.refuse(false);
  });

  it('has no HEAD twin (a HEAD would mail too)', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/api/reinit/sendReinitMail?user=marie',
      headers: PUBLIC,
    });
    expect(res.statusCode).toBe(404);
    expect(mailbox.received).toEqual([]);
  });
});

describe('reinit/reinitPassword', () => {
  it('sets the password, revokes every session, works once and writes the audit log without secrets', async () => {
    const sessions: AuthHeaders[] = [await t.signIn('marie', PASSWORD), await t.signIn('marie', PASSWORD)];
    const older = await linkFor('marie');
    const { email, key } = await linkFor('marie');

    const res = await reinit({ email, resetPasswordKey: key, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'SuccessMod' });
    await t.app.changes.settled();

    for (const headers of sessions) {
      const me = await t.app.inject({ url: '/api/bo/getSites', headers });
      expect(me.statusCode).toBe(401);
    }
    await expect(t.signIn('marie', PASSWORD)).rejects.toThrow(/401/);
    await t.signIn('marie', NEW_PASSWORD);

    const again = await reinit({ email, resetPasswordKey: key, password: 'Encore-1-autre!' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'usedToken' });
    // The older link of the same user no longer works either.
    const old = await reinit({ email, resetPasswordKey: older.key, password: 'Encore-1-autre!' });
    expect(old.json()).toMatchObject({ code: 'usedToken' });

    const { rows } = await t.database.pool.query(
      `SELECT user_id, action, kind, target_id, before, after, address FROM audit_log
        WHERE action = 'user.passwordReset' AND target_id = $1`,
      [String(marieId)],
    );
    expect(rows).toEqual([
      {
        user_id: marieId,
        action: 'user.passwordReset',
        kind: 'user',
        target_id: String(marieId),
        before: null,
        after: { via: 'emailLink', sessionsRevoked: 2 },
        address: '127.0.0.1',
      },
    ]);
    const logged = JSON.stringify(rows);
    for (const secret of [NEW_PASSWORD, key, sha256(key), '$argon2']) expect(logged).not.toContain(secret);
  });

  it('answers expiredToken alike for an unknown key and for a key given with another e-mail', async () => {
    const { key } = await linkFor('hans');
    const unknown = await reinit({
      email: 'hans@example.de',
      resetPasswordKey: 'x'.repeat(43),
      password: NEW_PASSWORD,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'expiredToken' });
    const otherEmail = await reinit({
      email: 'Marie.Dupont@example.com',
      resetPasswordKey: key,
      password: NEW_PASSWORD,
    });
    expect(otherEmail.statusCode).toBe(400);
    expect(otherEmail.json()).toMatchObject({ code: 'expiredToken' });
  });

  it('answers expiredToken once the key has expired', async () => {
    const { email, key } = await linkFor('hans');
    await t.database.pool.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE key_hash = $1`,
      [sha256(key)],
    );
    const res = await reinit({ email, resetPasswordKey: key, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'expiredToken' });
  });

  it('refuses a password breaking the policy with what it lacks, and the key still works after', async () => {
    const { email, key } = await linkFor('hans');
    const weak = await reinit({ email, resetPasswordKey: key, password: 'court' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      code: 'PasswordPolicy',
      details: { problems: ['tooShort', 'noUpper', 'noDigit', 'noSpecial'] },
    });
    // SPEC.md §7's GET form does the same as the POST.
    const query = new URLSearchParams({ email, resetPasswordKey: key, password: NEW_PASSWORD });
    const res = await t.app.inject({ url: `/api/reinit/reinitPassword?${query}`, headers: PUBLIC });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'SuccessMod' });
    await t.signIn('hans', NEW_PASSWORD);
  });
});

describe('rate limit and settings', () => {
  it('limits both public calls to COMPTOIR_LOGIN_RATE a minute per address', async () => {
    const limited = await createTestApp({ config: { loginRatePerMinute: 2 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({ url: '/api/reinit/sendReinitMail?user=x', headers: PUBLIC });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([404, 404, 429]);
      const body = { email: 'a@b.c', resetPasswordKey: 'k', password: 'p' };
      const posts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/reinit/reinitPassword',
          headers: PUBLIC,
          payload: body,
        });
        posts.push(res.statusCode);
      }
      expect(posts).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });

  it('reads COMPTOIR_RESET_MINUTES and COMPTOIR_PUBLIC_URL, defaulting to 60 and http://localhost:<PORT>', () => {
    const defaults = loadConfig({ PORT: '8093' }, false);
    expect(defaults.resetMinutes).toBe(60);
    expect(defaults.publicUrl).toBe('http://localhost:8093');
    const set = loadConfig(
      { COMPTOIR_RESET_MINUTES: '15', COMPTOIR_PUBLIC_URL: 'https://bo.example.com/' },
      false,
    );
    expect(set.resetMinutes).toBe(15);
    expect(set.publicUrl).toBe('https://bo.example.com');
    expect(() => loadConfig({ COMPTOIR_PUBLIC_URL: 'bo.example.com' }, false)).toThrow(/COMPTOIR_PUBLIC_URL/);
  });
});
