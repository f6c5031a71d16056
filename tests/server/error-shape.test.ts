/**
 * Every API error answers in SPEC.md §8's shape `{ code, message }` (contract/errors.ts
 * ApiErrorSchema), also when Fastify or Node refuse a request before any route runs (issue #17
 * item 9): a URL whose path does not decode (FST_ERR_BAD_URL, `/assets/%c0%ae…`), a path
 * parameter longer than the router keeps (a widget name over 100 characters: 404 NotFound from
 * the API, not the static server), a method no API route serves (405), headers too large (431),
 * and the body errors of Fastify's parser. Real app with a client folder, real socket for 431.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/contract/errors.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';

/** Sends `request` as raw bytes to `port`; answers the status line, headers and body. */
function rawRequest(port: number, request: string): Promise<{ status: string; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const answer = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      return { status: text.split('\r\n')[0] ?? '', head: text.slice(0, end), body: text.slice(end + 4) };
    };
    socket.on('error', (e) => (chunks.length > 0 ? resolve(answer()) : reject(e)));
    socket.on('close', () => resolve(answer()));
  });
}

describe('errors in the §8 shape', () => {
  let t: TestApp;
  let dir: string;
  let headers: AuthHeaders;
  let id: number;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-shape-'));
    await fs.mkdir(path.join(dir, 'assets'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Comptoir</title>');
    await fs.writeFile(path.join(dir, 'assets', 'app-1234.js'), 'export {};');
    t = await createTestApp({ clientDir: dir });
    id = await t.createUser({
      login: 'gerant',
      password: 'Sh4pe!-errors',
      droits: ['RAPPORTS'],
      allSites: true,
    });
    headers = await t.signIn('gerant', 'Sh4pe!-errors');
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const inject = (method: string, url: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'GET', url, headers: { ...headers, ...extra } });

  /** The body of `res`, checked against ApiErrorSchema. */
  function shaped(res: { body: string; headers: Record<string, unknown> }) {
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    return ApiErrorSchema.parse(JSON.parse(res.body));
  }

  it.each(['/assets/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd', '/api/bo/%c0%ae', '/api/bo/home/%E0%A4%A'])(
    'a path that does not decode (%s) answers 400 InvalidText, with the security headers, never echoing it',
    async (url) => {
      const res = await inject('GET', url);
      expect(res.statusCode).toBe(400);
      const body = shaped(res);
      expect(body).toMatchObject({ code: 'InvalidText', details: { where: 'url' } });
      expect(res.body).not.toContain('%c0');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    },
  );

  it("a widget name over 100 characters is the API's 404 NotFound, for a navigation too", async () => {
    for (const accept of ['application/json', 'text/html']) {
      for (const widget of ['w'.repeat(101), 'w'.repeat(5000), `..%2F${'w'.repeat(120)}`]) {
        const res = await inject('GET', `/api/bo/home/${widget}?id=${id}`, { accept });
        expect(res.statusCode, `${accept} ${widget.length}`).toBe(404);
        expect(shaped(res).code).toBe('NotFound');
      }
    }
    // Within the router's limit, the widget route itself answers an unknown widget.
    const known = await inject('GET', `/api/bo/home/${'w'.repeat(100)}?id=${id}`);
    expect(known.statusCode).toBe(404);
    expect(shaped(known).code).toBe('NotFound');
  });

  it.each(['TRACE', 'PROPFIND', 'CONNECT'])('%s on an API path answers 405 with Allow', async (method) => {
    const res = await inject(method, '/api/version');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, PATCH');
    expect(shaped(res).code).toBe('BadRequest');
  });

  it('an unknown API path with a served method stays 404 NotFound', async () => {
    const res = await inject('DELETE', '/api/version');
    expect(res.statusCode).toBe(404);
    expect(shaped(res).code).toBe('NotFound');
  });

  it.each([
    ['malformed JSON', 'application/json', '{"libelle":', 400],
    ['an unsupported content type', 'application/x-comptoir', 'x', 415],
    ['a body over 1 MiB', 'application/json', `{"libelle":"${'a'.repeat(1_100_000)}"}`, 413],
  ] as const)('%s answers %#: in the §8 shape', async (_what, type, payload, status) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${id}`,
      headers: { ...headers, 'content-type': type },
      payload,
    });
    expect(res.statusCode).toBe(status);
    shaped(res);
  });

  it('headers too large (a 1 MB query) answer 431 in the §8 shape over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const res = await rawRequest(
      port,
      `GET /api/version?x=${'a'.repeat(1_000_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(res.head.toLowerCase()).toContain('content-type: application/json');
    expect(ApiErrorSchema.parse(JSON.parse(res.body)).code).toBe('BadRequest');
  });
});
