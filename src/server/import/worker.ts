/**
 * Worker thread of the import: parses the file's blocks and assembles the ticket lines
 * (lines.ts) on another core while the main thread feeds PostgreSQL.
 * In: `{ type: 'setup' }` once, `{ type: 'block', seq, bytes, firstLine }` in file order,
 * `{ type: 'ids', ids }` answering a `needIds`, `{ type: 'finish' }` at the end.
 * Out: `{ type: 'needIds' }`, `{ type: 'block', seq, rows, count, error? }`,
 * `{ type: 'summary', summary }`, or `{ type: 'failure', message }`.
 */
import { parentPort } from 'node:worker_threads';
import { Assembler, type BlockSetup } from './lines.ts';

type Message =
  | { type: 'setup'; setup: BlockSetup & { siteId: number; present: string[] } }
  | { type: 'block'; seq: number; bytes: Uint8Array; firstLine: number }
  | { type: 'ids'; ids: number[] }
  | { type: 'finish' };

const port = parentPort;
let assembler: Assembler | undefined;
let idsWanted: ((ids: number[]) => void) | undefined;
// Blocks are handled one after the other, even while one waits for ids.
let queue: Promise<void> = Promise.resolve();

function fail(e: unknown): void {
  port?.postMessage({ type: 'failure', message: e instanceof Error ? e.stack ?? e.message : String(e) });
}

port?.on('message', (m: Message) => {
  if (m.type === 'ids') {
    idsWanted?.(m.ids);
    idsWanted = undefined;
    return;
  }
  if (m.type === 'setup') {
    assembler = new Assembler(m.setup, () => new Promise<number[]>((resolve) => {
      idsWanted = resolve;
      port?.postMessage({ type: 'needIds' });
    }));
    return;
  }
  queue = queue.then(async () => {
    if (!assembler) throw new Error('message before setup');
    if (m.type === 'finish') {
      port?.postMessage({ type: 'summary', summary: assembler.finish() });
      return;
    }
    const result = await assembler.block(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), m.firstLine);
    port?.postMessage({ type: 'block', seq: m.seq, ...result });
  }).catch(fail);
});
