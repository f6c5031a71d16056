/**
 * Formats and enums the zod schemas cannot say without changing what the server accepts or
 * answers, added to the document by field name (SPEC.md §3 names): wire dates `YYYY-MM-DD`
 * (`format: date`, contract/dates.ts), instants (`…At`, ISO 8601: `format: date-time`), and
 * report class names as the enum of the registry (reports/registry.ts): the server still answers
 * 400 ErrorUnknownRap (SPEC.md §8) for another name, which the schema alone could not say.
 */
import { REPORT_CLASSES } from '../reports/registry.ts';

type Json = Record<string, unknown>;

/** Fields holding a wire date (`YYYY-MM-DD`), or a list of them. */
const DATE_FIELDS: ReadonlySet<string> = new Set([
  'dateDebut',
  'dateFin',
  'dateFiscale',
  'datefiscale',
  'datefiscales',
  'datefiscales[]',
  'datePerso',
  'fiscalDate',
  'fiscalDates',
  'fromDate',
  'toDate',
]);

/** Fields holding a report class name (`RapportVentes`). */
const CLASS_FIELDS: ReadonlySet<string> = new Set([
  'className',
  'rapportClassName',
  'RapportGeneralClassName',
  'rapportGeneralClassName',
]);

/** Instants: `createdAt`, `countedAt`, `lastGeneratedAt`… (not `at` alone: not ours to guess). */
const INSTANT_FIELD = /^[a-z]+At$/;

/** What a string schema of field `name` gains, or null. */
function additionFor(name: string): Json | null {
  if (DATE_FIELDS.has(name)) return { format: 'date' };
  if (INSTANT_FIELD.test(name)) return { format: 'date-time' };
  if (CLASS_FIELDS.has(name)) return { enum: REPORT_CLASSES.map((c) => c.className) };
  return null;
}

/** Adds `addition` to every string schema inside `schema` (through unions and arrays). */
function addToStrings(schema: Json, addition: Json): void {
  if (schema.type === 'string' && schema.format === undefined && schema.enum === undefined) {
    Object.assign(schema, addition);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const part of (schema[key] ?? []) as Json[]) addToStrings(part, addition);
  }
  if (schema.items && typeof schema.items === 'object') addToStrings(schema.items as Json, addition);
}

/**
 * OpenAPI 3.0 allows `nullable` only beside a `type`: a nullable union (zod's `.nullable()` of a
 * union) says it on each typed member instead.
 */
function nullableOnMembers(node: Json): void {
  if (node.nullable !== true || node.type !== undefined) return;
  const members = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (!members) return;
  delete node.nullable;
  for (const member of members) if (member.type !== undefined) member.nullable = true;
}

/**
 * Walks `schema` and every schema under it, naming each property's schema by its key (see the
 * module comment), and puts a union's `nullable` on its members.
 */
export function annotateSchema(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const part of schema) annotateSchema(part);
    return;
  }
  const node = schema as Json;
  nullableOnMembers(node);
  for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
    const addition = additionFor(name);
    if (addition) addToStrings(property, addition);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'enum' && key !== 'default' && key !== 'example') annotateSchema(value);
  }
}

/** Annotates a query or path parameter by its name, then walks its schema. */
export function annotateParameter(parameter: Json): void {
  const addition = typeof parameter.name === 'string' ? additionFor(parameter.name) : null;
  if (addition && parameter.schema) addToStrings(parameter.schema as Json, addition);
}
