/** Instants of counting records as the API answers them. */

/** A timestamptz read by pg (Date, or text) as ISO 8601 text in UTC. */
export function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}
