import fastifyFormbody from '@fastify/formbody';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { buildApp } from '../../../src/server/app.ts';
import { parseBasic } from '../../../src/server/auth/tokens.ts';
import { loadConfig } from '../../../src/server/config.ts';
import {
  isCleanPercentEncoded,
  isCleanValue,
  MAX_JSON_DEPTH,
} from '../../../src/server/plugins/input-guard.ts';
import { basic } from '../../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

/** A JSON text of `depth` arrays nested in one another. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('the checks of text', () => {
  it('accepts percent-encoded UTF-8 and refuses NUL, lone bytes, overlong forms and surrogates', () => {
    expect(isCleanPercentEncoded('/api/x?libelle=caf%C3%A9&q=a+b&pct=100%')).toBe(true);
    expect(isCleanPercentEncoded('/api/x?libelle=%F0%9F%8D%B0')).toBe(true);
    for (const bad of ['?a=%00', '?a=%FF', '?a=%C3', '?a=%C3&b=%A9', '/assets/%c0%ae', '?a=%ED%A0%80']) {
      expect(isCleanPercentEncoded(bad), bad).toBe(false);
    }
  });

  it('walks parsed values, keys included, without recursion', () => {
    expect(isCleanValue({ a: ['é', { b: 'ok' }], n: 1, z: null })).toBe(true);
    expect(isCleanValue({ a: ['x', { b: 'a\u0000b' }] })).toBe(false);
    expect(isCleanValue({ 'k\u0000': 1 })).toBe(false);
    expect(isCleanValue(['\ud800'])).toBe(false);
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(isCleanValue(deep)).toBe(false);
  });

  it('a Basic header that does not decode to text without NUL is no credentials', () => {
    expect(parseBasic(basic('marie', 'Secret-1!'))).toEqual({ login: 'marie', secret: 'Secret-1!' });
    expect(parseBasic(basic('a\u0000', 'b'))).toBeNull();
    expect(parseBasic(`Basic ${Buffer.from([0x61, 0xff, 0x3a, 0x62]).toString('base64')}`)).toBeNull();
  });
});

describe('the input guard of the app', () => {
  let t: LoggedApp;
  let headers: Record<string, string>;
  let userId: number;
  beforeAll(async () => {
    t = await createLoggedApp('info', 'json');
    userId = await t.createUser('marie');
    headers = await t.signIn('marie');
  });
  afterAll(async () => {
    await t.close();
  });

  const favourite = (payload: string | Buffer, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${userId}`,
      headers: { ...headers, 'content-type': contentType },
      payload,
    });

  it('refuses a NUL or a lone byte in the query with 400 InvalidText, before the rights guard', async () => {
    for (const url of [
      `/api/bo/getSites?id=${userId}&x=%00`,
      `/api/bo/getSites?id=${userId}&x=%FF`,
      '/api/bo/connexion?username=a%00b',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'url' } });
      expect(res.body).not.toContain('%00');
    }
  });

  it('refuses a header we read that is not UTF-8 text, naming the header', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getSites?id=${userId}`,
      headers: { ...headers, 'accept-language': Buffer.from([0x66, 0x72, 0xff]).toString('latin1') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'InvalidText',
      details: { where: 'header', name: 'accept-language' },
    });
    const key = await t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${userId}`,
      headers: { ...headers, 'idempotency-key': 'a\u0000b' },
      payload: {},
    });
    expect(key.json()).toMatchObject({ code: 'InvalidText', details: { name: 'idempotency-key' } });
  });

  it('answers 401 Unauthorized to a Basic header holding a NUL or invalid UTF-8', async () => {
    for (const authorization of [
      basic('a\u0000', 'b'),
      `Basic ${Buffer.from([0x61, 0xff, 0x3a, 0x62]).toString('base64')}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/bo/getSites?id=${userId}`,
        headers: { authorization, [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'Unauthorized' });
    }
    const login = await t.app.inject({
      method: 'GET',
      url: '/api/bo/connexion?username=a',
      headers: { authorization: basic('a\u0000', 'b'), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    expect(login.statusCode).toBe(401);
  });

  it('refuses JSON strings escaping a NUL or a lone surrogate, and raw invalid bytes', async () => {
    for (const body of [
      '{"libelle":"a\\u0000b","sites":[]}',
      '{"libelle":"a\\ud800","sites":[]}',
      '{"libelle\\u0000":"a"}',
      Buffer.concat([Buffer.from('{"libelle":"a'), Buffer.from([0xff]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"libelle":"a'), Buffer.from([0x00]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"libelle":"caf'), Buffer.from([0xc3])]),
    ]) {
      const res = await favourite(body);
      expect(res.statusCode, String(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'body' } });
    }
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} before parsing it, and accepts ${MAX_JSON_DEPTH}`, async () => {
    const deep = await favourite(nested(10_000));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'BadRequest', details: { maxDepth: MAX_JSON_DEPTH } });
    expect((await favourite(nested(MAX_JSON_DEPTH + 1))).json()).toMatchObject({ code: 'BadRequest' });
    // Brackets inside strings are text, not nesting.
    const inString = await favourite(JSON.stringify({ libelle: nested(100) }));
    expect(inString.json().details?.maxDepth).toBeUndefined();
    // At the limit the body is parsed and reaches validation (which refuses an array).
    const atLimit = await favourite(nested(MAX_JSON_DEPTH));
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().details?.maxDepth).toBeUndefined();
  });

  it('checks a compressed body once decompressed', async () => {
    const gzipped = (body: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bo/favoris/save?id=${userId}`,
        headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(body),
      });
    // Clean: decompressed, parsed and refused by the route's schema only.
    const clean = await gzipped('{"libelle":"café"}');
    expect(clean.statusCode).toBe(400);
    expect(clean.json()).toMatchObject({ code: 'BadRequest', details: { issues: expect.any(Array) } });
    for (const bad of ['{"libelle":"a\\u0000"}', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])]) {
      expect((await gzipped(bad)).json(), String(bad)).toMatchObject({ code: 'InvalidText' });
    }
    expect((await gzipped(nested(10_000))).json()).toMatchObject({ details: { maxDepth: MAX_JSON_DEPTH } });
  });

  it('refuses a NUL in a text/plain body', async () => {
    const res = await favourite('a\u0000b', 'text/plain');
    expect(res.json()).toMatchObject({ code: 'InvalidText' });
  });

  it('wrote no error line for any of these', () => {
    expect(t.errorLines()).toEqual([]);
  });
});

describe('form bodies, whichever parser reads them', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ config: loadConfig({ COMPTOIR_DEMO: '0', LOG_LEVEL: 'silent' }), database });
    // Behind @fastify/formbody, as saveUtilisateur's form body; outside /api, so no rights entry.
    await app.register(fastifyFormbody);
    app.post('/form-echo', async function echoForm(request) {
      return request.body;
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const post = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/form-echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });

  it('passes a clean form body as it was', async () => {
    expect((await post('login=caf%C3%A9&pct=100%')).json()).toEqual({ login: 'café', pct: '100%' });
  });

  it('refuses a %00, a lone %FF, a split sequence or a NUL byte in a form body', async () => {
    for (const payload of ['login=a%00b', 'login=a%FF', 'login=%C3&x=%A9', 'login=a\u0000']) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidText', details: { where: 'body' } });
    }
  });
});
