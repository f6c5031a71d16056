import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_RIGHTS, type ApiRoute } from '../../../src/contract/rights.ts';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

const keys = Object.keys(API_RIGHTS) as ApiRoute[];
const postKeys = keys.filter((k) => k.startsWith('POST '));

/** Method and path of a rights-table key, path parameters filled with a plausible value. */
function route(key: ApiRoute): { method: 'GET' | 'POST'; path: string } {
  const [method, path] = key.split(' ') as ['GET' | 'POST', string];
  return { method, path: `/api/${path.replace(/:widget/g, 'ventes').replace(/:[a-zA-Z]+/g, 'x')}` };
}

describe('a NUL anywhere in a request is a 400 on every API route, never a 500 or an error line', () => {
  let t: LoggedApp;
  let id: number;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createLoggedApp('info', 'json');
    id = await t.createUser('root'); // every right on every site: each route gets past its guard
    headers = await t.signIn('root');
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(keys)('%s: a NUL in a query parameter answers 400 InvalidText', async (key) => {
    const { method, path } = route(key);
    const res = await t.app.inject({
      method,
      url: `${path}?id=${id}&libelle=a%00b&code=x%00&username=root%00`,
      headers,
      ...(method === 'POST' ? { payload: {} } : {}),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'url' } });
  });

  it.each(postKeys)('%s: a NUL in a JSON body answers 400 InvalidText', async (key) => {
    const { path } = route(key);
    for (const payload of ['{"libelle":"a\\u0000b"}', '{"motif":["\\u0000"]}', '"\\u0000"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${path}?id=${id}`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'body' } });
    }
  });

  it.each(postKeys)('%s: JSON nested 10,000 deep answers 400 BadRequest', async (key) => {
    const { path } = route(key);
    const res = await t.app.inject({
      method: 'POST',
      url: `${path}?id=${id}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest', details: { maxDepth: 32 } });
  });

  it('POST bo/infra/saveUtilisateur: a %00, a lone %FF or a split sequence in its form body answers 400 InvalidText', async () => {
    for (const payload of [
      'email=a%00b%40x.fr',
      'theme=%FF',
      'theme=%C3&couleur=%A9',
      'login=root&theme=\u0000',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/bo/infra/saveUtilisateur?id=${id}`,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'body' } });
    }
  });

  it('wrote no line at error level for any of them', () => {
    expect(t.lines.length).toBeGreaterThan(keys.length); // the requests were logged
    expect(t.errorLines()).toEqual([]);
  });
});

describe('every POST of the API declares its body', () => {
  let t: LoggedApp;
  beforeAll(async () => {
    t = await createLoggedApp('info', 'json');
  });
  afterAll(async () => {
    await t.close();
  });

  it('each POST operation of the OpenAPI document has a request body schema', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    const posts = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({ at: `${method} ${path}`, body: op.requestBody })),
    );
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.filter((p) => p.body === undefined).map((p) => p.at)).toEqual([]);
  });
});
