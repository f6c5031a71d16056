/**
 * Worker thread of the import: reads blocks of the file (csv-parse, dates, exact amounts:
 * {@link BlockReader}) on another core while the main thread assembles tickets and feeds
 * PostgreSQL. Several such threads may read alternate blocks; each block is independent.
 * In: `{ type: 'setup' }` once, then `{ type: 'block', seq, bytes, firstLine }`.
 * Out: `{ type: 'block', seq, lines }` (lines.ts `ReadLines`), or `{ type: 'failure', message }`.
 */
import { parentPort } from 'node:worker_threads';
import { BlockReader, type BlockSetup } from './lines.ts';

type Message =
  | { type: 'setup'; setup: BlockSetup }
  | { type: 'block'; seq: number; bytes: Uint8Array; firstLine: number };

const port = parentPort;
let reader: BlockReader | undefined;

port?.on('message', (m: Message) => {
  try {
    if (m.type === 'setup') {
      reader = new BlockReader(m.setup);
      return;
    }
    if (!reader) throw new Error('block before setup');
    const lines = reader.read(
      Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
      m.firstLine,
    );
    port?.postMessage({ type: 'block', seq: m.seq, lines });
  } catch (e) {
    port?.postMessage({ type: 'failure', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
