/**
 * GETs that change data are writes (issue #17 item 5, contract/rights.ts WRITE_GETS), shown on
 * the real server with `GET bo/favoris/remove`: its HEAD deletes nothing (there is no HEAD route),
 * a keyed repeat is answered from the first answer without acting twice, and every declared
 * write GET the server registers has no HEAD twin.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../src/contract/counting.ts';
import { WRITE_GETS } from '../../src/contract/rights.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('GET bo/favoris/remove is a write', () => {
  let t: TestApp;
  let chain: Chain;
  let userId: number;
  let headers: Record<string, string>;

  /** Creates a favourite of the user through the API; answers its id. */
  async function newFavourite(libelle: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${userId}`,
      headers,
      payload: {
        libelle,
        typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
        type: 'Daily',
        lSites: [chain.sites.paris],
        periode: 'W-1',
        format: 'PDF',
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: number }>().id;
  }

  async function favouriteCount(id: number): Promise<number> {
    const { rows } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM favourites WHERE id = $1',
      [id],
    );
    return rows[0]!.n;
  }

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    userId = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    headers = await t.signIn('gerant', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no HEAD route: a HEAD deletes nothing', async () => {
    const id = await newFavourite('Tête');
    const res = await t.app.inject({
      method: 'HEAD',
      url: `/api/bo/favoris/remove?id=${userId}&favoriId=${id}`,
      headers,
    });
    expect([404, 405]).toContain(res.statusCode);
    expect(await favouriteCount(id)).toBe(1);
    // The GET itself still deletes.
    const get = await t.app.inject({
      method: 'GET',
      url: `/api/bo/favoris/remove?id=${userId}&favoriId=${id}`,
      headers,
    });
    expect(get.statusCode).toBe(200);
    expect(await favouriteCount(id)).toBe(0);
  });

  it('answers a keyed repeat from the first answer, deleting once', async () => {
    const id = await newFavourite('Rejouée');
    const key = randomUUID();
    const url = `/api/bo/favoris/remove?id=${userId}&favoriId=${id}`;
    const keyed = { ...headers, [IDEMPOTENCY_KEY_HEADER]: key };
    const first = await t.app.inject({ method: 'GET', url, headers: keyed });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id });
    expect(first.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    expect(await favouriteCount(id)).toBe(0);

    // The client's cache buster `_` is not part of the request's identity.
    const again = await t.app.inject({ method: 'GET', url: `${url}&_=123`, headers: keyed });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id });
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBe('true');

    // Without the key the same call acts again, and finds nothing left to delete.
    const unkeyed = await t.app.inject({ method: 'GET', url, headers });
    expect(unkeyed.statusCode).toBe(404);
    const { rows } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1',
      [key],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses the key reused for another favourite (422), deleting nothing', async () => {
    const first = await newFavourite('Première');
    const second = await newFavourite('Seconde');
    const keyed = { ...headers, [IDEMPOTENCY_KEY_HEADER]: randomUUID() };
    const url = (favoriId: number) => `/api/bo/favoris/remove?id=${userId}&favoriId=${favoriId}`;
    expect((await t.app.inject({ method: 'GET', url: url(first), headers: keyed })).statusCode).toBe(200);
    const reused = await t.app.inject({ method: 'GET', url: url(second), headers: keyed });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ code: 'IdempotencyKeyReused' });
    expect(await favouriteCount(second)).toBe(1);
  });

  it('registers every declared write GET it serves without a HEAD twin', () => {
    const served = WRITE_GETS.filter((key) =>
      t.app.hasRoute({ method: 'GET', url: `/api/${key.slice('GET '.length)}` }),
    );
    // At least the ones of this branch's features (favourites, counting rules and mails).
    expect(served).toEqual(
      expect.arrayContaining([
        'GET bo/favoris/remove',
        'GET bo/updateRule',
        'GET bo/home/envoieMail',
        'GET bo/home/envoieMailManquant',
      ]),
    );
    for (const key of served) {
      expect(t.app.hasRoute({ method: 'HEAD', url: `/api/${key.slice('GET '.length)}` }), key).toBe(false);
    }
  });
});
