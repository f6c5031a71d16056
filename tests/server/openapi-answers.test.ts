/**
 * Answers the OpenAPI document promises (issue #17 item 11, decision record 0023), through the
 * real app: an oversized body is 413 PayloadTooLarge, a method no API route serves is 405 with
 * `Allow`, and an unknown query parameter is 400 UnknownParameter naming it — each in SPEC.md §8's
 * shape — while the cache buster `_` and bo/getReport's `merim_*` settings (SPEC.md §7) pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema, ERROR_CODES } from '../../src/contract/errors.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertOneSite } from '../helpers/chain.ts';

const PASSWORD = 'Openapi-Corr3ct-Horse';
const CLIENT = { 'x-requested-with': 'XMLHttpRequest' };

/** The §8 body of `res`, checked. */
function errorBody(res: { json(): unknown }) {
  const body = ApiErrorSchema.parse(res.json());
  expect(ERROR_CODES).toContain(body.code);
  return body;
}

describe('answers the OpenAPI document declares', () => {
  let t: TestApp;
  let id: number;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await insertOneSite(t.database.pool, 'Openapi SAS', 'Comptoir Openapi');
    id = await t.createUser({ login: 'oapi', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
    headers = await t.signIn('oapi', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a body over 1 MiB 413 PayloadTooLarge', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/reinit/reinitPassword',
      headers: { ...CLIENT, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(errorBody(res).code).toBe('PayloadTooLarge');
  });

  it('answers TRACE on an API path 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'TRACE', url: `/api/bo/getSites?id=${id}`, headers });
    expect(res.statusCode).toBe(405);
    expect(String(res.headers.allow)).toContain('GET');
    expect(errorBody(res).message).toContain('TRACE');
  });

  it('refuses an unknown query parameter with 400 UnknownParameter naming it', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${id}&sitess=1`, headers });
    expect(res.statusCode).toBe(400);
    const body = errorBody(res);
    expect(body.code).toBe('UnknownParameter');
    expect(body.details).toMatchObject({ parameter: 'sitess', where: 'querystring' });
  });

  it('refuses it on a write too, before anything is written', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${id}&dryRun=1`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res)).toMatchObject({ code: 'UnknownParameter', details: { parameter: 'dryRun' } });
  });

  it('reads `sites[]` as `sites` where the schema names only `sites` (SPEC.md §7 lists)', async () => {
    const url = (sites: string) =>
      `/api/withCredentials/collab/configurationEvenements?id=${id}&dateDebut=2026-11-01&dateFin=2026-11-02&${sites}`;
    const bracketed = await t.app.inject({ method: 'GET', url: url('sites[]=999999'), headers });
    const bare = await t.app.inject({ method: 'GET', url: url('sites=999999'), headers });
    // A site outside the scope is refused the same way in both spellings: the value was read.
    expect(bare.statusCode).toBe(403);
    expect(bracketed.statusCode).toBe(bare.statusCode);
    expect(errorBody(bracketed).code).toBe(errorBody(bare).code);
  });

  it('accepts the cache buster `_` everywhere and merim_* settings on bo/getReport', async () => {
    const sites = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getSites?id=${id}&_=1764150000000`,
      headers,
    });
    expect(sites.statusCode).toBe(200);
    const report = await t.app.inject({
      method: 'GET',
      url:
        `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&format=JSON&dateDebut=2026-11-01` +
        '&dateFin=2026-11-02&merim_logo=1&_=1',
      headers,
    });
    expect(report.statusCode, report.body).toBe(200);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&format=JSON&colour=red`,
      headers,
    });
    expect(other.statusCode).toBe(400);
    expect(errorBody(other)).toMatchObject({ code: 'UnknownParameter', details: { parameter: 'colour' } });
  });
});
