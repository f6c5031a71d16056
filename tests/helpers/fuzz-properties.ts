/**
 * The properties every answer of the fuzz suite must keep (issue #17 "Proof that stays"): no 5xx,
 * an error body in SPEC.md §8's shape (src/contract/errors.ts ApiErrorSchema) with a code of
 * ERROR_CODES, no stack trace, SQL or database name in any textual body.
 */
import { ApiErrorSchema, ERROR_CODES } from '../../src/contract/errors.ts';
import { leaks } from './fuzz-values.ts';

const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** An answer as `app.inject` gives it. */
export interface FuzzAnswer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

/**
 * What is wrong with `res`, or null when it keeps every property. Binary bodies (PDF, XLSX, ZIP)
 * are not searched for leaks: their bytes are compressed and may hold anything.
 */
export function violation(res: FuzzAnswer): string | null {
  if (res.statusCode >= 500) return `answered ${res.statusCode}`;
  const type = String(res.headers['content-type'] ?? '');
  const textual = type === '' || /json|text|html|csv|xml/.test(type);
  const leak = textual ? leaks(res.body) : undefined;
  if (leak) return `body leaks ${leak}`;
  if (res.statusCode < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `error body is not JSON (${type})`;
  }
  const parsed = ApiErrorSchema.safeParse(body);
  if (!parsed.success) return 'error body is not { code, message }';
  if (!KNOWN_CODES.has(parsed.data.code)) return `error code ${parsed.data.code} is not in ERROR_CODES`;
  return null;
}
