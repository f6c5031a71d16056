/**
 * Route files are HTTP only (DESIGN.md §2, docs/architecture.md): schemas, rights, status codes
 * and headers. What dependency-cruiser cannot see by imports alone is held here: no SQL text in
 * a route file (reads and writes live in a domain module), and no anonymous route handler (every
 * handler is a named function, so a stack trace names it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const routesDir = path.join(root, 'src', 'server', 'routes');

/** The `.ts` files under `dir`, as paths relative to the project root. */
function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.relative(root, path.join(dir, f)))
    .sort();
}

/** The code lines of `file` (comment lines left out), numbered from 1. */
function codeLines(file: string): { line: number; text: string }[] {
  return fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .map((text, i) => ({ line: i + 1, text }))
    .filter(({ text }) => !/^\s*(\/\/|\/\*|\*)/.test(text));
}

/** SQL as this project writes it (keywords in capitals), not English words such as "select". */
const SQL = /\b(?:SELECT\s+[\w*(]|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|ON\s+CONFLICT\b)/;
const ANONYMOUS_HANDLER = /^\s*(handler:\s*)?(async\s+)?\(\s*_?(req|request)\b[^)]*\)\s*(:[^=]+)?=>/;

describe('route files', () => {
  const files = tsFiles(routesDir);
  it('exist (the checks below would pass on an empty folder)', () => expect(files.length).toBeGreaterThan(5));

  it('hold no SQL: reads and writes live in domain modules', () => {
    const found = files.flatMap((f) =>
      codeLines(f)
        .filter(({ text }) => SQL.test(text))
        .map(({ line, text }) => `${f}:${line}: ${text.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('name every handler', () => {
    const found = files.flatMap((f) =>
      codeLines(f)
        .filter(({ text }) => ANONYMOUS_HANDLER.test(text))
        .map(({ line, text }) => `${f}:${line}: ${text.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the checks see what they look for', () => {
    expect(SQL.test("await db.query('SELECT id FROM sites WHERE id = $1', [id])")).toBe(true);
    expect(SQL.test('`INSERT INTO cash_counts (site_id) VALUES ($1)`')).toBe(true);
    expect(SQL.test("reply.header('Content-Type', 'text/csv')")).toBe(false);
    expect(SQL.test("description: 'Select the sites of the report'")).toBe(false);
    expect(ANONYMOUS_HANDLER.test('    async (request, reply) => {')).toBe(true);
    expect(ANONYMOUS_HANDLER.test('    async (request: FastifyRequest): Promise<Answer> => {')).toBe(true);
    expect(ANONYMOUS_HANDLER.test('    async function listFavourites(request, reply) {')).toBe(false);
  });
});
