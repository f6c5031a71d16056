/**
 * Cuts a CSV byte stream (UTF-8) into blocks of whole records, so blocks can be parsed
 * independently (and in parallel) by csv-parse. A block ends just after a newline that is not
 * inside a quoted field: with RFC 4180 quoting (a quote inside a field is doubled) that is a
 * newline preceded, within the block, by an even number of `"` characters.
 */
import { Worker } from 'node:worker_threads';
import type { AssemblySummary, BlockError, BlockSetup } from './lines.ts';

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

type BlockOutput = { rows: string; count: number; read: number; error?: BlockError };

/**
 * The import's worker thread seen from the main thread: blocks go in, finished COPY rows come
 * back in the same order; the worker's requests for ticket ids are answered by `takeIds`.
 */
export class AssemblerWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: BlockOutput) => void; reject: (e: Error) => void }>();
  private summaryWanted: { resolve: (s: AssemblySummary) => void; reject: (e: Error) => void } | undefined;
  private seq = 0;
  private takeIds: () => Promise<number[]> = () => Promise.reject(new Error('worker not started'));

  /** Starts the thread (it loads its modules meanwhile); {@link start} gives it its work. */
  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url));
    this.worker.on('message', (m: { type: string; seq?: number; summary?: AssemblySummary; message?: string } & Partial<BlockOutput>) => {
      if (m.type === 'needIds') {
        this.takeIds().then((ids) => this.worker.postMessage({ type: 'ids', ids }), (e: Error) => this.failAll(e));
      } else if (m.type === 'block') {
        const w = this.waiting.get(m.seq ?? -1);
        this.waiting.delete(m.seq ?? -1);
        w?.resolve({ rows: m.rows ?? '', count: m.count ?? 0, read: m.read ?? 0, ...(m.error ? { error: m.error } : {}) });
      } else if (m.type === 'summary' && m.summary) {
        this.summaryWanted?.resolve(m.summary);
      } else if (m.type === 'failure') {
        this.failAll(new Error(`import worker failed: ${m.message}`));
      }
    });
    this.worker.on('error', (e) => this.failAll(e));
  }

  /** Sends the import's setup; `takeIds` answers the worker's requests for ticket ids. */
  start(setup: BlockSetup & { siteId: number; present: string[] }, takeIds: () => Promise<number[]>): void {
    this.takeIds = takeIds;
    this.worker.postMessage({ type: 'setup', setup });
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
    this.summaryWanted?.reject(e);
  }

  /** Sends the next block (in file order); resolves with its COPY rows. */
  block(block: Block): Promise<BlockOutput> {
    const seq = this.seq++;
    const promise = new Promise<BlockOutput>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    this.worker.postMessage({ type: 'block', seq, bytes: block.bytes, firstLine: block.firstLine });
    return promise;
  }

  /** Asks for the ticket and payment rows once every block is read. */
  finish(): Promise<AssemblySummary> {
    const promise = new Promise<AssemblySummary>((resolve, reject) => { this.summaryWanted = { resolve, reject }; });
    this.worker.postMessage({ type: 'finish' });
    return promise;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
