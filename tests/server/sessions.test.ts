/**
 * Sessions with an end (issue #17 item 8): an absolute lifetime (COMPTOIR_SESSION_MAX_DAYS)
 * besides the sliding expiry, and a cap on live sessions per user (COMPTOIR_SESSIONS_PER_USER),
 * the oldest revoked when a new one opens.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const PASSWORD = 'Correct-Horse1';

function tokenHashOf(headers: Record<string, string>): string {
  const token = Buffer.from(headers.authorization!.slice(6), 'base64').toString().split(':')[1]!;
  return createHash('sha256').update(token).digest('hex');
}

describe('session lifetime and cap', () => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    // Sliding minutes longer than the absolute end, so the cap shows at once.
    t = await createTestApp({
      config: { sessionMinutes: 2 * 24 * 60, sessionMaxDays: 1, sessionsPerUser: 3 },
    });
    userId = await t.createUser({ login: 'marie', password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  const sites = (headers: Record<string, string>) =>
    t.app.inject({ url: `/api/bo/getSites?id=${userId}`, headers });
  const hoursLeft = async (hash: string) => {
    const { rows } = await t.database.pool.query(
      'SELECT extract(epoch FROM expires_at - now())::float8 / 3600 AS h FROM sessions WHERE token_hash = $1',
      [hash],
    );
    return rows[0]?.h as number | undefined;
  };

  it('opens a session that ends at the absolute end when the sliding expiry would go past it', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const left = (await hoursLeft(tokenHashOf(headers)))!;
    expect(left).toBeGreaterThan(23.9);
    expect(left).toBeLessThanOrEqual(24);
  });

  it('slides no further than the absolute end', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    const hash = tokenHashOf(headers);
    await t.database.pool.query(
      `UPDATE sessions SET created_at = now() - interval '23 hours', expires_at = now() + interval '10 minutes'
        WHERE token_hash = $1`,
      [hash],
    );
    await t.app.changes.settled();
    expect((await sites(headers)).statusCode).toBe(200);
    const left = (await hoursLeft(hash))!;
    expect(left).toBeGreaterThan(0.9); // slid from 10 minutes…
    expect(left).toBeLessThanOrEqual(1); // …to the end of the day, not two days on
  });

  it('refuses a session past its absolute end even when its expiry is later', async () => {
    const headers = await t.signIn('marie', PASSWORD);
    await t.database.pool.query(
      `UPDATE sessions SET created_at = now() - interval '1 day 1 second', expires_at = now() + interval '1 hour'
        WHERE token_hash = $1`,
      [tokenHashOf(headers)],
    );
    await t.app.changes.settled();
    const res = await sites(headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'Unauthorized' });
  });

  it('keeps at most three live sessions per user, revoking the oldest', async () => {
    const opened: Record<string, string>[] = [];
    for (let i = 0; i < 4; i++) opened.push(await t.signIn('marie', PASSWORD));
    await t.app.changes.settled();
    expect((await sites(opened[0]!)).statusCode).toBe(401);
    for (const headers of opened.slice(1)) expect((await sites(headers)).statusCode).toBe(200);
    const { rows } = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1',
      [userId],
    );
    expect(rows[0].n).toBe(3);
  });
});

describe('session settings', () => {
  it('default to seven days and ten sessions per user', () => {
    const config = loadConfig({});
    expect(config.sessionMaxDays).toBe(7);
    expect(config.sessionsPerUser).toBe(10);
    expect(config.loginFailuresPerIp).toBe(50);
  });

  it('refuse a bad value, naming the variable but never echoing the value', () => {
    for (const name of [
      'COMPTOIR_SESSION_MAX_DAYS',
      'COMPTOIR_SESSIONS_PER_USER',
      'COMPTOIR_LOGIN_FAILURES_PER_IP',
    ]) {
      let message = '';
      try {
        loadConfig({ [name]: 'x7q9z' });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain('x7q9z');
    }
    expect(() => loadConfig({ COMPTOIR_SESSION_MAX_DAYS: '0' })).toThrow(ConfigError);
  });
});
