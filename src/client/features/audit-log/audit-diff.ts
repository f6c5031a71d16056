/**
 * An audit entry's change as a reader wants it (issue #18 "before → after as a readable diff"):
 * only the fields whose value changed, in a stable order (the order of `after`, then fields only
 * `before` had). A create has no `before` (every field is new), a removal no `after`.
 */

/** One changed field: its value before and after (undefined: the field did not exist then). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Two values compared by content (the log stores JSON: arrays and objects compare by their text). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields that differ between `before` and `after` (either may be null). */
export function changedFields(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>> | null,
): FieldChange[] {
  const b = before ?? {};
  const a = after ?? {};
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return fields
    .filter((f) => !same(b[f], a[f]))
    .map((field) => ({ field, before: b[field], after: a[field] }));
}

/**
 * A stored value as text: absent or null → `empty`, a boolean → `yes`/`no`, a list → its items
 * joined with ", ", an object → its JSON, anything else → its text.
 */
export function valueText(value: unknown, words: { empty: string; yes: string; no: string }): string {
  if (value === undefined || value === null || value === '') return words.empty;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (Array.isArray(value))
    return value.length === 0 ? words.empty : value.map((v) => valueText(v, words)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
