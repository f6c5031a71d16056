/**
 * Numbers written as text are canonical decimal or refused (issue #32 item C.7).
 *
 * `z.coerce.number()` runs JavaScript's `Number(text)`, which reads `+1`, ` 1`, `01`, `0x1`, `1e0`
 * and even the empty string (0) as numbers: `removeUtilisateur?id=+1` removed user 1. Rather than
 * every schema of every route remembering a pattern, the app's validator compiler is wrapped once:
 * before zod runs, every text value that the route's schema coerces to a number (query, path
 * parameters, form and JSON bodies; alone or in a list) must be written as `0`, `-?[1-9][0-9]*`,
 * or, where the schema allows fractions, with a `.` and digits after it. The schemas keep their
 * bounds (src/contract/integers.ts), so the OpenAPI document still says `integer` with its limits.
 *
 * A refused value answers 400 `BadRequest` in SPEC.md §8's shape, like any other validation
 * failure (plugins/error-handler.ts), with the path of the field in `details.issues`.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** A whole number in canonical decimal: no sign but `-`, no leading zero, no blank. */
const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;

/** A decimal number in canonical form: a canonical whole part, an optional `.digits` part. */
const CANONICAL_DECIMAL = /^(0|-?[1-9]\d*|-?0?\.\d+|-?(0|[1-9]\d*)\.\d+)$/;

/** The marker fastify-type-provider-zod sets on its issues, which the error handler recognises. */
const ZOD_ISSUE = Symbol.for('ZodFastifySchemaValidationError');

interface ZodDef {
  type: string;
  coerce?: boolean;
  checks?: Array<{ _zod: { def: { check?: string; format?: string } } }>;
  innerType?: ZodLike;
  in?: ZodLike;
  element?: ZodLike;
  shape?: Record<string, ZodLike>;
  options?: ZodLike[];
}

interface ZodLike {
  _zod: { def: ZodDef };
}

/** What a schema wants to find as a number: 'integer', 'decimal', or nothing to check. */
type NumberRule = 'integer' | 'decimal';

/** The schema under optional/default/nullable/catch/readonly wrappers and pipes' input side. */
function unwrap(schema: ZodLike): ZodLike {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    const def = current._zod.def;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/** The rule a coerced number schema imposes on its text, or undefined when it coerces nothing. */
function numberRule(schema: ZodLike): NumberRule | undefined {
  const def = schema._zod.def;
  if (def.type !== 'number' || def.coerce !== true) return undefined;
  const whole = (def.checks ?? []).some((c) => {
    const format = c._zod.def.format;
    return format === 'safeint' || format === 'int32' || format === 'uint32';
  });
  return whole ? 'integer' : 'decimal';
}

/** Where one text value breaks a rule: its path and the rule. */
interface Breach {
  path: string[];
  rule: NumberRule;
}

/**
 * The first text value under `value` that `schema` coerces to a number and that is not written
 * canonically; undefined when there is none. Walks objects, arrays and unions (first match).
 */
export function firstNonCanonical(schema: ZodLike, value: unknown, path: string[] = []): Breach | undefined {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  const rule = numberRule(inner);
  if (rule) {
    if (typeof value !== 'string') return undefined;
    const pattern = rule === 'integer' ? CANONICAL_INTEGER : CANONICAL_DECIMAL;
    return pattern.test(value) ? undefined : { path, rule };
  }
  if (def.type === 'array' && def.element) {
    if (!Array.isArray(value)) return firstNonCanonical(def.element, value, path);
    for (const [i, item] of value.entries()) {
      const breach = firstNonCanonical(def.element, item, [...path, String(i)]);
      if (breach) return breach;
    }
    return undefined;
  }
  if (def.type === 'object' && def.shape && value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, field] of Object.entries(def.shape)) {
      if (!(key in record)) continue;
      const breach = firstNonCanonical(field, record[key], [...path, key]);
      if (breach) return breach;
    }
    return undefined;
  }
  if (def.type === 'union' && def.options) {
    // A text accepted by a branch that is not a number (a string, a list form) is that branch's.
    const breaches = def.options.map((option) => firstNonCanonical(option, value, path));
    return breaches.every((b) => b !== undefined) ? breaches[0] : undefined;
  }
  return undefined;
}

/** The issue list Fastify attaches to the error when a value is not canonical. */
function nonCanonicalError(breach: Breach) {
  const message =
    breach.rule === 'integer'
      ? 'a whole number in canonical decimal (no sign but -, no leading zero, no blank)'
      : 'a number in canonical decimal (no sign but -, no leading zero, no blank)';
  return [
    {
      [ZOD_ISSUE]: true,
      keyword: 'custom',
      instancePath: `/${breach.path.join('/')}`,
      schemaPath: `#/${breach.path.join('/')}/custom`,
      message,
      params: {},
    },
  ];
}

/**
 * fastify-type-provider-zod's validator compiler, refusing numbers that are not written in
 * canonical decimal before zod coerces them (see the module comment). Installed by app.ts and
 * by the outbox batch's direct items, so a batched call validates as the call alone does.
 */
export const canonicalValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route);
  const schema = route.schema as unknown as ZodLike;
  return (data: unknown) => {
    const breach = firstNonCanonical(schema, data);
    if (breach) return { error: nonCanonicalError(breach) as unknown as Error };
    return validate(data);
  };
};
