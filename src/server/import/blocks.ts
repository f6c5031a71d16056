/**
 * Cuts a CSV byte stream (UTF-8) into blocks of whole records, so blocks can be parsed
 * independently (and in parallel) by csv-parse. A block ends just after a newline that is not
 * inside a quoted field: with RFC 4180 quoting (a quote inside a field is doubled) that is a
 * newline preceded, within the block, by an even number of `"` characters.
 */
import { Worker } from 'node:worker_threads';
import type { BlockSetup, ReadLines } from './lines.ts';

/** A run of whole records and the physical line number of its first byte. */
export interface Block {
  bytes: Buffer;
  firstLine: number;
}

const NL = 0x0a;
const QUOTE = 0x22;

/** Index just after the last record boundary in `buf`, or -1. */
export function lastRecordEnd(buf: Buffer): number {
  const quotes: number[] = [];
  for (let q = buf.indexOf(QUOTE); q !== -1; q = buf.indexOf(QUOTE, q + 1)) quotes.push(q);
  let before = quotes.length;
  for (let nl = buf.lastIndexOf(NL); nl >= 0; nl = nl > 0 ? buf.lastIndexOf(NL, nl - 1) : -1) {
    while (before > 0 && (quotes[before - 1] as number) > nl) before--;
    if (before % 2 === 0) return nl + 1;
  }
  return -1;
}

/** Index just after the first record boundary in `buf`, or -1 (for the header line). */
export function firstRecordEnd(buf: Buffer): number {
  let quotes = 0;
  let q = buf.indexOf(QUOTE);
  for (let nl = buf.indexOf(NL); nl !== -1; nl = buf.indexOf(NL, nl + 1)) {
    while (q !== -1 && q < nl) {
      quotes++;
      q = buf.indexOf(QUOTE, q + 1);
    }
    if (quotes % 2 === 0) return nl + 1;
  }
  return -1;
}

export function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(NL); i !== -1; i = buf.indexOf(NL, i + 1)) n++;
  return n;
}

/**
 * Splits `chunks` (UTF-8 bytes, BOM already removed) into the header record and blocks of
 * about `size` bytes. The header comes first as a block of its own.
 */
export async function* recordBlocks(chunks: AsyncIterable<Buffer>, size: number): AsyncGenerator<Block> {
  let parts: Buffer[] = [];
  let length = 0;
  let line = 1;
  let headerDone = false;
  const take = (buf: Buffer, end: number): Block => {
    const bytes = buf.subarray(0, end);
    const block = { bytes, firstLine: line };
    line += countNewlines(bytes);
    return block;
  };
  for await (const chunk of chunks) {
    parts.push(chunk);
    length += chunk.length;
    if (!headerDone) {
      const buf = Buffer.concat(parts);
      const end = firstRecordEnd(buf);
      if (end < 0) {
        parts = [buf];
        continue;
      }
      yield take(buf, end);
      headerDone = true;
      parts = [buf.subarray(end)];
      length = buf.length - end;
    }
    if (length < size) continue;
    const buf = Buffer.concat(parts);
    const end = lastRecordEnd(buf);
    if (end <= 0) {
      parts = [buf];
      continue;
    }
    yield take(buf, end);
    parts = [buf.subarray(end)];
    length = buf.length - end;
  }
  const rest = Buffer.concat(parts);
  if (rest.length > 0) yield take(rest, rest.length);
}

/**
 * The import's reader threads seen from the main thread: blocks go in (each to the next thread
 * in turn), their read lines come back; {@link read} resolves per block, whatever order the
 * threads finish in, and the caller adds them to the Assembler in file order.
 */
export class ReaderWorkers {
  private readonly workers: Worker[];
  private readonly waiting = new Map<
    number,
    { resolve: (r: ReadLines) => void; reject: (e: Error) => void }
  >();
  private seq = 0;

  /** Starts `count` threads (they load their modules meanwhile); {@link start} gives them their work. */
  constructor(count: number) {
    this.workers = Array.from({ length: Math.max(1, count) }, () => {
      // A larger young generation: reading allocates a few short-lived strings per field, and
      // with the default one the thread spends a good part of its time in scavenges.
      const worker = new Worker(new URL('./worker.ts', import.meta.url), {
        resourceLimits: { maxYoungGenerationSizeMb: 64 },
      });
      worker.on('message', (m: { type: string; seq?: number; lines?: ReadLines; message?: string }) => {
        if (m.type === 'block' && m.lines) {
          const w = this.waiting.get(m.seq ?? -1);
          this.waiting.delete(m.seq ?? -1);
          w?.resolve(m.lines);
        } else if (m.type === 'failure') {
          this.failAll(new Error(`import worker failed: ${m.message}`));
        }
      });
      worker.on('error', (e) => this.failAll(e));
      return worker;
    });
  }

  /** The number of threads. */
  get size(): number {
    return this.workers.length;
  }

  /** Sends the import's setup to every thread. */
  start(setup: BlockSetup): void {
    for (const worker of this.workers) worker.postMessage({ type: 'setup', setup });
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  /** Sends the next block to the next thread; resolves with its lines. */
  read(block: Block): Promise<ReadLines> {
    const seq = this.seq++;
    const promise = new Promise<ReadLines>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    (this.workers[seq % this.workers.length] as Worker).postMessage({
      type: 'block',
      seq,
      bytes: block.bytes,
      firstLine: block.firstLine,
    });
    return promise;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
