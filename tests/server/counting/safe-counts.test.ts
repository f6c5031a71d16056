import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  SafeCount,
  SafeCountBody,
  SafeDayAnswer,
  SignaturesAnswer,
} from '../../../src/contract/counting.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { pdfText } from './pdf-text.ts';
import { DAY, PASSWORD, setUpCounting } from './seed.ts';

const ctx = setUpCounting();
/** A second manager (COFFRE on Paris) who countersigns, with code 4821. */
let boss: { id: number; headers: Record<string, string> };

beforeAll(async () => {
  const id = await ctx.t.createUser({
    login: 'boss',
    password: PASSWORD,
    droits: ['COFFRE'],
    restaurantIds: [ctx.paris],
  });
  boss = { id, headers: await ctx.t.signIn('boss', PASSWORD) };
  const set = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/setContreCode?id=${id}`,
    headers: boss.headers,
    payload: { contreCode: '4821' },
  });
  expect(set.statusCode).toBe(200);
});

const safeBody = (over: Partial<SafeCountBody> = {}): SafeCountBody => ({
  site: ctx.paris,
  dateFiscale: DAY,
  openingCents: 50000,
  depositsCents: 120000,
  withdrawalsCents: 100000,
  contents: [
    { denominationCents: 5000, quantity: 10 },
    { denominationCents: 2000, quantity: 10 },
    { denominationCents: 100, quantity: 50 },
  ],
  comment: '',
  ...over,
});

function saveSafe(body: SafeCountBody, key?: string) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/coffre/save?id=${ctx.manager.id}`,
    headers: key ? { ...ctx.manager.headers, 'idempotency-key': key } : ctx.manager.headers,
    payload: body,
  });
}

function countersign(query: Record<string, string | number>, headers = ctx.manager.headers) {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return ctx.t.app.inject({ method: 'POST', url: `/api/fluxfin/contre_signe?${q}`, headers });
}

const signQuery = (over: Record<string, string | number> = {}) => ({
  restaurantId: ctx.paris,
  id: ctx.manager.id,
  datefiscale: DAY,
  managerName: 'boss',
  managerCode: '4821',
  commentaire: 'vu',
  ...over,
});

describe('safe counts', () => {
  let first: SafeCount;

  it('a safe count keeps opening float, deposits, withdrawals, content and the variance', async () => {
    const res = await saveSafe(safeBody());
    expect(res.statusCode).toBe(200);
    first = res.json<SafeCount>();
    expect(first).toMatchObject({
      site: ctx.paris,
      libelle: 'Paris',
      version: 1,
      expectedCents: 70000,
      countedCents: 75000,
      varianceCents: 5000,
      countersignature: null,
    });
    expect(first.contents.map((c) => c.denominationCents)).toEqual([5000, 2000, 100]);
  });

  it('GET coffre?dateFiscale lists the day per site with a suggested opening float from the last earlier count', async () => {
    await saveSafe(
      safeBody({ dateFiscale: '2026-03-01', contents: [{ denominationCents: 10000, quantity: 4 }] }),
    );
    const res = await ctx.t.app.inject({
      url: `/api/coffre?dateFiscale=${DAY}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    const day = res.json<SafeDayAnswer>();
    const p = day.sites.find((x) => x.restaurantId === ctx.paris)!;
    expect(p.suggestedOpeningCents).toBe(40000);
    expect(p.counts.map((c) => c.id)).toEqual([first.id]);
    expect(day.sites.map((x) => x.restaurantId).sort()).toEqual([ctx.paris, ctx.chain.sites.lyon].sort());
  });

  it('GET coffre?ACTION=getComptages lists a site over a period, every version', async () => {
    await saveSafe(safeBody({ comment: 'recompté' }));
    const res = await ctx.t.app.inject({
      url: `/api/coffre?ACTION=getComptages&restaurantId=${ctx.paris}&dateDebut=2026-03-01&dateFin=${DAY}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json<{ data: SafeCount[] }>().data;
    expect(rows.map((c) => [c.dateFiscale, c.version])).toEqual([
      ['2026-03-01', 1],
      [DAY, 2],
      [DAY, 1],
    ]);
  });

  it('GET coffre?ACTION=getRecu&pdf=true&id answers the PDF receipt', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/coffre?ACTION=getRecu&pdf=true&id=${first.id}&language=fr`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Comptage du coffre');
    expect(text).toContain('Paris');
    expect(text).toContain('700,00 €'); // expected
    expect(text).toContain('750,00 €'); // counted
    expect(text).toContain('50,00 €'); // variance
    expect(text).toContain('En attente');
  });

  it('GET coffre?ACTION=getRecu&pdf=false&id answers the count as JSON', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/coffre?ACTION=getRecu&pdf=false&id=${first.id}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<SafeCount>()).toEqual(first);
  });

  it('refuses the wrong forms, foreign sites and unknown receipts', async () => {
    const get = (q: string) => ctx.t.app.inject({ url: `/api/coffre?${q}`, headers: ctx.manager.headers });
    expect((await get('')).statusCode).toBe(400);
    expect((await get(`ACTION=getComptages&restaurantId=${ctx.paris}`)).statusCode).toBe(400);
    expect(
      (await get(`ACTION=getComptages&restaurantId=${ctx.paris}&dateDebut=${DAY}&dateFin=2026-03-01`))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await get(
          `ACTION=getComptages&restaurantId=${ctx.chain.sites.nantes}&dateDebut=${DAY}&dateFin=${DAY}`,
        )
      ).statusCode,
    ).toBe(403);
    expect((await get('ACTION=getRecu&pdf=true&id=999999')).statusCode).toBe(404);
    expect((await get('dateFiscale=2026-02-30')).statusCode).toBe(400);
    expect((await saveSafe(safeBody({ site: ctx.chain.sites.nantes }))).statusCode).toBe(403);
  });

  it('a safe count sent twice with one key is written once', async () => {
    const key = randomUUID();
    const body = safeBody({ dateFiscale: '2026-03-10' });
    const a = await saveSafe(body, key);
    const b = await saveSafe(body, key);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toBe(a.body);
    const { rows } = await ctx.t.database.pool.query(
      "SELECT 1 FROM safe_counts WHERE fiscal_date = '2026-03-10'",
    );
    expect(rows).toHaveLength(1);
  });
});

describe('countersignature', () => {
  it('the latest count of the day waits for a countersignature', async () => {
    const res = await ctx.t.app.inject({
      url: `/api/fluxfin/declare_et_en_attente_de_signatures?dateDebut=${DAY}&dateFin=${DAY}&id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<SignaturesAnswer>().data;
    expect(data.map((d) => [d.dateFiscale, d.version, d.status])).toEqual([[DAY, 2, 'EN_ATTENTE']]);
  });

  it('checkContreCode tells a right code from a wrong one without signing', async () => {
    const check = (code: string, contreCode: string) =>
      ctx.t.app.inject({
        url: `/api/bo/checkContreCode?id=${ctx.manager.id}&code=${code}&contreCode=${contreCode}`,
        headers: ctx.manager.headers,
      });
    expect((await check('boss', '4821')).json()).toEqual({ valide: true, managerName: 'boss' });
    expect((await check('boss', '0000')).json()).toEqual({ valide: false, managerName: null });
    expect((await check('manager', '4821')).json()).toEqual({ valide: false, managerName: null });
    // Not a manager of the caller's sites (unknown logins alike): refused, the code never looked at.
    expect((await check('nobody-at-all', '4821')).statusCode).toBe(403);
  });

  it('a wrong code, the counter themself or a manager without the site cannot countersign', async () => {
    expect((await countersign(signQuery({ managerCode: '1111' }))).json()).toMatchObject({
      code: 'BadManagerCode',
    });
    await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/setContreCode?id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
      payload: { contreCode: '123456' },
    });
    const self = await countersign(signQuery({ managerName: 'manager', managerCode: '123456' }));
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ code: 'BadManagerCode' });
    const lyonBossId = await ctx.t.createUser({
      login: 'lyonboss',
      password: PASSWORD,
      droits: ['COFFRE'],
      restaurantIds: [ctx.chain.sites.lyon],
    });
    const lyonHeaders = await ctx.t.signIn('lyonboss', PASSWORD);
    await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/setContreCode?id=${lyonBossId}`,
      headers: lyonHeaders,
      payload: { contreCode: '2468' },
    });
    expect((await countersign(signQuery({ managerName: 'lyonboss', managerCode: '2468' }))).statusCode).toBe(
      400,
    );
  });

  it('a manager code must be 4 to 6 digits and is stored hashed', async () => {
    const bad = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/setContreCode?id=${boss.id}`,
      headers: boss.headers,
      payload: { contreCode: '12a4' },
    });
    expect(bad.statusCode).toBe(400);
    const { rows } = await ctx.t.database.pool.query<{ code_hash: string }>(
      'SELECT code_hash FROM manager_codes WHERE user_id = $1',
      [boss.id],
    );
    expect(rows[0]!.code_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.code_hash).not.toContain('4821');
  });

  it('another manager countersigns with their code; the day then shows as countersigned, and only once', async () => {
    const res = await countersign(signQuery());
    expect(res.statusCode).toBe(200);
    expect(res.json<SafeCount>()).toMatchObject({
      version: 2,
      countersignature: { managerUserId: boss.id, managerName: 'boss', commentaire: 'vu' },
    });
    const list = await ctx.t.app.inject({
      url: `/api/fluxfin/declare_et_en_attente_de_signatures?dateDebut=${DAY}&dateFin=${DAY}&id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
    });
    expect(list.json<SignaturesAnswer>().data[0]!.status).toBe('CONTRE_SIGNE');
    const again = await countersign(signQuery());
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'AlreadyCountersigned' });
    const pdf = await ctx.t.app.inject({
      url: `/api/coffre?ACTION=getRecu&pdf=true&id=${res.json<SafeCount>().id}&language=en`,
      headers: ctx.manager.headers,
    });
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Countersignature');
    expect(text).toContain('boss');
  });

  it('a recount after the countersignature waits for a new one', async () => {
    await saveSafe(safeBody({ comment: 'après contre-signature' }));
    const list = await ctx.t.app.inject({
      url: `/api/fluxfin/declare_et_en_attente_de_signatures?dateDebut=${DAY}&dateFin=${DAY}&id=${ctx.manager.id}`,
      headers: ctx.manager.headers,
    });
    expect(list.json<SignaturesAnswer>().data.map((d) => [d.version, d.status])).toEqual([[3, 'EN_ATTENTE']]);
  });

  it('there is nothing to countersign on a day without a count', async () => {
    expect((await countersign(signQuery({ datefiscale: '2026-04-01' }))).statusCode).toBe(404);
  });
});

describe('guessing manager codes', () => {
  let g: TestApp;
  beforeAll(async () => {
    g = await createTestApp({ config: { loginRatePerMinute: 3 } });
  });
  afterAll(async () => {
    await g.close();
  });

  it('checkContreCode is rate-limited per client like the login', async () => {
    const id = await g.createUser({ login: 'm', password: PASSWORD, droits: ['COFFRE'] });
    const headers = await g.signIn('m', PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await g.app.inject({
        url: `/api/bo/checkContreCode?id=${id}&code=boss&contreCode=${1000 + i}`,
        headers,
      });
      statuses.push(res.statusCode);
    }
    // 'boss' is no manager of m's sites (403), yet every attempt counts against the address.
    expect(statuses).toEqual([403, 403, 403, 429]);
  });

  it('a GET that acts has no HEAD twin', async () => {
    const res = await g.app.inject({
      method: 'HEAD',
      url: '/api/bo/updateRule?id=1&libelle=comptageCartes&active=true',
    });
    expect(res.statusCode).toBe(404);
  });
});
