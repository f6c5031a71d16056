/**
 * Every integer the API accepts carries the bounds of the column it ends in (issue #17 item 10):
 * an id of 2³¹ or more used to reach PostgreSQL ("value out of range for type integer") and
 * answer 500. Checked over the OpenAPI document (so a new route is covered without editing this
 * test) and by the issue's four reproductions against the real app and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIGINT_ID_MAX, CENTS_MAX, INT4_MAX } from '../../src/contract/integers.ts';
import { createTestApp, type AuthHeaders, type TestApp } from '../helpers/app.ts';
import { insertOneSite } from '../helpers/chain.ts';

/**
 * Integers that end in a `bigint` column (bigserial ids of the counting tables, tickets and
 * editions; amounts in cents): bounded by what a JavaScript number holds exactly instead of int4.
 */
const BIGINT_FIELDS: Record<string, number> = {
  'GET /api/coffre query:id': BIGINT_ID_MAX,
  'GET /api/bo/home/envoieMail query:idRecu': BIGINT_ID_MAX,
  'GET /api/bo/documentsManager/readDocument query:documentId': BIGINT_ID_MAX,
  'POST /api/bo/documentsManager/updateDocument query:documentId': BIGINT_ID_MAX,
  'GET /api/exports/download query:edition': BIGINT_ID_MAX,
  'GET /api/bo/tickets/detail query:ticketId': BIGINT_ID_MAX,
};

/** The largest maximum allowed at `where`. */
function ceiling(where: string): number {
  if (/Cents(\[\])?$/.test(where)) return CENTS_MAX;
  return BIGINT_FIELDS[where] ?? INT4_MAX;
}

interface JsonSchema {
  type?: string | string[];
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: number | boolean;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  $ref?: string;
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Paths (`where`) of the integers under `schema` that have no maximum or no minimum. */
function unbounded(schema: JsonSchema | undefined, where: string, out: string[], seen: string[] = []): void {
  if (!schema || typeof schema !== 'object') return;
  const types = [schema.type ?? []].flat();
  if (types.includes('integer')) {
    seen.push(where);
    const max =
      schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined);
    if (max === undefined || max > ceiling(where) || schema.minimum === undefined) out.push(where);
  }
  for (const [name, inner] of Object.entries(schema.properties ?? {}))
    unbounded(inner, `${where}.${name}`, out, seen);
  for (const inner of [schema.items ?? []].flat()) unbounded(inner, `${where}[]`, out, seen);
  for (const inner of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    unbounded(inner, where, out, seen);
  }
  if (typeof schema.additionalProperties === 'object')
    unbounded(schema.additionalProperties, `${where}.*`, out, seen);
}

describe('integer bounds', () => {
  let t: TestApp;
  let headers: AuthHeaders;
  let id: number;
  beforeAll(async () => {
    t = await createTestApp();
    await insertOneSite(t.database.pool, 'Bornes SAS', 'Comptoir Bornes');
    id = await t.createUser({
      login: 'root',
      password: 'B0unds!-integers',
      droits: ['ADMIN', 'RAPPORTS', 'COMPTAGE', 'FAVORIS', 'CONFIGURATION', 'TICKETS'],
      allSites: true,
    });
    headers = await t.signIn('root', 'B0unds!-integers');
  });
  afterAll(async () => {
    await t.close();
  });

  it('every integer of a query, path or body in the OpenAPI document has a minimum and a maximum within int4', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, Operation>> }>();
    const found: string[] = [];
    const integers: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const out: string[] = [];
        for (const p of op.parameters ?? [])
          unbounded(p.schema, `${method.toUpperCase()} ${path} ${p.in}:${p.name}`, out, integers);
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          unbounded(media.schema, `${method.toUpperCase()} ${path} body(${type})`, out, integers);
        }
        found.push(...out);
      }
    }
    expect(found).toEqual([]);
    // The walk reached the integers it checks (the issue's four among them).
    expect(integers.length).toBeGreaterThan(100);
    expect(integers).toContain('GET /api/bo/favoris/remove query:favoriId');
    expect(integers).toContain('POST /api/bo/comptage/save body(application/json).caisse');
  });

  /** The answer of GET `path` (a query string after `?`) as root. */
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/${path}`, headers });

  it('the four reproductions of the issue answer 400 naming the field, not 500', async () => {
    const big = 2_147_483_648;
    const answers = [
      ['favoriId', await get(`bo/favoris/remove?id=${id}&favoriId=${big}`)],
      ['caisse', await get(`bo/comptage/expected?id=${id}&site=1&dateFiscale=2026-11-02&caisse=${big}`)],
      ['caisse', await get(`bo/comptage/list?id=${id}&site=1&dateFiscale=2026-11-02&caisse=${big}`)],
      [
        'caisse',
        await t.app.inject({
          method: 'POST',
          url: `/api/bo/comptage/save?id=${id}`,
          headers,
          payload: {
            site: 1,
            dateFiscale: '2026-11-02',
            caisse: big,
            cash: null,
            chequesCents: null,
            mealVouchersCents: null,
            cardSlipsCents: null,
            countedAt: '2026-11-02T21:00:00.000Z',
          },
        }),
      ],
    ] as const;
    for (const [field, res] of answers) {
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<{ code: string; details: { issues: Array<{ path: string }> } }>();
      expect(body.code).toBe('BadRequest');
      expect(body.details.issues.map((i) => i.path)).toEqual([expect.stringContaining(field)]);
    }
  });

  it('the largest int4 still passes validation (an unknown favourite: 404, an unknown terminal: 400 UnknownTerminal)', async () => {
    const res = await get(`bo/favoris/remove?id=${id}&favoriId=${INT4_MAX}`);
    expect(res.statusCode, res.body).toBe(404);
    const expected = await get(
      `bo/comptage/expected?id=${id}&site=1&dateFiscale=2026-11-02&caisse=${INT4_MAX}`,
    );
    expect(expected.statusCode, expected.body).not.toBe(500);
    expect(expected.json<{ code: string }>().code).not.toBe('BadRequest');
  });
  it('terminal numbers (tpv) of 2³¹ or more answer 400 on every report and ticket call, not 500 (issue #32 C.1)', async () => {
    const range = 'dateDebut=2026-11-02&dateFin=2026-11-02';
    for (const tpv of ['tpv=2147483648', 'tpv=99999999999', 'tpv[]=2147483648', 'tpv=1,2147483648']) {
      const calls = [
        `bo/getReport?id=${id}&rapportClassName=RapportVentes&${range}&sites[]=1&${tpv}&format=JSON`,
        `bo/getReport?id=${id}&rapportClassName=RapportVentes&${range}&sites[]=1&${tpv}&format=CSV`,
        `bo/getReport?id=${id}&rapportClassName=RapportVentes&${range}&sites[]=1&${tpv}&format=PDF`,
        `bo/getReportSite?id=${id}&rapportClassName=RapportVentes&${range}&restaurantId=1&${tpv}&format=JSON`,
        `bo/tickets/search?id=${id}&${range}&sites[]=1&${tpv}`,
      ];
      for (const call of calls) {
        const res = await get(call);
        expect(res.statusCode, `${call}: ${res.body}`).toBe(400);
        expect(res.json<{ code: string }>().code).toBe('BadRequest');
      }
    }
  });

  it('ids written +1, " 1", 01, 1e0, 0x1 or empty are refused with 400, and 1 still names user 1 (issue #32 C.7)', async () => {
    const other = await t.createUser({
      login: 'victime',
      password: 'V1ctim-integers!',
      droits: ['RAPPORTS'],
    });
    for (const written of [
      '+' + other,
      ' ' + other,
      '0' + other,
      other + '.0',
      `${other}e0`,
      '0x' + other.toString(16),
      '',
    ]) {
      const res = await get(`bo/infra/removeUtilisateur?id=${encodeURIComponent(written)}`);
      expect(res.statusCode, `${JSON.stringify(written)}: ${res.body}`).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('BadRequest');
      const sites = await get(`bo/getSites?id=${encodeURIComponent(written)}`);
      expect(sites.statusCode, `${JSON.stringify(written)}: ${sites.body}`).toBe(400);
    }
    const site = await get(`bo/tickets/search?id=${id}&dateDebut=2026-11-02&dateFin=2026-11-02&sites[]=01`);
    expect(site.statusCode, site.body).toBe(400);
    const users = await get(`bo/infra/getUtilisateurs?id=${id}`);
    expect(users.statusCode, users.body).toBe(200);
    expect(users.body).toContain('victime');
  });
});
