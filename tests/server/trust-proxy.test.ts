/**
 * COMPTOIR_TRUST_PROXY (docs/operations/instances.md): behind the reverse proxies it names, the
 * client address counted by the per-address sign-in failures (decision 0020) is the one of
 * X-Forwarded-For; without it, or from a socket that is not a named proxy, the socket's, so a
 * client cannot forge its address to escape the counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';

describe('COMPTOIR_TRUST_PROXY', () => {
  it('reads a number of proxies or their addresses and ranges; unset trusts none', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ COMPTOIR_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ COMPTOIR_TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      '::1',
    ]);
  });

  it('refuses anything else, naming the variable but never echoing the value', () => {
    for (const value of ['x7q9z', 'true', '0', '11', '10.0.0.0/33', '10.0.0.1/8/2', '300.1.1.1']) {
      let message = '';
      try {
        loadConfig({ COMPTOIR_TRUST_PROXY: value });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message, value).toContain('COMPTOIR_TRUST_PROXY');
      // (the message itself holds digits: only longer values can be told apart)
      if (value.length > 2) expect(message, value).not.toContain(value);
    }
  });
});

/** Subjects of the per-address failure counters, in order. */
async function addresses(t: TestApp): Promise<string[]> {
  const { rows } = await t.database.pool.query<{ subject: string }>(
    "SELECT subject FROM auth_throttle WHERE scope = 'ip' ORDER BY subject",
  );
  return rows.map((r) => r.subject);
}

function failedSignIn(t: TestApp, from: string, forwardedFor: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/bo/connexion?username=nobody',
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      authorization: basic('nobody', 'Wrong-Pass1!'),
      'x-forwarded-for': forwardedFor,
    },
    remoteAddress: from,
  });
}

describe('the client address behind a proxy', () => {
  let trusting: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    trusting = await createTestApp({ config: { trustProxy: ['10.0.0.5'] } });
    plain = await createTestApp();
  });
  afterAll(async () => {
    await trusting.close();
    await plain.close();
  });

  it("counts a failure under X-Forwarded-For's address only when it comes from a named proxy", async () => {
    expect((await failedSignIn(trusting, '10.0.0.5', '203.0.113.9')).statusCode).toBe(401);
    // A client that is not the proxy cannot choose the address it is counted under.
    expect((await failedSignIn(trusting, '198.51.100.7', '203.0.113.10')).statusCode).toBe(401);
    expect(await addresses(trusting)).toEqual(['198.51.100.7', '203.0.113.9']);
  });

  it('ignores X-Forwarded-For when no proxy is named', async () => {
    expect((await failedSignIn(plain, '10.0.0.5', '203.0.113.9')).statusCode).toBe(401);
    expect(await addresses(plain)).toEqual(['10.0.0.5']);
  });
});
