/**
 * Requests for the OpenAPI fuzz suite (issue #17 "Proof that stays"): every operation of the
 * document the app serves (`app.swagger()`), its query, path, header and body parameters drawn
 * from their schemas by fuzz-values.ts, written as `app.inject` options. A new route is covered
 * without editing anything here.
 */
import fc from 'fast-check';
import {
  type JsonSchema,
  RawText,
  edgeValue,
  objectValue,
  valueFor,
  type ValueOptions,
} from './fuzz-values.ts';

/** One operation of the document. */
export interface FuzzOperation {
  /** e.g. `GET /api/bo/favoris/remove`. */
  key: string;
  method: string;
  path: string;
  parameters: Array<{
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: JsonSchema;
  }>;
  /** Media type → schema of the request body, when the operation declares one. */
  body: Record<string, JsonSchema>;
  /** The statuses the document says the operation answers (`200`, `400`, …). */
  statuses: string[];
}

/** The operations of an OpenAPI document, in its order. */
export function operationsOf(document: unknown): FuzzOperation[] {
  const paths = (document as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths;
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => {
        const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)
          ?.content;
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          parameters: (op.parameters as FuzzOperation['parameters'] | undefined) ?? [],
          body: Object.fromEntries(Object.entries(content ?? {}).map(([type, m]) => [type, m.schema ?? {}])),
          statuses: Object.keys((op.responses as Record<string, unknown> | undefined) ?? {}),
        };
      }),
  );
}

/** A request as `app.inject` takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Percent-encodes `text` for a URL; a lone surrogate becomes the bytes of its (invalid) UTF-8. */
export function encodeText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)])
        .toString('hex')
        .toUpperCase()
        .replace(/../g, '%$&');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A value as a query or form field: arrays repeat the name, objects travel as JSON. */
function fieldPairs(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value))
    return value.length === 0 ? [`${encodeText(name)}=`] : value.flatMap((v) => fieldPairs(name, v));
  const text =
    value instanceof RawText
      ? value.text
      : encodeText(value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));
  return [`${encodeText(name)}=${text}`];
}

/** `application/x-www-form-urlencoded` or query text of `fields`. */
export function formText(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .flatMap(([k, v]) => fieldPairs(k, v))
    .join('&');
}

/** JSON of a body value (a RawText inside turns back into its text). */
function jsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof RawText ? v.text : v)) ?? 'null';
}

/** Bodies no schema describes: broken JSON, too deep, wrong top-level types. */
const RAW_BODIES = fc.constantFrom(
  '',
  '{',
  'null',
  '[]',
  '"\\u0000"',
  '{"a":"\\ud800"}',
  `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`,
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '{"__proto__":{"isAdmin":true}}',
  '1e999',
);

/** The body of `op` as [content type, text], or none when it declares no body. */
function bodyArbitrary(op: FuzzOperation, options: ValueOptions): fc.Arbitrary<[string, string] | null> {
  const types = Object.entries(op.body);
  if (types.length === 0) return fc.constant(null);
  const declared = types.map(([type, schema]) => {
    const value =
      schema.properties || schema.type === 'object'
        ? objectValue(schema, options)
        : valueFor(schema, 'body', options);
    return value.map((v): [string, string] => [
      type,
      type.includes('x-www-form-urlencoded') && v !== null && typeof v === 'object' && !Array.isArray(v)
        ? formText(v as Record<string, unknown>)
        : jsonText(v),
    ]);
  });
  if (options.hostility <= 0) return fc.oneof(...declared);
  return fc.oneof(
    { arbitrary: fc.oneof(...declared), weight: 8 },
    { arbitrary: RAW_BODIES.map((b): [string, string] => ['application/json', b]), weight: 1 },
    { arbitrary: edgeValue().map((v): [string, string] => ['application/json', jsonText(v)]), weight: 1 },
  );
}

/** A path parameter: a value of its schema, never empty (an empty segment is another route). */
function pathValue(
  schema: JsonSchema | undefined,
  name: string,
  options: ValueOptions,
): fc.Arbitrary<string> {
  return valueFor(schema, name, options).map((v) => {
    const text =
      v instanceof RawText ? v.text : encodeText(typeof v === 'object' ? JSON.stringify(v) : String(v));
    return text === '' ? 'x' : text;
  });
}

/**
 * Requests to `op`: its parameters drawn from their schemas (a required one missing now and then,
 * an unknown one added now and then), its body, and the client header SPEC.md §7 asks for (left
 * out now and then). The caller's own headers (Authorization) are added when the request is sent.
 */
export function requestArbitrary(op: FuzzOperation, options: ValueOptions): fc.Arbitrary<FuzzRequest> {
  const query = op.parameters.filter((p) => p.in === 'query');
  const queryObject: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      query.map((p) => [p.name, { ...p.schema, 'x-fuzz-self': /signed-in user/.test(p.description ?? '') }]),
    ),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const pathValues = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.schema, p.name, options)])),
  );
  const clientHeader =
    options.hostility > 0
      ? fc.option(fc.constantFrom('XMLHttpRequest', 'x'), { freq: 12, nil: undefined })
      : fc.constant('XMLHttpRequest');
  // Idempotency-Key (plugins/idempotency.ts): a UUID, reused now and then across requests.
  const keys = [fc.uuid(), fc.constantFrom('00000000-0000-4000-8000-000000000017')];
  if (options.hostility > 0) keys.push(fc.constantFrom('k1', '', 'x'.repeat(300), '\u00e9', 'a\u0000'));
  const idempotencyKey = fc.option(fc.oneof(...keys), { freq: 3, nil: undefined });
  return fc
    .record({
      query: objectValue(queryObject, options),
      path: pathValues,
      body: bodyArbitrary(op, options),
      clientHeader,
      idempotencyKey,
    })
    .map(({ query: fields, path, body, clientHeader: xrw, idempotencyKey: key }) => {
      const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => path[name] ?? 'x');
      const text = formText(fields);
      const out: FuzzRequest = {
        method: op.method,
        url: text === '' ? url : `${url}?${text}`,
        headers: {},
      };
      if (xrw !== undefined) out.headers['x-requested-with'] = xrw;
      if (key !== undefined) out.headers['idempotency-key'] = key;
      if (body) {
        out.headers['content-type'] = body[0];
        out.payload = body[1];
      }
      return out;
    });
}
