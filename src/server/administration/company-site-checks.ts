/**
 * Checks shared by the administration of companies, sites and groups (issue #18): the refusals
 * they have in common, spelled once so the client can put each at its field.
 *
 * A duplicate name is refused as `InvalidField` with `details.field` and `duplicate: true`
 * (400), not a 409: it is a typing matter the user fixes in the form, at the field, like any
 * other refused value. Names are compared trimmed and case-insensitively ("Paris" and "paris"
 * would be two sites no one can tell apart in a picker).
 */
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/**
 * The refusal of `field`'s value: 400 `InvalidField` with `details.field` and any `extra` details
 * (e.g. `{ duplicate: true }`, `{ unknown: [3, 4] }`).
 */
export function invalidField(
  field: string,
  message: string,
  extra: Record<string, unknown> = {},
): DomainError {
  return new DomainError('invalid', 'InvalidField', message, { field, ...extra });
}

/** 404 `NotFound` for a `what` (company, site, group) of id `id` that does not exist. */
export function notFound(what: string, id: number): DomainError {
  return new DomainError('notFound', 'NotFound', `no ${what} ${id}`);
}

/** The tables whose name column must stay unique, and that column. */
const NAME_COLUMNS = {
  companies: 'raison_sociale',
  sites: 'libelle',
  groups: 'raison_sociale',
} as const;

/**
 * Refuses `name` when another row of `table` (not `exceptId`) already has it, trimmed and
 * ignoring case.
 * @throws DomainError invalid `InvalidField` `{ field, duplicate: true }`.
 */
export async function requireFreeName(
  db: Queryable,
  table: keyof typeof NAME_COLUMNS,
  field: string,
  name: string,
  exceptId: number | null,
): Promise<void> {
  const column = NAME_COLUMNS[table];
  const { rows } = await db.query(
    `SELECT 1 FROM ${table} WHERE lower(trim(${column})) = lower(trim($1)) AND id IS DISTINCT FROM $2 LIMIT 1`,
    [name, exceptId],
  );
  if (rows.length > 0) throw invalidField(field, `${field} "${name}" is already used`, { duplicate: true });
}

/**
 * Refuses ids of `table` (companies or sites) that do not exist.
 * @throws DomainError invalid `InvalidField` `{ field, unknown: number[] }`.
 */
export async function requireExisting(
  db: Queryable,
  table: 'companies' | 'sites',
  field: string,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[])`, [
    [...new Set(ids)],
  ]);
  const found = new Set(rows.map((r) => r.id));
  const unknown = [...new Set(ids)].filter((id) => !found.has(id)).sort((a, b) => a - b);
  if (unknown.length > 0) throw invalidField(field, `unknown ${field}: ${unknown.join(', ')}`, { unknown });
}

/**
 * Runs `write` (an INSERT or UPDATE of a unique name) and turns a unique violation into the
 * same refusal as {@link requireFreeName}: two administrators saving the same new name at once
 * both pass the check, and the database's constraint refuses the second.
 * @throws DomainError invalid `InvalidField` `{ field, duplicate: true }`; any other error as is.
 */
export async function uniqueName<T>(field: string, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') {
      throw invalidField(field, `${field} "${name}" is already used`, { duplicate: true });
    }
    throw error;
  }
}
