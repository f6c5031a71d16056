import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_RIGHTS, type ApiRoute, type Requirement } from '../../src/contract/rights.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { checkRouteRights } from '../../src/server/plugins/rights-guard.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';

const PASSWORD = 'Correct-Horse1';
const entries = Object.entries(API_RIGHTS) as [ApiRoute, Requirement][];

/**
 * Method and URL of a rights-table key, path parameters filled with a plausible value. A home
 * widget is named one that does not exist: past the guard, each widget checks the right of its
 * data itself (issue #17 item 8, tests/server/home-rights.test.ts), and an unknown one answers 404.
 */
function request(key: ApiRoute, id: number): { method: 'GET' | 'POST'; url: string } {
  const [method, path] = key.split(' ') as ['GET' | 'POST', string];
  const filled = path.replace(/:widget/g, 'no-such-widget').replace(/:[a-zA-Z]+/g, 'x');
  return { method, url: `/api/${filled}?id=${id}` };
}

describe('the rights table is enforced on every route', () => {
  let t: TestApp;
  let nobodyId: number;
  beforeAll(async () => {
    t = await createTestApp();
    nobodyId = await t.createUser({ login: 'nobody', password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(entries.map(([key]) => key))('%s is served by a route', (key) => {
    const [method, path] = key.split(' ');
    expect(t.app.hasRoute({ method: method as 'GET', url: `/api/${path}` })).toBe(true);
  });

  it.each(entries.filter(([, r]) => r !== 'public').map(([key]) => key))(
    '%s answers 401 Unauthorized without a session',
    async (key) => {
      const res = await t.app.inject({
        ...request(key, nobodyId),
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'Unauthorized' });
    },
  );

  it.each(entries.filter(([, r]) => typeof r === 'object').map(([key]) => key))(
    '%s answers 403 Forbidden to a signed-in user without the right',
    async (key) => {
      const headers = await t.signIn('nobody', PASSWORD);
      const res = await t.app.inject({ ...request(key, nobodyId), headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden' });
    },
  );

  it.each(entries.filter(([, r]) => r === 'session').map(([key]) => key))(
    '%s lets any signed-in user through the guard',
    async (key) => {
      // A fresh sign-in each time: the bo/logout case revokes its token.
      const headers = await t.signIn('nobody', PASSWORD);
      const res = await t.app.inject({ ...request(key, nobodyId), headers });
      expect([401, 403]).not.toContain(res.statusCode);
    },
  );

  it.each(entries.filter(([, r]) => r === 'public').map(([key]) => key))(
    '%s is reachable without a session',
    async (key) => {
      const res = await t.app.inject({
        ...request(key, nobodyId),
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(res.statusCode).not.toBe(403);
      // bo/connexion answers badCredentials for the missing password, never the guard's codes.
      expect(res.body).not.toMatch(/"code":"(Unauthorized|Forbidden)"/);
    },
  );
});

describe('a route outside the rights table stops the start-up', () => {
  const config = loadConfig({ COMPTOIR_DEMO: '0', LOG_LEVEL: 'silent' });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('rejects an /api route without config.rights', async () => {
    const app = await buildApp({ config, database });
    app.register(
      async (api) => {
        api.get('/bo/secret', async () => ({ ok: true }));
      },
      { prefix: '/api' },
    );
    await expect(app.ready()).rejects.toThrow(/GET \/api\/bo\/secret has no config\.rights/);
  });

  it('rejects a GET that changes data (WRITE_GETS) registered as a plain read, with its HEAD twin', async () => {
    const app = await buildApp({ config, database });
    app.register(
      async function readLikeRemove(api) {
        api.get(
          '/bo/favoris/remove',
          { config: { rights: 'GET bo/favoris/remove' } },
          async function remove() {
            return { id: 1 };
          },
        );
      },
      { prefix: '/api' },
    );
    await expect(app.ready()).rejects.toThrow(/\/api\/bo\/favoris\/remove changes data \(WRITE_GETS\)/);
  });

  it('rejects a route naming the rights of another path or method', () => {
    expect(() =>
      checkRouteRights({
        method: 'GET',
        url: '/api/bo/getCaisses',
        config: { rights: 'GET bo/getSites' },
        handler: () => {},
      }),
    ).toThrow(/names rights "GET bo\/getSites"/);
    expect(() =>
      checkRouteRights({
        method: 'POST',
        url: '/api/bo/getSites',
        config: { rights: 'GET bo/getSites' },
        handler: () => {},
      }),
    ).toThrow(/POST bo\/getSites/);
    expect(() =>
      checkRouteRights({
        method: 'GET',
        url: '/api/bo/x',
        config: { rights: 'GET bo/x' as ApiRoute },
        handler: () => {},
      }),
    ).toThrow(/not in API_RIGHTS/);
  });

  it('accepts routes outside /api and routes naming their own entry', () => {
    expect(() => checkRouteRights({ method: 'GET', url: '/assets/*', handler: () => {} })).not.toThrow();
    expect(() =>
      checkRouteRights({
        method: ['GET', 'HEAD'],
        url: '/api/bo/getSites',
        config: { rights: 'GET bo/getSites' },
        handler: () => {},
      }),
    ).not.toThrow();
  });
});
