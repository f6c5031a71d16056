/**
 * GET bo/fec/plan and POST bo/fec/savePlan through the real application (issue #29, decision
 * 0037): the defaults until a plan is saved; a saved plan changes the accounts of the exported
 * file, which still passes the checker; an account that is not a PCG number is refused naming
 * the field and nothing is saved; the save is audit-logged and honours Idempotency-Key; a user
 * without FEC_CONFIGURATION, or whose scope misses a site of the company, gets 403.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'content-disposition';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FecPlan } from '../../../src/contract/fec.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { FIRST_DATE, LAST_DATE, loadChain } from '../../reports/sales-analyses/chain.ts';

const PASSWORD = 'Correct-Horse1';
const SIREN = '552100554';

describe('the FEC account plan of a company', () => {
  let t: TestApp;
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};

  beforeAll(async () => {
    t = await createTestApp();
    await loadChain(t.database);
    await t.database.pool.query('UPDATE companies SET siren = $1 WHERE id = 1', [SIREN]);
    const make = async (
      login: string,
      droits: string[],
      scope: { allSites?: boolean; restaurantIds?: number[] },
    ) => {
      const id = await t.createUser({ login, password: PASSWORD, droits, ...scope });
      users[login] = { id, headers: await t.signIn(login, PASSWORD) };
    };
    await make('compta', ['FEC_CONFIGURATION'], { allSites: true });
    await make('reports', ['RAPPORTS'], { allSites: true });
    await make('paris', ['FEC_CONFIGURATION'], { restaurantIds: [1] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const plan = (login: string, societe = 1) => {
    const user = users[login]!;
    return t.app.inject({
      method: 'GET',
      url: `/api/bo/fec/plan?id=${user.id}&societe=${societe}`,
      headers: user.headers,
    });
  };
  const save = (login: string, accounts: object[], extra: Record<string, string> = {}, societe = 1) => {
    const user = users[login]!;
    return t.app.inject({
      method: 'POST',
      url: `/api/bo/fec/savePlan?id=${user.id}&societe=${societe}`,
      headers: { ...user.headers, ...extra },
      payload: { accounts },
    });
  };
  const exportText = async () => {
    const user = users.compta!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/fec/export?id=${user.id}&societe=1&dateDebut=${FIRST_DATE}&dateFin=${LAST_DATE}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    const text = iconv.decode(res.rawPayload, 'ISO-8859-15');
    const name = parse(String(res.headers['content-disposition'])).parameters.filename!;
    expect(checkFec(text, name)).toEqual([]);
    return text
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((r) => r.split('\t'));
  };
  const savedRows = async () =>
    (
      await t.database.pool.query(
        'SELECT role, account FROM fec_account_plans WHERE company_id = 1 ORDER BY role',
      )
    ).rows;

  it('answers the default plan while none is saved', async () => {
    const res = await plan('compta');
    expect(res.statusCode).toBe(200);
    const body = res.json<FecPlan>();
    expect(body.saved).toBe(false);
    expect(body.accounts.find((a) => a.role === 'PAYMENT_CASH')).toEqual({
      role: 'PAYMENT_CASH',
      account: '530',
      label: 'Caisse',
      defaultAccount: '530',
      defaultLabel: 'Caisse',
    });
    expect(body.accounts.map((a) => a.role)).toContain('ROUNDING_CREDIT');
  });

  it('refuses an account that is not a PCG number, naming the field, and saves nothing', async () => {
    for (const account of ['930', '53', '53O', '']) {
      const res = await save('compta', [
        { role: 'PAYMENT_CARD', account: '5116', label: 'Cartes' },
        { role: 'PAYMENT_CASH', account, label: 'Caisse' },
      ]);
      expect(res.statusCode, account).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'InvalidField',
        details: { field: 'account', role: 'PAYMENT_CASH', index: 1 },
      });
    }
    const unknown = await save('compta', [{ role: 'PAYMENT_BITCOIN', account: '5117', label: 'Crypto' }]);
    expect(unknown.json()).toMatchObject({ code: 'InvalidField', details: { field: 'role' } });
    const blank = await save('compta', [{ role: 'PAYMENT_CASH', account: '530', label: '  ' }]);
    expect(blank.json()).toMatchObject({ code: 'InvalidField', details: { field: 'label' } });
    expect(await savedRows()).toEqual([]);
    expect((await plan('compta')).json<FecPlan>().saved).toBe(false);
  });

  it('refuses a user without FEC_CONFIGURATION and one whose scope misses a site of the company', async () => {
    for (const login of ['reports', 'paris']) {
      expect((await plan(login)).statusCode, login).toBe(403);
      const res = await save(login, [{ role: 'PAYMENT_CASH', account: '531', label: 'Caisse' }]);
      expect(res.statusCode, login).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden' });
    }
    expect(await savedRows()).toEqual([]);
  });

  it('writes the saved accounts in the exported file, which still passes the checker, and logs the change', async () => {
    const before = await exportText();
    const accountsOf = (rows: string[][]) => new Set(rows.map((r) => r[4]));
    expect(accountsOf(before)).toContain('530');
    expect(accountsOf(before)).toContain('70711');

    const key = { 'idempotency-key': randomUUID() };
    const accounts = [
      { role: 'PAYMENT_CASH', account: '5310', label: 'Caisse siège' },
      { role: 'SALES_0.2', account: '707100', label: 'Ventes 20 % boutiques' },
    ];
    const res = await save('compta', accounts, key);
    expect(res.statusCode).toBe(200);
    const body = res.json<FecPlan>();
    expect(body.saved).toBe(true);
    expect(body.accounts.find((a) => a.role === 'PAYMENT_CASH')).toMatchObject({
      account: '5310',
      defaultAccount: '530',
    });
    const replay = await save('compta', accounts, key);
    expect(replay.statusCode).toBe(200);

    const after = await exportText();
    expect(after).toHaveLength(before.length);
    expect(accountsOf(after)).not.toContain('530');
    expect(accountsOf(after)).not.toContain('70711');
    const cash = after.filter((r) => r[4] === '5310');
    expect(cash.length).toBe(before.filter((r) => r[4] === '530').length);
    expect(cash.every((r) => r[5] === 'Caisse siège')).toBe(true);
    expect(after.some((r) => r[4] === '707100' && r[5] === 'Ventes 20 % boutiques')).toBe(true);

    const audit = await t.database.pool.query<{
      user_id: number;
      target_id: string;
      before: object;
      after: object;
    }>(`SELECT user_id, target_id, before, after FROM audit_log WHERE action = 'fecPlan.save'`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      user_id: users.compta!.id,
      target_id: '1',
      before: { PAYMENT_CASH: '530 Caisse' },
      after: { PAYMENT_CASH: '5310 Caisse siège', 'SALES_0.2': '707100 Ventes 20 % boutiques' },
    });

    const reset = await save('compta', []);
    expect(reset.statusCode).toBe(200);
    expect(accountsOf(await exportText())).toContain('530');
  });
});
