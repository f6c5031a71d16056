/**
 * lib/http and lib/session against a real HTTP server on loopback: headers of every call,
 * error codes as ApiFailure, 401 → sign-out, binary downloads with progress (SPEC.md §4, §7, §8).
 */
import 'fake-indexeddb/auto';
import { get } from 'idb-keyval';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ADMIN, decodeBasic, json, startTestApi, type TestApi } from './api-server.ts';

let api: TestApi;
let httpLib: typeof import('../../src/client/lib/http.ts');
let sessionLib: typeof import('../../src/client/lib/session.ts');

beforeAll(async () => {
  api = await startTestApi();
  vi.stubEnv('VITE_API_BASE', api.base);
  httpLib = await import('../../src/client/lib/http.ts');
  sessionLib = await import('../../src/client/lib/session.ts');
  api.on('bo/connexion', (req, res) => {
    if (decodeBasic(req.headers.authorization) === `${ADMIN.login}:Secret-1234`) json(res, 200, ADMIN);
    else json(res, 401, { code: 'badCredentials', message: 'bad login or password' });
  });
  api.on('bo/logout', (_req, res) => json(res, 200, {}));
});

afterAll(async () => {
  await api.close();
  vi.unstubAllEnvs();
});

beforeEach(async () => {
  await sessionLib.signOut('user');
  api.requests.length = 0;
});

describe('every API call', () => {
  it('carries Basic login:token of the signed-in user, X-Requested-With and a cache-busting timestamp', async () => {
    await sessionLib.signIn(ADMIN.login, 'Secret-1234');
    api.on('version', (_req, res) => json(res, 200, { version: '1.3.0' }));
    const before = Date.now();
    await httpLib.getJson('version', z.object({ version: z.string() }));
    const req = api.requests.find((r) => r.path === 'version')!;
    expect(decodeBasic(req.headers.authorization)).toBe(`${ADMIN.login}:${ADMIN.token}`);
    expect(req.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(Number(req.search.get('_'))).toBeGreaterThanOrEqual(before);
  });

  it('signs in with Basic login:password on bo/connexion?username', async () => {
    await sessionLib.signIn(ADMIN.login, 'Secret-1234');
    const req = api.requests.find((r) => r.path === 'bo/connexion')!;
    expect(req.search.get('username')).toBe(ADMIN.login);
    expect(decodeBasic(req.headers.authorization)).toBe(`${ADMIN.login}:Secret-1234`);
    expect(sessionLib.session.user?.token).toBe(ADMIN.token);
  });

  it('sends arrays as repeated name[] parameters and validates the answer with the schema', async () => {
    api.on('bo/getSites', (req, res) => json(res, 200, { got: req.search.getAll('sites[]') }));
    const answer = await httpLib.getJson('bo/getSites', z.object({ got: z.array(z.string()) }), {
      id: 7,
      sites: [3, 5],
    });
    expect(answer.got).toEqual(['3', '5']);
    await expect(
      httpLib.getJson('bo/getSites', z.object({ other: z.string() }), { sites: [1] }),
    ).rejects.toThrow();
  });
});

describe('failures', () => {
  it('turn the server error code into an ApiFailure with status and details', async () => {
    api.on('bo/getReport', (_req, res) =>
      json(res, 400, { code: 'MaxReportDays', message: 'too long', details: { maxDays: 31 } }),
    );
    const error = await httpLib.getJson('bo/getReport', z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(httpLib.ApiFailure);
    expect(error).toMatchObject({ code: 'MaxReportDays', status: 400, details: { maxDays: 31 } });
  });

  it('say badCredentials for a wrong password, without signing anybody out', async () => {
    const signedOut = vi.fn();
    const off = sessionLib.onSignOut(signedOut);
    const error = await sessionLib.signIn(ADMIN.login, 'wrong').catch((e: unknown) => e);
    off();
    expect(error).toMatchObject({ code: 'badCredentials', status: 401 });
    expect(sessionLib.session.user).toBeNull();
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('say Network Error when the server cannot be reached', async () => {
    const dead = await startTestApi();
    await dead.close();
    // A second instance of the module, pointed at the closed port.
    vi.resetModules();
    vi.stubEnv('VITE_API_BASE', dead.base);
    const unreachable = await import('../../src/client/lib/http.ts');
    vi.stubEnv('VITE_API_BASE', api.base);
    const error = await unreachable.getJson('version', z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(unreachable.ApiFailure);
    expect(error).toMatchObject({ code: 'Network Error', status: null });
  });

  it('say Network Error when a gateway answers 502 without a code', async () => {
    api.on('bo/getCaisses', (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    await expect(httpLib.getJson('bo/getCaisses', z.unknown())).rejects.toMatchObject({
      code: 'Network Error',
      status: 502,
    });
  });

  it('sign the user out on a 401 of an authenticated call, and forget the stored user', async () => {
    await sessionLib.signIn(ADMIN.login, 'Secret-1234');
    expect(await get(sessionLib.SESSION_KEY)).toBeDefined();
    const reasons: string[] = [];
    const off = sessionLib.onSignOut((reason) => {
      reasons.push(reason);
    });
    api.on('bo/getVendeurs', (_req, res) => json(res, 401, { code: 'Unauthorized', message: 'expired' }));
    await expect(httpLib.getJson('bo/getVendeurs', z.unknown())).rejects.toMatchObject({
      code: 'Unauthorized',
      status: 401,
    });
    await vi.waitFor(() => expect(reasons).toEqual(['expired']));
    off();
    expect(sessionLib.session.user).toBeNull();
    expect(await get(sessionLib.SESSION_KEY)).toBeUndefined();
  });
});

describe('download', () => {
  it('reports progress up to 1 and names the file from Content-Disposition', async () => {
    const body = Buffer.alloc(300_000, 65);
    api.on('bo/getReport', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-length': String(body.length),
        'content-disposition': `attachment; filename="ventes.pdf"; filename*=UTF-8''ventes%20d%C3%A9cembre.pdf`,
      });
      res.end(body);
    });
    const seen: (number | null)[] = [];
    const { blob, filename } = await httpLib.download(
      'bo/getReport',
      { format: 'PDF', 'sites[]': [1] },
      (f) => seen.push(f),
    );
    expect(blob.size).toBe(body.length);
    expect(filename).toBe('ventes décembre.pdf');
    expect(seen.at(-1)).toBe(1);
    expect(seen.every((f) => f !== null && f >= 0 && f <= 1)).toBe(true);
  });

  it('reports an unknown size as null while the body streams without Content-Length', async () => {
    api.on('bo/getReport', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('a;b\n');
      setTimeout(() => res.end('1;2\n'), 20);
    });
    const seen: (number | null)[] = [];
    const { filename } = await httpLib.download('bo/getReport', undefined, (f) => seen.push(f));
    expect(filename).toBe('getReport');
    expect(seen).toContain(null);
    expect(seen.at(-1)).toBe(1);
  });
});
