/**
 * The per-widget rights of GET bo/home/{widget} (issue #17 item 8), generated from the table
 * itself (contract/home.ts HOME_WIDGET_RIGHTS): every widget × every single right → 200 when the
 * right is one of the widget's, 403 `Forbidden` otherwise; no right at all → 403 everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_WIDGET_RIGHTS, HOME_WIDGETS } from '../../src/contract/home.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('home widgets × rights', () => {
  let t: TestApp;
  let chain: Chain;
  const callers = new Map<string, { id: number; headers: Record<string, string> }>();

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    for (const right of [...RIGHTS, 'none']) {
      const login = `holder-${right.toLowerCase()}`;
      const droits = right === 'none' ? [] : [right];
      const id = await t.createUser({
        login,
        password: PASSWORD,
        droits,
        restaurantIds: [chain.sites.paris],
      });
      callers.set(right, { id, headers: await t.signIn(login, PASSWORD) });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const cases = HOME_WIDGETS.flatMap((widget) =>
    [...RIGHTS, 'none'].map((right) => [widget, right] as const),
  );

  it.each(cases)('%s with right %s', async (widget, right) => {
    const caller = callers.get(right)!;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/home/${widget}?id=${caller.id}&sites=${chain.sites.paris}&datePerso=2026-03-02`,
      headers: caller.headers,
    });
    const allowed = (HOME_WIDGET_RIGHTS[widget] as readonly string[]).includes(right);
    expect(res.statusCode, res.body).toBe(allowed ? 200 : 403);
    if (!allowed) expect(res.json()).toMatchObject({ code: 'Forbidden' });
  });
});
