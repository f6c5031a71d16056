/**
 * The OpenAPI document tells the whole truth (issue #17 item 11, decision record 0023): built as
 * `npm test` lints it (scripts/openapi-dump.ts, no database), then read for what an integrator
 * generating a client relies on: ids, servers, licence, credentials, binary answers, the report
 * dataset, date formats, class names, and per-status errors in SPEC.md §8's shape.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi-dump.ts';
import { API_RIGHTS } from '../../src/contract/rights.ts';
import { REPORT_CLASSES } from '../../src/server/reports/registry.ts';

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; schema: Json }>;
  responses: Record<string, Json>;
}
interface Document {
  servers?: Array<{ url: string }>;
  info: { license?: { name: string }; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const REPORT_CALLS = [
  ['get', '/api/bo/getReport'],
  ['post', '/api/bo/getReport'],
  ['get', '/api/bo/getReportSite'],
  ['get', '/api/bo/getResultsData'],
  ['get', '/api/exports/download'],
] as const;

let doc: Document;
const op = (method: string, path: string) => {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
};
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method} ${path}`, operation })),
  );
const content = (operation: Operation, status = '200') =>
  (operation.responses[status]?.content ?? {}) as Record<string, { schema: Json }>;

beforeAll(async () => {
  doc = (await openApiDocument()) as Document;
});

describe('the OpenAPI document', () => {
  it('names every operation with a unique, URL-safe operationId', () => {
    const ids = operations().map(({ key, operation }) => operation.operationId ?? `missing on ${key}`);
    expect(ids.filter((id) => !/^[A-Za-z0-9]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(op('get', '/api/bo/getReport').operationId).toBe('getBoGetReport');
    expect(op('post', '/api/bo/getReport').operationId).toBe('postBoGetReport');
    expect(op('get', '/api/bo/home/{widget}').operationId).toBe('getBoHomeWidget');
  });

  it('has a server, a licence and every route of the rights table', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.info.license?.name).toBe('Proprietary');
    const documented = operations().length;
    const routes = Object.keys(API_RIGHTS).filter((key) => key !== 'GET docs').length;
    expect(documented).toBe(routes);
  });

  it('asks Basic credentials of bo/connexion and of every non-public call, none of public ones', () => {
    expect(op('get', '/api/bo/connexion').security).toEqual([{ basic: [] }]);
    for (const path of ['/api/version', '/api/distribution', '/api/reinit/sendReinitMail']) {
      expect(op('get', path).security, path).toEqual([]);
    }
    expect(op('post', '/api/reinit/reinitPassword').security).toEqual([]);
    expect(op('get', '/api/bo/getSites').security).toEqual([{ basic: [] }]);
  });

  it('documents PDF, CSV and XLSX report answers as binary, beside the typed JSON dataset', () => {
    for (const [method, path] of REPORT_CALLS) {
      const answers = content(op(method, path));
      for (const type of ['application/pdf', 'text/csv', XLSX]) {
        expect(answers[type]?.schema, `${method} ${path} ${type}`).toEqual({
          type: 'string',
          format: 'binary',
        });
      }
      const dataset = answers['application/json']?.schema as { properties: Record<string, Json> };
      expect(dataset.properties.rows, `${method} ${path}`).toMatchObject({
        type: 'array',
        items: { type: 'array' },
      });
      expect(dataset.properties.columns).toMatchObject({ type: 'array' });
      expect(dataset.properties.dateDebut).toMatchObject({ type: 'string', format: 'date' });
    }
  });

  it('documents the other documents under their own types', () => {
    expect(Object.keys(content(op('get', '/api/bo/getAllReportsSpecBK')))).toEqual(['application/zip']);
    expect(Object.keys(content(op('get', '/api/bo/bi/explore'))).sort()).toEqual(
      ['application/json', 'text/csv', XLSX].sort(),
    );
    for (const path of ['/api/coffre', '/api/bo/documentsManager/readDocument']) {
      expect(Object.keys(content(op('get', path))).sort(), path).toEqual([
        'application/json',
        'application/pdf',
      ]);
    }
  });

  it("declares a document's own headers: the FEC's sites left out", () => {
    const fec = op('get', '/api/bo/fec/export');
    expect(Object.keys(content(fec))).toEqual(['text/plain']);
    expect(fec.responses['200']?.headers).toEqual({
      'X-Fec-Sites-Exclus': {
        description: expect.stringContaining('<site id>:<currency>'),
        schema: { type: 'string' },
      },
    });
  });

  it('gives every date field a format, and report class names as the registry enum', () => {
    const unformatted: string[] = [];
    const walk = (schema: unknown, name: string, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const node = schema as Json;
      const dated = /^date/i.test(name) || /^[a-z]+At$/.test(name);
      if (dated && node.type === 'string' && !node.format) unformatted.push(`${where} ${name}`);
      for (const [k, v] of Object.entries((node.properties ?? {}) as Json)) walk(v, k, where);
      for (const k of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'] as const) {
        const sub = node[k];
        for (const part of Array.isArray(sub) ? sub : [sub]) walk(part, name, where);
      }
    };
    for (const { key, operation } of operations()) {
      for (const p of operation.parameters ?? []) walk(p.schema, p.name, key);
      walk(Object.values((operation.requestBody as Json | undefined)?.content ?? {})[0], '', key);
      for (const answer of Object.values(content(operation))) walk(answer.schema, '', key);
    }
    expect(unformatted).toEqual([]);
    const classParam = op('get', '/api/bo/getReport').parameters!.find((p) => p.name === 'rapportClassName');
    expect(classParam!.schema.enum).toEqual(REPORT_CLASSES.map((c) => c.className));
  });

  it('lists per-status errors in the §8 shape, with Retry-After where it applies', () => {
    const ranges = operations().filter(({ operation }) =>
      Object.keys(operation.responses).some((s) => /X/i.test(s)),
    );
    expect(ranges.map(({ key }) => key)).toEqual([]);
    const refs = (operation: Operation) =>
      Object.fromEntries(Object.entries(operation.responses).map(([s, r]) => [s, r.$ref ?? 'inline']));
    expect(refs(op('get', '/api/bo/getReport'))).toMatchObject({
      '400': '#/components/responses/BadRequest',
      '401': '#/components/responses/Unauthorized',
      '403': '#/components/responses/Forbidden',
      '503': '#/components/responses/ServiceUnavailable',
    });
    expect(Object.keys(op('get', '/api/bo/connexion').responses)).toEqual([
      '200',
      '400',
      '401',
      '429',
      // Headers too large: refused by the HTTP parser before any route (issue #32 C.8).
      '431',
      '500',
    ]);
    expect(Object.keys(op('post', '/api/bo/favoris/save').responses)).toEqual(
      expect.arrayContaining(['413', '422', '503']),
    );
    expect(op('get', '/api/bo/favoris/remove').responses['404']).toBeDefined();
    for (const name of ['TooManyRequests', 'ServiceUnavailable']) {
      expect(doc.components.responses[name]!.headers, name).toHaveProperty('Retry-After');
    }
    const error = doc.components.schemas.ApiError as {
      required: string[];
      properties: { code: { enum: string[] } };
    };
    expect(error.required).toEqual(['code', 'message']);
    expect(error.properties.code.enum).toEqual(
      expect.arrayContaining(['PayloadTooLarge', 'UnknownParameter']),
    );
  });

  it("declares logout's 204 without a body", () => {
    const signedOut = op('get', '/api/bo/logout').responses['204']!;
    expect(signedOut.content).toBeUndefined();
  });
});
