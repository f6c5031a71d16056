/**
 * Bulk loading through `COPY … FROM STDIN` (DESIGN.md §5: bulk loads never insert row by row).
 * Rows are written in PostgreSQL's COPY *text* format (tab-separated, `\N` for null, backslash
 * escapes), which is the wire protocol of COPY rather than a CSV dialect, so it is produced here
 * directly: it is the cheapest format for the server to read. Writes respect the socket's
 * back-pressure, so a file of any size streams in bounded memory.
 */
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value as a COPY text field (`\N` for null). */
export function copyText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? c) : value;
}

/** Where a COPY goes: `table (col, col…)` on a connection already inside its transaction. */
export class CopyWriter {
  private readonly stream: ReturnType<typeof copyFrom>;
  private parts: string[] = [];
  private size = 0;
  private failure: Error | undefined;
  rows = 0;

  private readonly chunkBytes: number;

  /**
   * Starts `COPY <target> FROM STDIN` on `client`.
   * @param options.freeze COPY … FREEZE, allowed only on a table created or truncated in this transaction.
   */
  constructor(client: pg.ClientBase, target: string, { freeze = false, chunkBytes = 512 * 1024 } = {}) {
    this.chunkBytes = chunkBytes;
    this.stream = client.query(copyFrom(`COPY ${target} FROM STDIN${freeze ? ' WITH (FREEZE)' : ''}`));
    this.stream.on('error', (e: Error) => {
      this.failure = e;
    });
  }

  /**
   * Queues one row: fields already in COPY text form (see {@link copyText}), joined by tabs.
   * @returns true when enough is queued that the caller should `await flush()` (kept
   *   synchronous so a tight loop pays for a promise only once per chunk).
   */
  push(line: string): boolean {
    this.parts.push(line);
    this.size += line.length;
    this.rows++;
    return this.size >= this.chunkBytes;
  }

  /** Sends rows already joined by {@link RowBuffer} (each chunk ends with a newline). */
  async chunks(chunks: readonly (string | Buffer)[]): Promise<void> {
    await this.flush();
    for (const chunk of chunks) await this.send(chunk);
  }

  /**
   * Hands chunks already in memory to the stream without waiting for the socket: they would
   * stay in memory anyway, and the caller can go on working (e.g. generating the next rows)
   * while the connection sends them. Follow with {@link end}.
   */
  enqueue(chunks: readonly (string | Buffer)[]): void {
    for (const chunk of chunks) this.stream.write(chunk);
  }

  /** Sends the queued rows, waiting while the socket is full. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.parts.length === 0) return;
    const chunk = `${this.parts.join('\n')}\n`;
    this.parts = [];
    this.size = 0;
    await this.send(chunk);
  }

  private async send(chunk: string | Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = (e?: Error) => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          if (e) reject(e);
          else resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
      });
    }
  }

  /** Sends what is left and waits for PostgreSQL to confirm the COPY. @returns rows copied, as PostgreSQL counted them. */
  async end(): Promise<number> {
    await this.flush();
    this.stream.end();
    await finished(this.stream);
    if (this.failure) throw this.failure;
    return this.stream.rowCount;
  }

  /** Abandons the COPY (PostgreSQL receives CopyFail and rolls it back). */
  abort(reason: Error): void {
    if (!this.stream.destroyed) this.stream.destroy(reason);
  }
}

/**
 * Rows kept in memory for a later COPY, joined into ~512 kB chunks as they come (one string per
 * chunk instead of one per row keeps the garbage collector out of the way on a million rows).
 */
export class RowBuffer {
  private parts: string[] = [];
  private size = 0;
  readonly done: string[] = [];
  rows = 0;

  push(line: string): void {
    this.parts.push(line);
    this.size += line.length;
    this.rows++;
    if (this.size >= 512 * 1024) this.cut();
  }

  private cut(): void {
    if (this.parts.length === 0) return;
    this.done.push(`${this.parts.join('\n')}\n`);
    this.parts = [];
    this.size = 0;
  }

  /** The chunks, ready for {@link CopyWriter.chunks}. */
  chunks(): string[] {
    this.cut();
    return this.done;
  }
}
