/**
 * Values for the OpenAPI fuzz suite (issue #17 "Proof that stays"): fast-check arbitraries built
 * from a JSON schema of the document the app serves, mixing values the schema accepts (so a
 * request gets past validation and reaches the domain code and PostgreSQL) with the edge cases of
 * the issue (integers at and past int4, impossible dates, NUL, lone surrogates, 10 kB strings,
 * RTL, emoji, SQL and HTML metacharacters, empty and long arrays).
 */
import fc from 'fast-check';

/** The part of a JSON schema (OpenAPI 3.0 flavour, as @fastify/swagger writes it) we read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  /** Set by the request writer on the SPEC.md §7 `id` of the signed-in user. */
  'x-fuzz-self'?: boolean;
}

/**
 * Text a body must never hold unless the request put it there (a leak of SQL, a stack or the
 * database's name). Generated strings avoid them, so finding one in an answer is a leak.
 */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /^ {4}at /m,
  / {4}at [^\n]*\(/,
  /\.ts:\d/,
  /syntax error/i,
  /relation \\?"/i,
  /relation [a-z_]+ /i,
  /violates/i,
  /SELECT /,
  // The database's name or URL; not the Debian package the database screen names for pg_dump
  // (`postgresql-client-15`, issue #30).
  /postgres(?!ql-client-\d)/i,
];

/** True when `text` holds one of LEAK_PATTERNS. */
export function leaks(text: string): RegExp | undefined {
  return LEAK_PATTERNS.find((p) => p.test(text));
}

/** Wraps a text the URL writer puts as is (already percent-encoded or deliberately broken). */
export class RawText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Integers at the edges of int4, of JavaScript's exact integers and of sense. */
const EDGE_INTEGERS = [0, -1, 1, 2_147_483_647, 2_147_483_648, -2_147_483_649, 2 ** 53, -(2 ** 53), 1e21];

/** Texts that look like numbers to a careless parser. */
const NUMBERISH = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x10',
  '1.5',
  ' 1',
  '1 ',
  '+1',
  '٣',
  '1_000',
  '007',
];

/**
 * Texts of a number that a query or form must refuse (issue #32 items C.1 and C.7): `value`
 * written with a sign, a blank, a leading zero, an exponent, a fraction or in hexadecimal, and
 * whole numbers past int4 (terminal numbers and ids end in `integer` columns).
 */
export function refusedNumberTexts(value: number): string[] {
  return [
    `+${value}`,
    ` ${value}`,
    `${value} `,
    `0${value}`,
    `00${value}`,
    `${value}.0`,
    `${value}e0`,
    `0x${value.toString(16)}`,
    '2147483648',
    '99999999999',
    `${value},2147483648`,
  ];
}

/** Names of query parameters that carry whole numbers as text (ids, lists of site ids, terminals). */
export const NUMBER_TEXT_NAMES = /^(id|sites?|tpv|restaurantIds?|restaurantId|caisses?|site)(\[\])?$/i;

/** Dates that do not exist, at the ends of the calendar, or in the wrong form. */
const EDGE_DATES = [
  '2026-02-30',
  '2026-02-29',
  '2024-02-29',
  '0000-00-00',
  '9999-12-31',
  '0001-01-01',
  '',
  '2026-13-01',
  '2026-1-1',
  '26/11/2026',
  '2026-11-26T25:00:00Z',
  '2026-11-26T23:59:60.000Z',
  '+275760-09-13',
];

/** Hostile texts: control characters, broken Unicode, markup and SQL metacharacters. */
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום',
  '👩‍👩‍👧‍👦🍕',
  '\ufeff',
  "'",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '"; --',
  '/* */',
  '\\',
  '%',
  '_',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{comma}}',
  ',,,',
  '../../etc/passwd',
  '\r\nSet-Cookie: a=b',
  '\u0024{7*7}',
  '__proto__',
  'constructor',
  'x'.repeat(10_240),
  'é'.repeat(5_000),
];

/** Percent-encoded fragments written into the URL as they are (NUL, overlong and lone bytes). */
const RAW_URL_TEXTS = ['%00', 'a%00b', '%c0%ae', '%FF', '%C3', '%ED%A0%80', '%', '%zz', '%2500'];

/** Any value of the issue's edge cases, whatever the schema wants. */
export function edgeValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...EDGE_INTEGERS),
    fc.constantFrom(...NUMBERISH),
    fc.constantFrom(...EDGE_DATES),
    fc.constantFrom(...EDGE_STRINGS),
    fc.constantFrom(...RAW_URL_TEXTS.map((t) => new RawText(t))),
    fc.constantFrom(null, true, false, [], {}, [null], { a: 1 }),
    fc.constant(Array.from({ length: 5_000 }, (_, i) => i + 1)),
    fc.constant(Array.from({ length: 1_000 }, () => 'x')),
  );
}

/** A text of no harm to the leak check (never holds one of LEAK_PATTERNS). */
function plainString(min: number, max: number): fc.Arbitrary<string> {
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter((s) => !leaks(s));
}

/** Text for a string schema, following its format or the usual forms of its pattern. */
function stringValue(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$' || /^date|datefiscale/i.test(name)) return isoDate();
  if (/^heure/i.test(name)) return fc.constantFrom('00:00', '08:30', '23:59', '24:00', '12:60');
  // Lists of ids that travel as one comma-separated text (SPEC.md §7 `sites=1,2`).
  if (/^(sites?|tpv|restaurantIds?|societesId(Plus|Moins)?|caisses?)(\[\])?$/i.test(name))
    return fc.constantFrom('1', '1,2', '2', '1,1', '');
  return fc.oneof({ arbitrary: plainString(min, max), weight: 3 }, { arbitrary: isoDate(), weight: 1 });
}

/** A real calendar date YYYY-MM-DD around today (where the data and the windows are). */
function isoDate(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date('2024-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
}

/** Smallest and largest integer `schema` allows (OpenAPI 3.0 boolean exclusive bounds). */
function integerBounds(schema: JsonSchema): { min: number; max: number } {
  let min = schema.minimum ?? -1_000;
  let max = schema.maximum ?? 1_000_000;
  if (schema.exclusiveMinimum === true) min += 1;
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
  if (schema.exclusiveMaximum === true) max -= 1;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - 1;
  return { min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) };
}

/** Options of the walk: the caller's own id (SPEC.md §7 `id`), how often a leaf turns hostile. */
export interface ValueOptions {
  /** Ids worth trying for integers named like an id (the caller's, the seeded site's). */
  ids: readonly number[];
  /** Weight of an edge case against 4 for a value the schema accepts. */
  hostility: number;
}

/** An integer of `schema`: small ids most of the time (rows exist there), its bounds sometimes. */
function integerValue(schema: JsonSchema, name: string, options: ValueOptions): fc.Arbitrary<number> {
  const { min, max } = integerBounds(schema);
  const inRange = (n: number) => n >= min && n <= max;
  // The caller's own id most of the time: another id is refused before the domain code runs.
  const self = options.ids[0];
  if (schema['x-fuzz-self'] && self !== undefined && inRange(self))
    return fc.oneof(
      { arbitrary: fc.constant(self), weight: 6 },
      integerValue({ ...schema, 'x-fuzz-self': false }, name, options),
    );
  const likely = [...options.ids, 1, 2, 3, min, max].filter(inRange);
  const small = fc.integer({ min: Math.max(min, 0), max: Math.max(Math.min(max, 50), Math.max(min, 0)) });
  const arbitraries = [small, fc.integer({ min, max })];
  if (likely.length > 0) arbitraries.push(fc.constantFrom(...likely));
  if (/id$|^site|^restaurant/i.test(name) && likely.length > 0) arbitraries.push(fc.constantFrom(...likely));
  return fc.oneof(...arbitraries);
}

/** A value `schema` accepts, leaves turning into an edge case now and then. */
export function valueFor(
  schema: JsonSchema | undefined,
  name: string,
  options: ValueOptions,
): fc.Arbitrary<unknown> {
  const valid = validValue(schema ?? {}, name, options);
  if (options.hostility <= 0) return valid;
  return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: edgeValue(), weight: options.hostility });
}

/** A value `schema` accepts (as far as the generator knows; patterns are approximated). */
function validValue(schema: JsonSchema, name: string, options: ValueOptions): fc.Arbitrary<unknown> {
  const members = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (members.length > 0) return fc.oneof(...members.map((m) => valueFor(m, name, options)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0], name, options);
  const base = typedValue(schema, name, options);
  return schema.nullable ? fc.option(base, { nil: null, freq: 6 }) : base;
}

/** The value of a schema with a `type` (or an enum). */
function typedValue(schema: JsonSchema, name: string, options: ValueOptions): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const type = [schema.type ?? (schema.properties ? 'object' : 'string')].flat()[0];
  switch (type) {
    case 'integer':
      return integerValue(schema, name, options);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items, name, options), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
      });
    case 'object':
      return objectValue(schema, options);
    case 'null':
      return fc.constant(null);
    default:
      return stringValue(schema, name);
  }
}

/** Extra fields no schema declares (unknown ones must be refused or ignored, never crash). */
const EXTRA_FIELDS = fc.dictionary(
  fc.constantFrom('extra', '__proto__', 'constructor', 'a'.repeat(300), 'é', ''),
  edgeValue(),
  { maxKeys: 2 },
);

/**
 * An object of `schema`: its required fields (one of them missing now and then), optional ones
 * at random, unknown extra fields now and then.
 */
export function objectValue(
  schema: JsonSchema,
  options: ValueOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = (schema.required ?? []).filter((k) => k in properties);
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valueFor(s, k, options)])),
    { requiredKeys: required },
  );
  const dropped =
    options.hostility > 0 && required.length > 0
      ? fc.option(fc.constantFrom(...required), { freq: 5 })
      : fc.constant(null);
  const extra = options.hostility > 0 ? fc.option(EXTRA_FIELDS, { freq: 6 }) : fc.constant(null);
  return fc.tuple(record, dropped, extra).map(([value, drop, more]) => {
    const out: Record<string, unknown> = { ...value };
    if (drop !== null) delete out[drop];
    // defineProperty, so a `__proto__` key is an own field sent in the JSON, not a prototype.
    for (const [k, v] of Object.entries(more ?? {}))
      Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
    return out;
  });
}
