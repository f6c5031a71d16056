/**
 * `exploitant` on the home widgets (SPEC.md §6, issue #32 B, decision 0033): a user with an
 * operator code sees that operator's data — their site scope — and may not ask for another
 * operator's: a non-empty `exploitant` other than the caller's own code is refused 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Exploitant-2026!';

describe('exploitant on GET bo/home/{widget}', () => {
  let t: TestApp;
  let chain: Chain;
  const users: Record<'operator' | 'plain', { id: number; headers: AuthHeaders }> = {} as never;

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    for (const [login, code] of [
      ['operator', 'EXP-PARIS'],
      ['plain', null],
    ] as const) {
      const id = await t.createUser({
        login,
        password: PASSWORD,
        droits: ['RAPPORTS'],
        restaurantIds: [chain.sites.paris],
        codeExploitant: code,
      });
      users[login] = { id, headers: await t.signIn(login, PASSWORD) };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const ventes = (who: 'operator' | 'plain', exploitant?: string) =>
    t.app.inject({
      url:
        `/api/bo/home/ventes?id=${users[who].id}&datePerso=2026-03-02` +
        (exploitant === undefined ? '' : `&exploitant=${encodeURIComponent(exploitant)}`),
      headers: users[who].headers,
    });

  it("answers the operator's own code, an empty one or none with their scope's figures", async () => {
    const answers = await Promise.all([
      ventes('operator', 'EXP-PARIS'),
      ventes('operator', ''),
      ventes('operator'),
    ]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(answers[0]!.json()).toEqual(answers[2]!.json());
  });

  it("refuses another operator's code with 403, and any code from a user who has none", async () => {
    for (const res of [await ventes('operator', 'EXP-LYON'), await ventes('plain', 'EXP-PARIS')]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden', details: { exploitant: expect.any(String) } });
    }
    expect((await ventes('plain', '')).statusCode).toBe(200);
  });
});
