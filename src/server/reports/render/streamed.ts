/**
 * A dataset whose rows have not all been read yet (DESIGN.md §6 "Large outputs stream").
 *
 * run.ts answers such a dataset for a CSV or XLSX of a class that can stream
 * (`ReportClass.stream`): a real {@link Dataset} whose `rows` hold the first batch read from the
 * cursor — so code that only looks at the dataset (is it empty? its header, its file name) keeps
 * working unchanged — and that carries the rest of the rows under a symbol. The renderers claim
 * the rest and write it as it comes; anything else that needs every row calls
 * {@link materialise}. Guarantees: the rest is consumed at most once; the database connection is
 * released when it is exhausted, abandoned (stream destroyed), or left unclaimed for
 * {@link UNCLAIMED_MS}.
 */
import type { Dataset } from '../../../contract/reports.ts';
import type { DatasetRow } from '../types.ts';

const REST = Symbol('comptoir.streamedRows');

/** How long the rest may wait for a renderer before its connection is given back. */
export const UNCLAIMED_MS = 60_000;

/** The rows after the first batch, and the totals once they are read. */
export interface StreamedRest {
  /** Next batches (never empty); `return()` stops reading and releases the connection. */
  batches: AsyncIterator<DatasetRow[], void, undefined>;
  /** Totals of every row; valid once `batches` is exhausted. */
  totals(): Dataset['totals'];
}

interface RestSlot {
  rest: StreamedRest | null;
  timer: NodeJS.Timeout;
}

/**
 * A dataset of `head`, `first` rows and `rest` to come. `totals` reads the running totals (final
 * once the rest is read). The symbol property is enumerable, so a spread copy still streams.
 */
export function streamedDataset(
  head: Omit<Dataset, 'rows' | 'totals'>,
  first: DatasetRow[],
  rest: StreamedRest,
): Dataset {
  const slot: RestSlot = {
    rest,
    timer: setTimeout(() => {
      slot.rest = null;
      void rest.batches.return?.();
    }, UNCLAIMED_MS).unref(),
  };
  const dataset = { ...head, rows: first, [REST]: slot } as Dataset & { [REST]: RestSlot };
  Object.defineProperty(dataset, 'totals', { get: () => rest.totals(), enumerable: true });
  return dataset;
}

/** True when `dataset` still has rows to read (a streamed dataset nobody has claimed yet). */
export function isStreamed(dataset: Dataset): boolean {
  return ((dataset as { [REST]?: RestSlot })[REST]?.rest ?? null) !== null;
}

/** Takes the rest of a streamed dataset (once: later calls, and plain datasets, answer null). */
export function claimRest(dataset: Dataset): StreamedRest | null {
  const slot = (dataset as { [REST]?: RestSlot })[REST];
  if (!slot?.rest) return null;
  clearTimeout(slot.timer);
  const { rest } = slot;
  slot.rest = null;
  return rest;
}

/**
 * Every row of `dataset` in memory (a plain dataset is returned as it is): for the formats
 * that need the whole table at once (PDF, JSON).
 */
export async function materialise(dataset: Dataset): Promise<Dataset> {
  const rest = claimRest(dataset);
  if (!rest) return dataset;
  const rows = [...dataset.rows];
  for (let next = await rest.batches.next(); !next.done; next = await rest.batches.next())
    rows.push(...next.value);
  const { [REST]: _slot, ...plain } = dataset as Dataset & { [REST]?: RestSlot };
  return { ...plain, rows, totals: rest.totals() };
}
