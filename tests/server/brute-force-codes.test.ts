/**
 * Manager-code checks against guessing (issue #17 item 4, decision record 0020): only managers
 * of the caller's sites, failures counted per manager and per session in PostgreSQL (kept when
 * the countersignature's transaction rolls back), the same 429 for a right and a wrong code
 * while locked, the manager's lock-out audit-logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafeCountBody } from '../../src/contract/counting.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';
const DAY = '2026-03-02';

describe('manager codes', () => {
  let t: TestApp;
  let chain: Chain;
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};

  /** A COFFRE holder on `sites`, signed in, with manager code `code` when given. */
  async function manager(login: string, sites: number[], code?: string) {
    const id = await t.createUser({ login, password: PASSWORD, droits: ['COFFRE'], restaurantIds: sites });
    const headers = await t.signIn(login, PASSWORD);
    users[login] = { id, headers };
    if (code) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/bo/setContreCode?id=${id}`,
        headers,
        payload: { contreCode: code },
      });
      expect(res.statusCode).toBe(200);
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    const { paris, lyon } = chain.sites;
    await manager('clerk', [paris]);
    await manager('clerk2', [paris]);
    await manager('boss', [paris], '4821');
    await manager('lyonboss', [lyon], '2468');
    for (const m of ['m1', 'm2', 'm3']) await manager(m, [paris], '1357');
  });
  afterAll(async () => {
    await t.close();
  });

  const check = (caller: string, login: string, code: string, headers = users[caller]!.headers) =>
    t.app.inject({
      url: `/api/bo/checkContreCode?id=${users[caller]!.id}&code=${login}&contreCode=${code}`,
      headers,
    });
  const counter = async (scope: string, subject: string) =>
    (
      await t.database.pool.query(
        'SELECT failures, lockouts, coalesce(locked_until > now(), false) AS locked FROM auth_throttle WHERE scope = $1 AND subject = $2',
        [scope, subject],
      )
    ).rows[0];

  it("answers 403 for a manager outside the caller's sites, right code or wrong, and counts nothing", async () => {
    const right = await check('clerk', 'lyonboss', '2468');
    const wrong = await check('clerk', 'lyonboss', '0000');
    const unknown = await check('clerk', 'nobody', '2468');
    for (const res of [right, wrong, unknown]) expect(res.statusCode).toBe(403);
    expect(right.body).toBe(wrong.body);
    expect(right.headers['content-length']).toBe(wrong.headers['content-length']);
    expect(await counter('manager', String(users.lyonboss!.id))).toBeUndefined();
  });

  it('locks a manager after five wrong codes: then the right code gets 429 from any session, audit-logged', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await check('clerk', 'boss', `100${i}`)).json()).toEqual({ valide: false, managerName: null });
    }
    const right = await check('clerk2', 'boss', '4821');
    const wrong = await check('clerk2', 'boss', '0000');
    for (const res of [right, wrong]) {
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(50);
    }
    expect(right.body.replace(/\d+/g, '#')).toBe(wrong.body.replace(/\d+/g, '#'));
    const { rows } = await t.database.pool.query(
      `SELECT user_id, target_id, after FROM audit_log WHERE action = 'user.managerCodeLockout'`,
    );
    expect(rows).toEqual([
      {
        user_id: users.clerk!.id,
        target_id: String(users.boss!.id),
        after: { login: 'boss', lockouts: 1, lockedSeconds: 60 },
      },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/100\d|4821/);
  });

  it('locks a session after ten wrong codes over several managers; another session goes on', async () => {
    const headers = await t.signIn('clerk2', PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await check('clerk2', `m${(i % 3) + 1}`, `20${i}0`, headers)).statusCode);
    expect(statuses).toEqual(Array(10).fill(200));
    for (const m of ['m1', 'm2', 'm3'])
      expect((await counter('manager', String(users[m]!.id))).locked).toBe(false);
    expect((await check('clerk2', 'm1', '1357', headers)).statusCode).toBe(429);
    expect((await check('clerk2', 'm1', '1357')).json()).toEqual({ valide: true, managerName: 'm1' });
  });

  it('counts a wrong code at fluxfin/contre_signe though its transaction rolls back', async () => {
    const { paris } = chain.sites;
    const body: SafeCountBody = {
      site: paris,
      dateFiscale: DAY,
      openingCents: 0,
      depositsCents: 0,
      withdrawalsCents: 0,
      contents: [{ denominationCents: 5000, quantity: 1 }],
      comment: '',
    };
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/coffre/save?id=${users.clerk!.id}`,
      headers: users.clerk!.headers,
      payload: body,
    });
    expect(saved.statusCode).toBe(200);
    const sign = (managerName: string, managerCode: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/fluxfin/contre_signe?restaurantId=${paris}&id=${users.clerk!.id}&datefiscale=${DAY}`,
        headers: users.clerk!.headers,
        payload: { managerName, managerCode, commentaire: '' },
      });
    expect((await sign('m2', '9999')).json()).toMatchObject({ code: 'BadManagerCode' });
    expect((await counter('manager', String(users.m2!.id))).failures).toBeGreaterThan(0);
    expect((await sign('lyonboss', '2468')).statusCode).toBe(403);
    const ok = await sign('m2', '1357');
    expect(ok.statusCode).toBe(200);
    expect((await counter('manager', String(users.m2!.id))).failures).toBe(0);
  });

  it('bo/checkContreCode has no HEAD twin to tell the answer by its length', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/bo/checkContreCode?id=${users.clerk!.id}&code=m3&contreCode=1357`,
      headers: users.clerk!.headers,
    });
    expect(head.statusCode).toBe(404);
  });
});
