/**
 * Sign-in failures counted in PostgreSQL (issue #17 item 4, decision record 0020): per account
 * with a growing lock-out, per address, the same answer for a right and a wrong password while
 * locked, audit-logged; the own-password check of saveUtilisateur counted too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'Correct-Horse1';

interface ThrottleRow {
  failures: number;
  lockouts: number;
  locked_seconds: number | null;
}

/** The counter of (scope, subject), with the seconds its lock has left (null when none). */
async function counter(t: TestApp, scope: string, subject: string): Promise<ThrottleRow | undefined> {
  const { rows } = await t.database.pool.query<ThrottleRow>(
    `SELECT failures, lockouts,
            CASE WHEN locked_until > now() THEN extract(epoch FROM locked_until - now())::float8 END AS locked_seconds
       FROM auth_throttle WHERE scope = $1 AND subject = $2`,
    [scope, subject],
  );
  return rows[0];
}

/** Ends the lock of (scope, subject) as if its time had passed. */
async function expireLock(t: TestApp, scope: string, subject: string): Promise<void> {
  await t.database.pool.query(
    `UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE scope = $1 AND subject = $2`,
    [scope, subject],
  );
}

function attempt(t: TestApp, login: string, secret: string, address = '10.0.0.1') {
  return t.app.inject({
    method: 'GET',
    url: `/api/bo/connexion?username=${encodeURIComponent(login)}`,
    headers: { ...XRW, authorization: basic(login, secret) },
    remoteAddress: address,
  });
}

async function failTimes(t: TestApp, login: string, n: number, address = '10.0.0.1'): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await attempt(t, login, `Wrong-Pass${i}!`, address)).statusCode);
  return statuses;
}

describe('sign-in failures per account', () => {
  let t: TestApp;
  let paulId: number;
  beforeAll(async () => {
    t = await createTestApp();
    paulId = await t.createUser({ login: 'paul', password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('five wrong passwords lock the account for a minute: right and wrong passwords then get the same 429', async () => {
    expect(await failTimes(t, 'paul', 5)).toEqual([401, 401, 401, 401, 401]);
    const right = await attempt(t, 'paul', PASSWORD);
    const wrong = await attempt(t, 'paul', 'Wrong-Pass9!');
    const elsewhere = await attempt(t, 'paul', PASSWORD, '10.9.9.9'); // the account, not the address
    for (const res of [right, wrong, elsewhere]) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'TooManyRequests' });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    expect(right.body.replace(/\d+/g, '#')).toBe(wrong.body.replace(/\d+/g, '#'));
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM sessions`);
    expect(rows[0].n).toBe(0);
  });

  it('writes the lock-out to the audit log, never a password tried', async () => {
    const { rows } = await t.database.pool.query(
      `SELECT user_id, target_id, after, address FROM audit_log WHERE action = 'user.lockout'`,
    );
    expect(rows).toEqual([
      {
        user_id: null,
        target_id: String(paulId),
        after: { login: 'paul', lockouts: 1, lockedSeconds: 60 },
        address: '10.0.0.1',
      },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/Wrong-Pass|Correct-Horse/);
  });

  it('doubles the lock-out each time, up to an hour', async () => {
    await expireLock(t, 'account', 'paul');
    await failTimes(t, 'paul', 5);
    expect((await counter(t, 'account', 'paul'))!.locked_seconds).toBeGreaterThan(110);
    expect((await counter(t, 'account', 'paul'))!.locked_seconds).toBeLessThanOrEqual(120);
    const res = await attempt(t, 'paul', PASSWORD);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(110);

    await expireLock(t, 'account', 'paul');
    await t.database.pool.query(`UPDATE auth_throttle SET lockouts = 9 WHERE subject = 'paul'`);
    await failTimes(t, 'paul', 5);
    const capped = (await counter(t, 'account', 'paul'))!;
    expect(capped.lockouts).toBe(10);
    expect(capped.locked_seconds).toBeGreaterThan(3590);
    expect(capped.locked_seconds).toBeLessThanOrEqual(3600);
  });

  it('a success resets the failures but not the lock-outs, which a quiet day forgets', async () => {
    await expireLock(t, 'account', 'paul');
    expect(await failTimes(t, 'paul', 4)).toEqual([401, 401, 401, 401]);
    expect((await attempt(t, 'paul', PASSWORD)).statusCode).toBe(200);
    expect(await counter(t, 'account', 'paul')).toMatchObject({ failures: 0, lockouts: 10 });
    expect(await failTimes(t, 'paul', 4)).toEqual([401, 401, 401, 401]); // counted from 0 again
    await t.database.pool.query(
      `UPDATE auth_throttle SET updated_at = now() - interval '25 hours' WHERE subject = 'paul'`,
    );
    expect(await failTimes(t, 'paul', 1)).toEqual([401]);
    const decayed = (await counter(t, 'account', 'paul'))!;
    expect(decayed.lockouts).toBe(1);
    expect(decayed.locked_seconds).toBeLessThanOrEqual(60);
  });

  it('counts an unknown login and the login in any case alike, so lock-outs tell no login apart', async () => {
    expect(await failTimes(t, 'ghost', 6)).toEqual([401, 401, 401, 401, 401, 429]);
    const { rows } = await t.database.pool.query(
      `SELECT target_id, after FROM audit_log WHERE action = 'user.lockout' AND after->>'login' = 'ghost'`,
    );
    expect(rows).toEqual([{ target_id: null, after: { login: 'ghost', lockouts: 1, lockedSeconds: 60 } }]);
    await t.createUser({ login: 'Anna', password: PASSWORD, droits: [] });
    await failTimes(t, 'anna', 3);
    await failTimes(t, 'ANNA', 2);
    expect((await attempt(t, 'Anna', PASSWORD)).statusCode).toBe(429);
  });

  it("counts one's own wrong current password at saveUtilisateur as a failed sign-in", async () => {
    const id = await t.createUser({ login: 'zoe', password: PASSWORD, droits: [] });
    const headers = await t.signIn('zoe', PASSWORD);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bo/infra/saveUtilisateur?id=${id}`,
        headers,
        payload: {
          updatePassword: true,
          currentPassword,
          password: 'New-Horse-22',
          rePasswordKey: 'New-Horse-22',
        },
      });
    for (let i = 0; i < 5; i++) expect((await change(`Wrong-Pass${i}!`)).json().code).toBe('WrongPassword');
    expect(await counter(t, 'account', 'zoe')).toMatchObject({ failures: 0, lockouts: 1 });
    const locked = await change(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect((await attempt(t, 'zoe', PASSWORD)).statusCode).toBe(429);
    const { rows } = await t.database.pool.query(
      `SELECT 1 FROM audit_log WHERE action = 'user.passwordChange'`,
    );
    expect(rows).toHaveLength(0);
  });
});

describe('sign-in failures per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { loginFailuresPerIp: 3 } });
    await t.createUser({ login: 'lea', password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses an address past its limit for ten minutes, whatever the account; other addresses go on', async () => {
    for (const login of ['a1', 'a2', 'a3']) {
      expect((await attempt(t, login, 'Wrong-Pass1!', '192.0.2.7')).statusCode).toBe(401);
    }
    const blocked = await attempt(t, 'lea', PASSWORD, '192.0.2.7');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(590);
    expect((await attempt(t, 'lea', PASSWORD, '192.0.2.8')).statusCode).toBe(200);
    expect((await counter(t, 'ip', '192.0.2.7'))!.lockouts).toBe(1);
  });
});
