import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, SECURITY_HEADER_OPTIONS } from '../../src/server/app.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { ApiHttpError } from '../../src/server/plugins/error-handler.ts';
import { helmetHeaders } from '../../src/server/plugins/security-headers.ts';
import { createTestDatabase } from '../helpers/db.ts';

describe('error answers', () => {
  const config = loadConfig({ COMPTOIR_DEMO: '0', LOG_LEVEL: 'silent' });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logged: unknown[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config, database });
    // Routes outside /api are not in the rights table; these exist only to throw.
    app.get('/test/boom', async () => {
      throw new Error('secret connection string postgres://x');
    });
    app.get('/test/report', async () => {
      throw new ApiHttpError(400, 'MaxReportDays', 'period too long', { maxDays: 31 });
    });
    app.get(
      '/test/validate',
      { schema: { querystring: z.object({ n: z.coerce.number().int() }) } },
      async () => ({}),
    );
    app.post(
      '/test/echo',
      { schema: { body: z.object({ id: z.number() }) } },
      async (request) => request.body,
    );
    app.addHook('onError', async (_request, _reply, error) => {
      logged.push(error);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('hides the message of an unexpected failure behind 500 InternalError', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'InternalError', message: 'internal error' });
    expect(res.body).not.toContain('postgres://');
    expect(logged).toHaveLength(1);
  });

  it('answers an ApiHttpError with its status, code, message and details', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/report' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'MaxReportDays',
      message: 'period too long',
      details: { maxDays: 31 },
    });
  });

  it('answers a request that fails its schema with 400 BadRequest and the issues', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/validate?n=abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'BadRequest',
      details: { issues: [{ where: 'querystring', path: '/n' }] },
    });
  });

  it('answers malformed JSON bodies with 400 BadRequest', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/test/echo',
      payload: '{"id":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest' });
  });

  it('answers an unknown path outside the API with 404 NotFound when no client is served', async () => {
    const res = await app.inject({ method: 'GET', url: '/rapports', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NotFound' });
  });

  it('sends the security headers, with a CSP for the SPA and no upgrade to HTTPS', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/version' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the same security headers on every kind of answer: refused, not found, failed, invalid', async () => {
    const expected = helmetHeaders(SECURITY_HEADER_OPTIONS);
    const answers = [
      await app.inject({ method: 'GET', url: '/api/version' }),
      await app.inject({
        method: 'GET',
        url: '/api/bo/getSites',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      }),
      await app.inject({ method: 'GET', url: '/api/bo/getSites' }),
      await app.inject({ method: 'GET', url: '/api/nowhere' }),
      await app.inject({ method: 'GET', url: '/test/boom' }),
      await app.inject({ method: 'GET', url: '/test/validate?n=x' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 400, 404, 500, 400]);
    for (const res of answers) {
      for (const [name, value] of Object.entries(expected))
        expect(res.headers[name.toLowerCase()], name).toBe(value);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('security headers', () => {
  it('are the headers helmet writes for our options, computed once', () => {
    const headers = helmetHeaders(SECURITY_HEADER_OPTIONS);
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(headers['Strict-Transport-Security']).toBeUndefined();
    expect(headers['X-Powered-By']).toBeUndefined();
    expect(Object.keys(headers).sort()).toEqual([
      'Content-Security-Policy',
      'Cross-Origin-Opener-Policy',
      'Cross-Origin-Resource-Policy',
      'Origin-Agent-Cluster',
      'Referrer-Policy',
      'X-Content-Type-Options',
      'X-DNS-Prefetch-Control',
      'X-Download-Options',
      'X-Frame-Options',
      'X-Permitted-Cross-Domain-Policies',
      'X-XSS-Protection',
    ]);
  });

  it('refuses options that make a header depend on the request, and options helmet refuses', () => {
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } } }),
    ).toThrow(/depends on the request/);
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", 'bad;value'] } } }),
    ).toThrow();
  });
});

describe('configuration', () => {
  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ COMPTOIR_ADMIN_PASSWORD: 'short' })).toThrow(/COMPTOIR_ADMIN_PASSWORD/);
    expect(() => loadConfig({ COMPTOIR_DEMO: 'maybe' })).toThrow(/COMPTOIR_DEMO/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      adminLogin: 'admin',
      demo: true,
      databaseUrl: undefined,
    });
    expect(loadConfig({ COMPTOIR_DEMO: '0' }).demo).toBe(false);
  });
});
