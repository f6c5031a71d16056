import { beforeAll, describe, expect, it } from 'vitest';
import type { SafeCount } from '../../../src/contract/counting.ts';
import { PASSWORD, setUpCounting } from '../counting/seed.ts';

const ctx = setUpCounting();
let boss: Record<string, string>;

beforeAll(async () => {
  const id = await ctx.t.createUser({
    login: 'boss',
    password: PASSWORD,
    droits: ['COFFRE'],
    restaurantIds: [ctx.paris],
  });
  boss = await ctx.t.signIn('boss', PASSWORD);
  const set = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/setContreCode?id=${id}`,
    headers: boss,
    payload: { contreCode: '4821' },
  });
  expect(set.statusCode).toBe(200);
});

/** Saves a safe count of Paris on `day` as the manager. */
async function saveSafe(day: string): Promise<void> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/coffre/save?id=${ctx.manager.id}`,
    headers: ctx.manager.headers,
    payload: {
      site: ctx.paris,
      dateFiscale: day,
      openingCents: 0,
      depositsCents: 0,
      withdrawalsCents: 0,
      contents: [{ denominationCents: 100, quantity: 1 }],
    },
  });
  expect(res.statusCode).toBe(200);
}

/** POST fluxfin/contre_signe of Paris on `day` by the manager, with `more` in the query and `body`. */
function countersign(day: string, more: string, body?: unknown) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/fluxfin/contre_signe?restaurantId=${ctx.paris}&id=${ctx.manager.id}&datefiscale=${day}${more}`,
    headers: ctx.manager.headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

describe('fluxfin/contre_signe takes the manager and the code in the body or the query', () => {
  it('countersigns with the login, code and comment in the JSON body', async () => {
    await saveSafe('2026-03-01');
    const res = await countersign('2026-03-01', '', {
      managerName: 'boss',
      managerCode: '4821',
      commentaire: 'vu',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<SafeCount>().countersignature).toMatchObject({ managerName: 'boss', commentaire: 'vu' });
  });

  it("keeps SPEC §7's query form", async () => {
    await saveSafe('2026-03-02');
    const res = await countersign('2026-03-02', '&managerName=boss&managerCode=4821&commentaire=ok');
    expect(res.statusCode).toBe(200);
    expect(res.json<SafeCount>().countersignature).toMatchObject({ managerName: 'boss', commentaire: 'ok' });
  });

  it("prefers the body's value to the query's", async () => {
    await saveSafe('2026-03-03');
    const res = await countersign('2026-03-03', '&managerName=boss&managerCode=0000', {
      managerCode: '4821',
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a missing login or code, an unknown body field and deep JSON with 400, never 500', async () => {
    await saveSafe('2026-03-04');
    const missing = await countersign('2026-03-04', '&managerName=boss', { commentaire: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'BadRequest', details: { field: 'managerCode' } });
    const noName = await countersign('2026-03-04', '', { managerCode: '4821' });
    expect(noName.json()).toMatchObject({ code: 'BadRequest', details: { field: 'managerName' } });
    const unknown = await countersign('2026-03-04', '', {
      managerName: 'boss',
      managerCode: '4821',
      code: '1',
    });
    expect(unknown.json()).toMatchObject({ code: 'BadRequest' });
    const deep = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/fluxfin/contre_signe?restaurantId=${ctx.paris}&id=${ctx.manager.id}&datefiscale=2026-03-04`,
      headers: { ...ctx.manager.headers, 'content-type': 'application/json' },
      payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'BadRequest', details: { maxDepth: 32 } });
    // Nothing was countersigned by the refused requests.
    expect(
      (await countersign('2026-03-04', '', { managerName: 'boss', managerCode: '4821' })).statusCode,
    ).toBe(200);
  });
});
