import { describe, expect, it } from 'vitest';
import {
  type CashCount,
  type CashCountBody,
  CashCountBodySchema,
  type ExpectedAnswer,
  type Rule,
} from '../../../src/contract/counting.ts';
import { saveCashCount } from '../../../src/server/counting/cash-counts.ts';
import { DAY, setUpCounting } from './seed.ts';

const ctx = setUpCounting();

function save(body: CashCountBody, headers = ctx.manager.headers) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/comptage/save?id=${ctx.manager.id}`,
    headers,
    payload: body,
  });
}

const fullCount = (): CashCountBody => ({
  site: ctx.paris,
  dateFiscale: DAY,
  caisse: 1,
  cash: [
    { denominationCents: 1000, quantity: 1 },
    { denominationCents: 200, quantity: 1 },
    { denominationCents: 50, quantity: 3 },
  ],
  chequesCents: 3000,
  mealVouchersCents: 800,
  cardSlipsCents: null,
  comment: 'fin de service',
});

describe('counting rules', () => {
  it('every site of the scope has the four rules with their defaults', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/getListRules?id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    const rules = res.json<Rule[]>();
    expect(rules.filter((r) => r.restaurantId === ctx.paris)).toEqual([
      { restaurantId: ctx.paris, libelle: 'comptageEspeces', active: true },
      { restaurantId: ctx.paris, libelle: 'comptageCheques', active: true },
      { restaurantId: ctx.paris, libelle: 'comptageTicketsRestaurant', active: true },
      { restaurantId: ctx.paris, libelle: 'comptageCartes', active: false },
    ]);
    expect(new Set(rules.map((r) => r.restaurantId))).toEqual(new Set([ctx.paris, ctx.chain.sites.lyon]));
  });

  it('an administrator turns a rule on for one site, and only that site changes', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/updateRule?id=${ctx.admin.id}&libelle=comptageCartes&active=true&site=${ctx.chain.sites.lyon}`,
      headers: ctx.admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { restaurantId: ctx.chain.sites.lyon, libelle: 'comptageCartes', active: true },
    ]);
    const list = await ctx.t.app.inject({
      url: `/api/bo/getListRules?id=${ctx.admin.id}`,
      headers: ctx.admin.headers,
    });
    const cards = list.json<Rule[]>().filter((r) => r.libelle === 'comptageCartes');
    expect(cards.filter((r) => r.active).map((r) => r.restaurantId)).toEqual([ctx.chain.sites.lyon]);
  });

  it('a manager may read the rules but not change them', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/updateRule?id=${ctx.manager.id}&libelle=comptageCheques&active=false`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(403);
  });

  it('an unknown rule name is refused', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/updateRule?id=${ctx.admin.id}&libelle=comptageBitcoins&active=true`,
      headers: ctx.admin.headers,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('expected amounts', () => {
  it("come from the terminal's payments of the day by method, training tickets left out", async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/comptage/expected?id=${ctx.manager.id}&site=${ctx.paris}&dateFiscale=${DAY}&caisse=1`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<ExpectedAnswer>();
    expect(body.expected).toEqual({
      cashCents: 1350,
      chequesCents: 3000,
      mealVouchersCents: 900,
      cardSlipsCents: 800,
    });
    expect(body.currency).toBe('EUR');
    expect(body.required).toEqual({ cash: true, cheques: true, mealVouchers: true, cardSlips: false });
  });

  it('are refused for a site outside the scope', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/bo/comptage/expected?id=${ctx.manager.id}&site=${ctx.chain.sites.nantes}&dateFiscale=${DAY}&caisse=1`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden' });
  });
});

describe('cash counts', () => {
  it('a count stores the denominations, totals and variance against the payments', async () => {
    const res = await save(fullCount());
    expect(res.statusCode).toBe(200);
    const count = res.json<CashCount>();
    expect(count).toMatchObject({
      site: ctx.paris,
      dateFiscale: DAY,
      caisse: 1,
      version: 1,
      cashCents: 1350,
      chequesCents: 3000,
      mealVouchersCents: 800,
      cardSlipsCents: null,
      expected: { cashCents: 1350, chequesCents: 3000, mealVouchersCents: 900, cardSlipsCents: 800 },
      variance: { cashCents: 0, chequesCents: 0, mealVouchersCents: -100, cardSlipsCents: null },
      countedBy: { userId: ctx.manager.id, login: 'manager' },
      comment: 'fin de service',
    });
    expect(count.cash?.map((c) => c.denominationCents)).toEqual([1000, 200, 50]);
  });

  it('a recount is a new version and the first one is kept', async () => {
    const recount = { ...fullCount(), mealVouchersCents: 900, comment: 'recompté' };
    const res = await save(recount);
    expect(res.json<CashCount>().version).toBe(2);
    const list = await ctx.t.app.inject({
      url: `/api/bo/comptage/list?id=${ctx.manager.id}&site=${ctx.paris}&dateFiscale=${DAY}`,
      headers: ctx.manager.headers,
    });
    const counts = list.json<{ counts: CashCount[] }>().counts;
    expect(counts.map((c) => [c.caisse, c.version, c.mealVouchersCents, c.comment])).toEqual([
      [1, 2, 900, 'recompté'],
      [1, 1, 800, 'fin de service'],
    ]);
    expect(counts[0]!.variance.mealVouchersCents).toBe(0);
  });

  it('a count missing what the rules require is refused with the missing parts', async () => {
    const res = await save({ ...fullCount(), caisse: 2, chequesCents: null, cash: null });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MissingCount', details: { missing: ['cash', 'cheques'] } });
  });

  it('keeps the moment the count was made offline apart from its reception', async () => {
    const res = await save({ ...fullCount(), caisse: 2, countedAt: '2026-03-02T22:15:00+01:00' });
    const count = res.json<CashCount>();
    expect(count.countedAt).toBe('2026-03-02T21:15:00.000Z');
    expect(Date.parse(count.receivedAt)).toBeGreaterThan(Date.parse(count.countedAt));
  });

  it('refuses a count for a site outside the scope, an unknown denomination or a negative total', async () => {
    expect((await save({ ...fullCount(), site: ctx.chain.sites.nantes })).statusCode).toBe(403);
    expect((await save({ ...fullCount(), cash: [{ denominationCents: 300, quantity: 1 }] })).statusCode).toBe(
      400,
    );
    expect((await save({ ...fullCount(), chequesCents: -5 })).statusCode).toBe(400);
    expect(
      (
        await save({
          ...fullCount(),
          cash: [
            { denominationCents: 100, quantity: 1 },
            { denominationCents: 100, quantity: 2 },
          ],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('refuses a terminal the site does not have (bo/getCaisses) with a translated 400 UnknownTerminal, storing nothing', async () => {
    const terminals = await ctx.t.app.inject({
      url: `/api/bo/getCaisses?id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
    });
    expect(
      terminals
        .json<Record<string, { caisses: { id: number }[] }>>()
        [String(ctx.paris)]!.caisses.map((c) => c.id),
    ).toEqual([1, 2]);
    const before = await ctx.t.database.pool.query('SELECT count(*)::int AS n FROM cash_counts');
    const third = await save({ ...fullCount(), caisse: 3 });
    expect(third.statusCode).toBe(400);
    expect(third.json()).toMatchObject({ code: 'UnknownTerminal', details: { caisse: 3 } });
    // Nantes has a terminal 1, Lyon has none: a terminal is checked against its own site.
    const lyon = await save({ ...fullCount(), site: ctx.chain.sites.lyon, caisse: 1 });
    expect(lyon.json()).toMatchObject({ code: 'UnknownTerminal' });
    const after = await ctx.t.database.pool.query('SELECT count(*)::int AS n FROM cash_counts');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('refuses a count sent with the id of another user', async () => {
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/comptage/save?id=${ctx.admin.id}`,
      headers: ctx.manager.headers,
      payload: fullCount(),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('concurrent counts of one drawer', () => {
  it('two transactions counting the same drawer at once get versions n and n+1, the second after the first commits', async () => {
    const { pool } = ctx.t.database;
    const body = CashCountBodySchema.parse({ ...fullCount(), dateFiscale: '2026-03-05' });
    const counter = { userId: ctx.manager.id, login: 'manager' };
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      const one = await saveCashCount(first, body, counter);
      // The second count's statement starts (and takes its snapshot) while the first holds the
      // drawer's lock, so the first's row, committed while it waits, is not in that snapshot.
      const pendingTwo = saveCashCount(second, { ...body, comment: 'second' }, counter);
      for (;;) {
        const { rows } = await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        );
        if (rows[0]!.n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await first.query('COMMIT');
      const two = await pendingTwo;
      await second.query('COMMIT');
      expect([one.version, two.version]).toEqual([1, 2]);
      expect([one.comment, two.comment]).toEqual(['fin de service', 'second']);
      expect(two.expected).toEqual(one.expected);
      const { rows } = await pool.query(
        `SELECT version, comment FROM cash_counts WHERE site_id = $1 AND fiscal_date = '2026-03-05' ORDER BY version`,
        [ctx.paris],
      );
      expect(rows).toEqual([
        { version: 1, comment: 'fin de service' },
        { version: 2, comment: 'second' },
      ]);
    } finally {
      first.release();
      second.release();
    }
  });
});
