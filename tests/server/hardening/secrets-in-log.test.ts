import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { ConfigError, loadConfig } from '../../../src/server/config.ts';
import { redactEntry, redactText, redactUrl } from '../../../src/server/logging.ts';
import { basic } from '../../helpers/app.ts';
import { seedChain } from '../fixtures.ts';
import { createLoggedApp, type LoggedApp, PASSWORD } from './logged-app.ts';

/** Secrets the requests below carry: none may appear in a log line. */
const MANAGER_CODE = '975310';
const WRONG_CODE = '864209';
const RESET_KEY = 'rk-7Qz4-reset-key-Wd9';
const NEW_PASSWORD = 'Nouveau-Mot2passe!';
const CONFIRM_KEY = 'confirm-Key-3Xv8';
const CHANGED_PASSWORD = 'Autre-Mot3passe?';

/** The occurrences of `secret` in `lines`, as a whole word (a code is not part of a longer number). */
function occurrences(lines: string[], secret: string): string[] {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const whole = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`);
  return lines.filter((l) => whole.test(l));
}

describe('the redaction of log lines', () => {
  it("censors every secret-looking query parameter of the SPEC's secret-carrying URLs", () => {
    const urls = {
      [`/api/fluxfin/contre_signe?restaurantId=1&id=2&datefiscale=2026-03-02&managerName=boss&managerCode=${MANAGER_CODE}&commentaire=vu`]:
        '/api/fluxfin/contre_signe?restaurantId=1&id=2&datefiscale=2026-03-02&managerName=boss&managerCode=[redacted]&commentaire=vu',
      [`/api/bo/checkContreCode?id=2&code=boss&contreCode=${MANAGER_CODE}`]:
        '/api/bo/checkContreCode?id=2&code=[redacted]&contreCode=[redacted]',
      [`/api/reinit/reinitPassword?email=a%40b.fr&resetPasswordKey=${RESET_KEY}&password=${NEW_PASSWORD}`]:
        '/api/reinit/reinitPassword?email=a%40b.fr&resetPasswordKey=[redacted]&password=[redacted]',
      [`/api/bo/infra/newUtilisateur?login=zoe&password=${NEW_PASSWORD}&rePasswordKey=${CONFIRM_KEY}&profileId=3`]:
        '/api/bo/infra/newUtilisateur?login=zoe&password=[redacted]&rePasswordKey=[redacted]&profileId=3',
      [`/api/bo/infra/saveUtilisateur?id=3&currentPassword=${NEW_PASSWORD}&key=${CONFIRM_KEY}&token=t1&Authorization=x`]:
        '/api/bo/infra/saveUtilisateur?id=3&currentPassword=[redacted]&key=[redacted]&token=[redacted]&Authorization=[redacted]',
    };
    for (const [url, redacted] of Object.entries(urls)) {
      expect(redactUrl(url)).toBe(redacted);
      expect(redactText(`Route POST:${url} not found`)).toBe(`Route POST:${redacted} not found`);
    }
  });

  it('censors credentials and secret fields anywhere in a log object, keeping error codes', () => {
    const entry = redactEntry({
      level: 50,
      msg: `request failed: GET /api/x?contreCode=${MANAGER_CODE} with Basic ${btoa(`boss:${PASSWORD}`)}`,
      err: { code: 'FST_ERR_VALIDATION', message: 'bad', stack: `at /api/x?password=${NEW_PASSWORD}` },
      url: `/api/reinit/reinitPassword?resetPasswordKey=${RESET_KEY}`,
      req: { headers: { authorization: 'Basic eA==', cookie: 's=1' }, query: { code: 'boss', id: '2' } },
      body: { managerCode: MANAGER_CODE, password: NEW_PASSWORD, rePasswordKey: CONFIRM_KEY, libelle: 'x' },
    });
    const text = JSON.stringify(entry);
    for (const secret of [MANAGER_CODE, NEW_PASSWORD, RESET_KEY, CONFIRM_KEY, PASSWORD, 'eA==', 's=1']) {
      expect(text).not.toContain(secret);
    }
    expect(entry).toMatchObject({
      err: { code: 'FST_ERR_VALIDATION' },
      req: { query: { code: '[redacted]', id: '2' } },
      body: { libelle: 'x' },
    });
  });

  it('a rejected setting names the variable and its rule, never the value', () => {
    const bad = {
      COMPTOIR_ADMIN_PASSWORD: 'weak-pass',
      DATABASE_URL: `mysql://admin:${NEW_PASSWORD}@db/comptoir`,
      SMTP_URL: `http://mail:${CONFIRM_KEY}@smtp`,
      PORT: '99999999',
    };
    let message = '';
    try {
      loadConfig(bad);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    for (const name of Object.keys(bad)) expect(message).toContain(name);
    expect(message).toMatch(/at least 10 characters/);
    for (const value of Object.values(bad)) expect(message).not.toContain(value);
    for (const part of ['weak-pass', NEW_PASSWORD, CONFIRM_KEY, '99999999'])
      expect(message).not.toContain(part);
  });
});

describe.each([
  ['debug', 'json'],
  ['info', 'text'],
  ['trace', 'text'],
] as const)('a run of every secret-carrying route logging at %s in %s', (level, format) => {
  let t: LoggedApp;
  let lines: string[];
  let token: string;
  beforeAll(async () => {
    t = await createLoggedApp(level, format);
    token = await useSecretRoutes(t);
    lines = t.lines;
  });
  afterAll(async () => {
    await t.close();
  });

  it('logged the requests', () => {
    expect(lines.some((l) => l.includes('contre_signe'))).toBe(true);
    expect(lines.some((l) => l.includes('checkContreCode'))).toBe(true);
    expect(lines.some((l) => l.includes('reinitPassword'))).toBe(true);
  });

  it('wrote none of the codes, passwords, keys or tokens', () => {
    const secrets = [
      MANAGER_CODE,
      WRONG_CODE,
      RESET_KEY,
      NEW_PASSWORD,
      CONFIRM_KEY,
      CHANGED_PASSWORD,
      PASSWORD,
      token,
    ];
    for (const secret of secrets) expect(occurrences(lines, secret), secret).toEqual([]);
    for (const login of ['boss', 'counter']) {
      for (const secret of [PASSWORD, token]) {
        expect(lines.join('\n')).not.toContain(btoa(`${login}:${secret}`).replace(/=+$/, ''));
      }
    }
  });
});

/**
 * Signs in (password in Basic), sets a manager code (body), saves a safe count, checks the code
 * (SPEC query form), countersigns with the code in the body and in the query (a wrong one), and
 * calls the password-reset URLs that carry a password and a key in the query (answered 404 until
 * their routes are merged: logged all the same), and the account routes ({@link useAccountRoutes}).
 * @returns the session token of the user who counted.
 */
async function useSecretRoutes(t: LoggedApp): Promise<string> {
  const chain = await seedChain(t.database.pool);
  const counterId = await t.createUser('counter', ['COFFRE']);
  const bossId = await t.createUser('boss', ['COFFRE']);
  const counter = await t.signIn('counter');
  const boss = await t.signIn('boss');
  const send: Send = (method, url, headers, payload) =>
    t.app.inject({ method, url: `/api/${url}`, headers, ...(payload ? { payload } : {}) });

  expect(
    (await send('POST', `bo/setContreCode?id=${bossId}`, boss, { contreCode: MANAGER_CODE })).statusCode,
  ).toBe(200);
  const safe = {
    site: chain.sites.paris,
    dateFiscale: '2026-03-02',
    openingCents: 0,
    depositsCents: 0,
    withdrawalsCents: 0,
    contents: [{ denominationCents: 100, quantity: 1 }],
  };
  expect((await send('POST', `coffre/save?id=${counterId}`, counter, safe)).statusCode).toBe(200);
  const check = await send(
    'GET',
    `bo/checkContreCode?id=${counterId}&code=boss&contreCode=${MANAGER_CODE}`,
    counter,
  );
  expect(check.json()).toMatchObject({ valide: true });
  const sign = `fluxfin/contre_signe?restaurantId=${chain.sites.paris}&id=${counterId}&datefiscale=2026-03-02`;
  const wrong = await send('POST', `${sign}&managerName=boss&managerCode=${WRONG_CODE}`, counter);
  expect(wrong.json(), wrong.body).toMatchObject({ code: 'BadManagerCode' });
  const signed = await send('POST', sign, counter, { managerName: 'boss', managerCode: MANAGER_CODE });
  expect(signed.statusCode).toBe(200);

  const anonymous = { [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
  await send(
    'GET',
    `reinit/reinitPassword?email=a%40b.fr&resetPasswordKey=${RESET_KEY}&password=${NEW_PASSWORD}`,
    anonymous,
  );
  await send('POST', 'reinit/reinitPassword', anonymous, {
    email: 'a@b.fr',
    resetPasswordKey: RESET_KEY,
    password: NEW_PASSWORD,
  });
  await useAccountRoutes(t, send);
  // A failed sign-in and a call with a wrong token: credentials in headers, never logged.
  await send('GET', 'bo/connexion?username=boss', {
    ...anonymous,
    authorization: basic('boss', NEW_PASSWORD),
  });
  return tokenOf(counter);
}

type Send = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: object | string,
) => Promise<LightMyRequestResponse>;

/**
 * An administrator creates a user with the password in the query (SPEC §7 form; once with a
 * confirmation that differs), the user signs in with it and changes it through saveUtilisateur's
 * form body (current password, new one and its confirmation).
 */
async function useAccountRoutes(t: LoggedApp, send: Send): Promise<void> {
  await t.createUser('chief'); // every right
  const chief = await t.signIn('chief');
  const { rows } = await t.database.pool.query<{ id: number }>(
    `SELECT id FROM profiles WHERE titre = 'profile-chief'`,
  );
  const create = `bo/infra/newUtilisateur?login=zoe&profileId=${rows[0]!.id}&password=${encodeURIComponent(NEW_PASSWORD)}`;
  const mismatch = await send('POST', `${create}&rePasswordKey=${CONFIRM_KEY}`, chief, []);
  expect(mismatch.json()).toMatchObject({ code: 'PasswordMismatch' });
  const created = await send(
    'POST',
    `${create}&rePasswordKey=${encodeURIComponent(NEW_PASSWORD)}`,
    chief,
    [],
  );
  expect(created.statusCode, created.body).toBe(200);
  const signIn = await send('GET', 'bo/connexion?username=zoe', {
    [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
    authorization: basic('zoe', NEW_PASSWORD),
  });
  const zoe = {
    [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
    authorization: basic('zoe', signIn.json<{ token: string }>().token),
  };
  const form = new URLSearchParams({
    updatePassword: 'true',
    currentPassword: NEW_PASSWORD,
    password: CHANGED_PASSWORD,
    rePasswordKey: CHANGED_PASSWORD,
  });
  const { id } = signIn.json<{ id: number }>();
  const changed = await t.app.inject({
    method: 'POST',
    url: `/api/bo/infra/saveUtilisateur?id=${id}`,
    headers: { ...zoe, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(changed.statusCode, changed.body).toBe(200);
}

/** The token inside the Basic header of a signed-in user's headers. */
function tokenOf(headers: Record<string, string>): string {
  const decoded = atob(headers.authorization!.slice('Basic '.length));
  return decoded.slice(decoded.indexOf(':') + 1);
}
