/**
 * Why and where an import stopped. Shared by the line reader (lines.ts), the joined files
 * (lookups.ts) and the import itself (sales.ts); it lives on its own so none of them has to
 * import another for it.
 */

/** Where an import stopped: file, physical line (header = 1), 1-based column and its header name. */
export interface ImportLocation {
  file: string;
  line: number;
  column?: number;
  columnName?: string;
}

/**
 * A line of the file (or of the price list) that cannot be imported, or a site that does not
 * match the import's settings. `message` reads `file:line:column (Column): reason`.
 */
export class ImportError extends Error {
  readonly location: ImportLocation | undefined;
  readonly reason: string;
  constructor(reason: string, location?: ImportLocation) {
    const where = location
      ? `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}${location.columnName !== undefined ? ` (${location.columnName})` : ''}: `
      : '';
    super(`${where}${reason}`);
    this.reason = reason;
    this.location = location;
  }
}
