import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../../src/contract/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('version and distribution', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { distribution: 'Chaîne Test' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the application version without any header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: APP_VERSION });
  });

  it('marks API answers, errors included, as not to be stored by HTTP caches', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/version' })).headers['cache-control']).toBe(
      'no-store',
    );
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/bo/getSites?id=1',
      headers: { 'x-requested-with': 'x' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('answers the configured distribution name as nom', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/distribution' });
    expect(res.json()).toEqual({ nom: 'Chaîne Test' });
  });

  it('answers an unknown API path with 404 NotFound as { code, message }', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/bo/nothingHere',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NotFound', message: expect.any(String) });
  });

  it('publishes the OpenAPI document generated from the route schemas at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/bo/connexion', '/api/bo/getSites', '/api/bo/home/{widget}']),
    );
    type Op = { description?: string; security?: unknown[] };
    const ops = doc.paths as Record<string, Record<string, Op>>;
    // Sign-in takes login:password as Basic credentials (issue #17 item 11), though it needs no session.
    expect(ops['/api/bo/connexion']!.get!.security).toEqual([{ basic: [] }]);
    expect(ops['/api/version']!.get!.security).toEqual([]);
    expect(ops['/api/bo/getSites']!.get!.description).toContain('any signed-in user');
    expect(ops['/api/bo/getReport']!.post!.description).toContain('RAPPORTS');
    type Param = { in: string; name: string; required?: boolean };
    const headerParams = (path: string) =>
      ((ops[path]!.get as { parameters?: Param[] }).parameters ?? []).filter((p) => p.in === 'header');
    expect(headerParams('/api/bo/getSites')).toEqual([
      expect.objectContaining({ name: 'X-Requested-With', required: true }),
    ]);
    expect(headerParams('/api/version')).toEqual([]);
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { accept: 'text/html' } });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
