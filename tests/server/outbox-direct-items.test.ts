/**
 * The batch runs the items of `config.batchItem` routes itself, without the HTTP pipeline
 * (outbox/direct-items.ts, decision record 0027), and must answer exactly what the pipeline
 * answers. Two apps on two databases seeded alike: `direct` as shipped, `piped` built with
 * `directBatchItems: false` (every item sent through `inject`, the way every item went before).
 * The same batches go to both, in the same order, and every answer (status, body, replayed,
 * Retry-After) must be equal, timestamps aside: hand-picked cases, then generated ones
 * (fast-check, seeded: the seed is printed on failure) mixing valid and broken bodies, unknown
 * and bracketed query parameters, other users' ids, sites out of scope, a user without the
 * right, reused keys and keys first sent alone. FUZZ_SEED replays another seed.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutboxBatchAnswer, OutboxBatchItem } from '../../src/contract/outbox-batch.ts';
import { DAY, setUpCounting } from './counting/seed.ts';

const direct = setUpCounting();
const piped = setUpCounting({ directBatchItems: false });
const apps = [direct, piped] as const;

beforeAll(() => {
  // Seeded alike, so the ids a test reads from one app name the same rows in the other.
  expect([direct.paris, direct.manager.id, direct.admin.id]).toEqual([
    piped.paris,
    piped.manager.id,
    piped.admin.id,
  ]);
});

afterEach(() => {
  vi.restoreAllMocks();
});

type Who = 'manager' | 'admin';

/** Sends `items` as one batch by `who` to the app of `ctx`; its answers with timestamps replaced. */
async function send(ctx: (typeof apps)[number], items: OutboxBatchItem[], who: Who = 'manager') {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/bo/outbox/batch',
    headers: ctx[who].headers,
    payload: { items },
  });
  expect(res.statusCode, res.body).toBe(200);
  return withoutTimes(res.json<OutboxBatchAnswer>().answers);
}

/** `value` with every ISO date-time string (receivedAt, createdAt…) replaced: they differ between the two runs. */
function withoutTimes(value: unknown): unknown {
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) ? '<time>' : value;
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutTimes(v)]));
  }
  return value;
}

/** Sends the batch to both apps; expects equal answers and returns them. */
async function sendToBoth(items: OutboxBatchItem[], who: Who = 'manager') {
  const fromDirect = await send(direct, items, who);
  const fromPiped = await send(piped, items, who);
  expect(fromDirect).toEqual(fromPiped);
  return fromDirect as OutboxBatchAnswer['answers'];
}

function cashCount(
  body: Record<string, unknown>,
  query: Record<string, string>,
  key = randomUUID(),
): OutboxBatchItem {
  return { method: 'POST', path: 'bo/comptage/save', query, idempotencyKey: key, schemaVersion: 1, body };
}

const goodCount = () => ({
  site: direct.paris,
  dateFiscale: DAY,
  caisse: 1,
  cash: [{ denominationCents: 500, quantity: 2 }],
  chequesCents: 3000,
  mealVouchersCents: 900,
  cardSlipsCents: null,
});

const goodSafe = () => ({
  site: direct.paris,
  dateFiscale: DAY,
  openingCents: 15_000,
  depositsCents: 2000,
  withdrawalsCents: 500,
  contents: [{ denominationCents: 5000, quantity: 3 }],
});

const receiptQuery = (): Record<string, string> => ({
  codeVendeur: 'V1',
  codeManager: 'M1',
  nomVendeur: 'Alice',
  nomManager: 'Bob',
  site: String(direct.paris),
  dateFiscale: DAY,
});

describe('batch items run by the batch itself answer what the HTTP pipeline answers', () => {
  it('runs the counting writes without inject, and every other item through it', async () => {
    const own = { id: String(direct.manager.id) };
    const items = [
      cashCount(goodCount(), own),
      { method: 'POST', path: 'coffre/save', query: own, idempotencyKey: randomUUID(), body: goodSafe() },
      {
        method: 'GET',
        path: 'bo/updateRule',
        query: { ...own, libelle: 'comptageCartes', active: 'true' },
        idempotencyKey: randomUUID(),
      },
    ] satisfies OutboxBatchItem[];
    const directInject = vi.spyOn(direct.t.app, 'inject');
    const pipedInject = vi.spyOn(piped.t.app, 'inject');
    const answers = await sendToBoth(items);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 403]);
    // The batch request itself, plus one per item sent through the pipeline.
    expect(directInject).toHaveBeenCalledTimes(1 + 1);
    expect(pipedInject).toHaveBeenCalledTimes(1 + 3);
  });

  it('valid writes, their replays, a reused key, the same key twice, and a key first sent alone', async () => {
    const own = { id: String(direct.manager.id) };
    const key = randomUUID();
    const create = {
      method: 'POST',
      path: 'bo/documentsManager/createDocument',
      query: { ...receiptQuery(), id: String(direct.manager.id) },
      idempotencyKey: randomUUID(),
      body: { montantCents: 4200, motif: 'Avance' },
    } satisfies OutboxBatchItem;
    const first = await sendToBoth([
      cashCount({ ...goodCount(), caisse: 2 }, own, key),
      cashCount({ ...goodCount(), caisse: 2 }, own, key),
      create,
    ]);
    expect(first.map((a) => [a.status, a.replayed])).toEqual([
      [200, false],
      [200, true],
      [200, false],
    ]);
    const receiptId = (first[2]!.body as { id: number }).id;

    const again = await sendToBoth([
      cashCount({ ...goodCount(), caisse: 2 }, own, key),
      cashCount({ ...goodCount(), caisse: 2, chequesCents: 1 }, own, key),
      {
        method: 'POST',
        path: 'bo/documentsManager/updateDocument',
        query: { ...receiptQuery(), documentId: String(receiptId) },
        idempotencyKey: randomUUID(),
        body: { montantCents: 4300, motif: 'Avance corrigée', commentaire: 'x' },
      },
    ]);
    expect(again.map((a) => [a.status, a.replayed])).toEqual([
      [200, true],
      [422, false],
      [200, false],
    ]);

    // A key first sent alone (its answer lost), then in a batch: replayed from the kept answer.
    const alone = randomUUID();
    for (const ctx of apps) {
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: `/api/coffre/save?id=${ctx.manager.id}`,
        headers: { ...ctx.manager.headers, 'idempotency-key': alone },
        payload: { ...goodSafe(), openingCents: 100 },
      });
      expect(res.statusCode).toBe(200);
    }
    const replayed = await sendToBoth([
      {
        method: 'POST',
        path: 'coffre/save',
        query: own,
        idempotencyKey: alone,
        body: { ...goodSafe(), openingCents: 100 },
      },
    ]);
    expect(replayed[0]).toMatchObject({ status: 200, replayed: true });
  });

  it('refusals: rights, ids, sites, validation of body and query, unknown parameters, missing body', async () => {
    const own = { id: String(direct.manager.id) };
    const answers = await sendToBoth([
      cashCount(goodCount(), { id: String(direct.admin.id) }), // another user's id
      cashCount({ ...goodCount(), site: direct.chain.sites.nantes }, own), // a site out of scope
      cashCount({ ...goodCount(), caisse: 2 ** 31 }, own), // beyond the column
      cashCount({ ...goodCount(), dateFiscale: '2026-02-30' }, own),
      cashCount({ ...goodCount(), chequesCents: 'a lot' }, { id: 'me' }), // body checked before query
      cashCount(goodCount(), { id: 'me' }),
      cashCount(goodCount(), { ...own, dateDebutt: '2026-03-01' }), // unknown parameter
      cashCount(goodCount(), { ...own, _: '1764000000000' }), // the cache buster is accepted
      { method: 'POST', path: 'coffre/save', query: own, idempotencyKey: randomUUID() }, // no body
      {
        method: 'POST',
        path: 'bo/documentsManager/updateDocument',
        query: { ...receiptQuery(), documentId: '987654' }, // no such receipt
        idempotencyKey: randomUUID(),
        body: { montantCents: 1, motif: 'x' },
      },
    ]);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 400, 400, 400, 400, 400, 200, 400, 404]);
    expect(answers[4]!.body).toMatchObject({ code: 'BadRequest', details: { issues: [{ where: 'body' }] } });
    expect(answers[5]!.body).toMatchObject({
      code: 'BadRequest',
      details: { issues: [{ where: 'querystring' }] },
    });
    expect(answers[6]!.body).toMatchObject({
      code: 'UnknownParameter',
      details: { parameter: 'dateDebutt' },
    });

    const withoutRight = await sendToBoth([cashCount(goodCount(), { id: String(direct.admin.id) })], 'admin');
    expect(withoutRight[0]).toMatchObject({ status: 403, body: { code: 'Forbidden' } });
  });

  it('generated batches of good and broken writes get equal answers from both ways (seeded)', async () => {
    const anyNumber = fc.constantFrom<unknown>(0, 1, -1, 1.5, 2 ** 31, '12', null, undefined, 5000);
    const part = <T>(good: T) =>
      fc.oneof({ weight: 3, arbitrary: fc.constant<unknown>(good) }, { weight: 1, arbitrary: anyNumber });
    const keys: string[] = [];
    const keyOf = fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.nat(1000) },
    );
    const query = fc.record({
      id: fc.constantFrom(
        String(direct.manager.id),
        String(direct.manager.id),
        String(direct.admin.id),
        'x',
        '',
      ),
      extra: fc.constantFrom<Record<string, string>>({}, {}, {}, { _: '1' }, { zz: '1' }, { 'id[]': '3' }),
    });
    const countBody = fc.record({
      site: fc.constantFrom<unknown>(
        direct.paris,
        direct.paris,
        direct.chain.sites.lyon,
        direct.chain.sites.nantes,
        0,
      ),
      dateFiscale: fc.constantFrom<unknown>(DAY, DAY, '2026-03-03', '2026-02-30', 'x', undefined),
      caisse: fc.constantFrom<unknown>(1, 2, 2, 3, 0, 2 ** 31),
      cash: fc.constantFrom<unknown>(
        [{ denominationCents: 500, quantity: 2 }],
        null,
        [],
        [{ denominationCents: 3, quantity: 1 }],
        'x',
      ),
      chequesCents: part(3000),
      mealVouchersCents: part(900),
      cardSlipsCents: part(null),
      comment: fc.constantFrom<unknown>(undefined, '', 'ok', 5),
    });
    const safeBody = fc.record({
      site: fc.constantFrom<unknown>(direct.paris, direct.chain.sites.nantes, -4),
      dateFiscale: fc.constantFrom<unknown>(DAY, '2026-03-04', '03/02/2026'),
      openingCents: part(15_000),
      depositsCents: part(2000),
      withdrawalsCents: part(500),
      contents: fc.constantFrom<unknown>([{ denominationCents: 5000, quantity: 3 }], [], null),
    });
    const receiptBody = fc.record({
      montantCents: part(4200),
      motif: fc.constantFrom<unknown>('Avance', '', 'x'.repeat(201), undefined),
    });
    const item = fc.oneof(
      fc.record({ path: fc.constant('bo/comptage/save'), body: countBody, query, key: keyOf }),
      fc.record({ path: fc.constant('coffre/save'), body: safeBody, query, key: keyOf }),
      fc.record({
        path: fc.constant('bo/documentsManager/createDocument'),
        body: receiptBody,
        query,
        key: keyOf,
      }),
    );
    const batchOf = fc.record({
      who: fc.constantFrom<Who>('manager', 'manager', 'manager', 'admin'),
      items: fc.array(item, { minLength: 1, maxLength: 8 }),
    });

    await fc.assert(
      fc.asyncProperty(batchOf, async ({ who, items }) => {
        const batch = items.map(({ path, body, query: q, key }): OutboxBatchItem => {
          const reused = key === null || keys.length === 0 ? null : keys[key % keys.length]!;
          const idempotencyKey = reused ?? randomUUID();
          keys.push(idempotencyKey);
          const params =
            path === 'bo/documentsManager/createDocument'
              ? { ...receiptQuery(), ...q.extra }
              : { id: q.id, ...q.extra };
          return { method: 'POST', path, query: params, idempotencyKey, body: withoutUndefined(body) };
        });
        await sendToBoth(batch, who);
      }),
      { numRuns: 40, seed: seedOfRun(), verbose: 1 },
    );
  });
});

/** `body` without the fields fast-check left undefined (a field missing from the JSON). */
function withoutUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** The run's seed: FUZZ_SEED when set (fast-check prints the failing one), else the suite's fixed seed. */
function seedOfRun(): number {
  return Number(process.env.FUZZ_SEED ?? 20_261_126);
}
