import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblems } from '../../src/contract/password.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { ensureAdministrator } from '../../src/server/auth/users.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'Correct-Horse1';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('sign-in, tokens and sign-out', () => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp({ config: { sessionMinutes: 30 } });
    userId = await t.createUser({
      login: 'marie',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      language: 'de',
      codeExploitant: 'EX1',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const connexion = (login: string, secret: string, headers: Record<string, string> = XRW) =>
    t.app.inject({
      method: 'GET',
      url: `/api/bo/connexion?username=${login}`,
      headers: { ...headers, authorization: basic(login, secret) },
    });

  it('signs in with the right password and answers the user and a 256-bit token', async () => {
    const res = await connexion('marie', PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: userId,
      login: 'marie',
      droits: ['RAPPORTS'],
      currency: 'EUR',
      role: '',
      codeExploitant: 'EX1',
      language: 'de',
    });
    expect(Buffer.from(body.token, 'base64url')).toHaveLength(32);
  });

  it('stores the password as argon2id and only the SHA-256 of the token', async () => {
    const { token } = (await connexion('marie', PASSWORD)).json<{ token: string }>();
    const { rows: users } = await t.database.pool.query('SELECT password_hash FROM users WHERE login = $1', [
      'marie',
    ]);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$/);
    const { rows } = await t.database.pool.query(
      'SELECT token_hash, expires_at FROM sessions WHERE token_hash = $1',
      [sha256(token)],
    );
    expect(rows).toHaveLength(1);
    const { rows: plain } = await t.database.pool.query('SELECT 1 FROM sessions WHERE token_hash = $1', [
      token,
    ]);
    expect(plain).toHaveLength(0);
    const minutes = (rows[0].expires_at.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('refuses a wrong password with 401 badCredentials', async () => {
    const res = await connexion('marie', 'Wrong-Pass1');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'badCredentials' });
  });

  it('refuses an unknown login with the same 401 badCredentials', async () => {
    const res = await connexion('nobody', PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'badCredentials' });
  });

  it('refuses a sign-in without Authorization, or whose username differs from it', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/bo/connexion?username=marie', headers: XRW });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'badCredentials' });
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/bo/connexion?username=paul',
      headers: { ...XRW, authorization: basic('marie', PASSWORD) },
    });
    expect(other.statusCode).toBe(401);
  });

  it('accepts the token as Basic login:token on later calls', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('refuses the password itself, a made-up token, or the token under another login with 401 Unauthorized', async () => {
    const { token } = (await connexion('marie', PASSWORD)).json<{ token: string }>();
    for (const authorization of [
      basic('marie', PASSWORD),
      basic('marie', 'x'.repeat(43)),
      basic('admin', token),
      'Bearer abc',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/bo/getSites?id=${userId}`,
        headers: { ...XRW, authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'Unauthorized' });
    }
  });

  it('refuses an expired token with 401 Unauthorized', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const token = Buffer.from(headers.authorization!.slice(6), 'base64').toString().split(':')[1]!;
    await t.database.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [sha256(token)],
    );
    await t.app.changes.settled(); // written behind the server's back: let its cache hear of it
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'Unauthorized' });
  });

  it('slides the expiry on use, writing it at most once a minute', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const token = Buffer.from(headers.authorization!.slice(6), 'base64').toString().split(':')[1]!;
    const expiry = async () =>
      (
        await t.database.pool.query('SELECT expires_at FROM sessions WHERE token_hash = $1', [sha256(token)])
      ).rows[0].expires_at.getTime();
    const fresh = await expiry();
    await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(await expiry()).toBe(fresh); // used within the minute: not rewritten

    await t.database.pool.query(
      `UPDATE sessions SET expires_at = now() + interval '5 minutes' WHERE token_hash = $1`,
      [sha256(token)],
    );
    await t.app.changes.settled();
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(res.statusCode).toBe(200);
    const minutesLeft = ((await expiry()) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(29);
  });

  it('drops the expired sessions of a user at their next sign-in', async () => {
    await t.database.pool.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('old', $1, now() - interval '1 day')`,
      [userId],
    );
    await t.signIn('marie', PASSWORD);
    const { rows } = await t.database.pool.query(`SELECT 1 FROM sessions WHERE token_hash = 'old'`);
    expect(rows).toHaveLength(0);
  });

  it('revokes the token at logout', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const out = await t.app.inject({ method: 'GET', url: '/api/bo/logout', headers });
    expect(out.statusCode).toBe(204);
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'Unauthorized' });
  });

  it('requires X-Requested-With on API calls with 400 MissingClientHeader, sign-in included', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getSites?id=${userId}`,
      headers: { authorization: headers.authorization! },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MissingClientHeader' });
    const login = await connexion('marie', PASSWORD, {});
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ code: 'MissingClientHeader' });
  });

  it('answers the id of another user with 403 Forbidden', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId + 1}`, headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden' });
  });
});

describe('login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { loginRatePerMinute: 3 } });
    await t.createUser({ login: 'paul', password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 TooManyRequests once a client address has tried more than the limit in a minute', async () => {
    const attempt = (secret: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/bo/connexion?username=paul',
        headers: { ...XRW, authorization: basic('paul', secret) },
        remoteAddress: '10.0.0.7',
      });
    expect((await attempt('Wrong-Pass1')).statusCode).toBe(401);
    expect((await attempt('Wrong-Pass2')).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(200);
    const blocked = await attempt(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'TooManyRequests',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    // Another address is not affected.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/bo/connexion?username=paul',
      headers: { ...XRW, authorization: basic('paul', PASSWORD) },
      remoteAddress: '10.0.0.8',
    });
    expect(other.statusCode).toBe(200);
  });

  it('does not limit the other API calls', async () => {
    for (let i = 0; i < 6; i++) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/version', remoteAddress: '10.0.0.7' })).statusCode,
      ).toBe(200);
    }
  });
});

describe('the administrator of a fresh database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is created once, with every right and every site, and a generated password meeting the policy', async () => {
    const first = await ensureAdministrator(t.database, { adminLogin: 'chef', adminPassword: undefined });
    expect(first.created).toBe(true);
    expect(first.login).toBe('chef');
    expect(passwordProblems(first.generatedPassword!)).toEqual([]);
    const again = await ensureAdministrator(t.database, { adminLogin: 'chef', adminPassword: undefined });
    expect(again).toEqual({ created: false, login: 'chef' });

    const headers = await t.signIn('chef', first.generatedPassword!);
    expect(headers.authorization).toMatch(/^Basic /);
    const { rows } = await t.database.pool.query(
      `SELECT p.titre, p.droits, p.all_sites FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.login = 'chef'`,
    );
    // Every right but LIMITATION_SITE, which would take multi-site reports from them (issue #32 B).
    const droits = RIGHTS.filter((r) => r !== 'LIMITATION_SITE');
    expect(rows[0]).toEqual({ titre: 'Administrateur', droits, all_sites: true });
  });

  it('is not created when any user exists', async () => {
    await t.createUser({ login: 'someone', password: PASSWORD, droits: [] });
    const res = await ensureAdministrator(t.database, { adminLogin: 'other', adminPassword: PASSWORD });
    expect(res.created).toBe(false);
    const { rows } = await t.database.pool.query(`SELECT 1 FROM users WHERE login = 'other'`);
    expect(rows).toHaveLength(0);
  });
});

describe('the administrator with COMPTOIR_ADMIN_PASSWORD', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gets that password and none is generated', async () => {
    const res = await ensureAdministrator(t.database, { adminLogin: 'admin', adminPassword: PASSWORD });
    expect(res).toEqual({ created: true, login: 'admin' });
    await expect(t.signIn('admin', PASSWORD)).resolves.toHaveProperty('authorization');
  });
});
