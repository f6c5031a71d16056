/**
 * Pieces every report class uses to build its {@link Dataset}: the common header (class,
 * variant, translated title, currency, period, sites, generated-at), translated columns, and
 * the cursor that streamed classes read their rows through.
 */
import type { Pool } from 'pg';
import Cursor from 'pg-cursor';
import type { ColumnType, Dataset, DatasetColumn } from '../../contract/reports.ts';
import { message } from '../i18n.ts';
import type { ReportClass, ReportRequest } from './types.ts';

/** Everything of a dataset but its columns, rows and totals. */
export type DatasetHeader = Omit<Dataset, 'columns' | 'rows' | 'totals'>;

/** The common header of `cls`'s dataset for `request`, title in the request's language. */
export function datasetHeader(
  cls: Pick<ReportClass, 'className' | 'titleId'>,
  request: ReportRequest,
): DatasetHeader {
  return {
    className: cls.className,
    variant: request.variant,
    title: message(request.language, cls.titleId),
    currency: request.currency,
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    sites: request.sites.map((s) => ({ restaurantId: s.id, libelle: s.libelle })),
    generatedAt: request.generatedAt.toISOString(),
  };
}

/**
 * Columns with labels from the `report.column.<key>` messages of `request.language`.
 * @param specs `[key, type]` pairs in display order.
 */
export function translatedColumns(
  request: Pick<ReportRequest, 'language'>,
  specs: ReadonlyArray<readonly [key: string, type: ColumnType]>,
): DatasetColumn[] {
  return specs.map(([key, type]) => ({
    key,
    type,
    label: message(request.language, `report.column.${key}`),
  }));
}

/**
 * Rows a cursor reads at a time: large enough to amortise round trips, small in memory. A
 * streamed answer's peak memory follows it (bench/csv.ts, decision record 0008, which holds the
 * figures); reading a report whole takes as long with this batch as with a larger one.
 */
export const CURSOR_BATCH = 500;

/**
 * The rows of `query` read through a server-side cursor (pg-cursor) on a connection of its
 * own, `batchSize` at a time, so a result of millions of rows never sits in memory. One batch is
 * read ahead while the consumer works on the current one (so the database and the answer work at
 * the same time); no more is read until the consumer asks (backpressure all the way to
 * PostgreSQL): at most two batches are held.
 * The connection goes back to the pool when the rows are exhausted, when the consumer stops
 * early (`return()`), or on an error (then it is discarded, since its state is unknown).
 * @throws the query's error (pg DatabaseError) from the iteration.
 */
export async function* cursorRows<R extends object>(
  pool: Pool,
  query: { text: string; values: unknown[] },
  batchSize = CURSOR_BATCH,
): AsyncGenerator<R[], void, undefined> {
  const client = await pool.connect();
  const cursor = client.query(new Cursor<R>(query.text, query.values));
  let failed: Error | undefined;
  let ahead: Promise<R[]> | undefined;
  const readAhead = () => {
    ahead = cursor.read(batchSize);
    // Handled here too: a read failing while the consumer holds a batch is not "unhandled";
    // the loop or the finally below awaits it and sees the error.
    ahead.catch(() => {});
    return ahead;
  };
  try {
    readAhead();
    for (;;) {
      const rows = await ahead!;
      ahead = undefined;
      if (rows.length === 0) return;
      if (rows.length < batchSize) {
        yield rows;
        return;
      }
      readAhead();
      yield rows;
    }
  } catch (error) {
    failed = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // Stopped early: the batch read ahead must land before the cursor can close.
    if (ahead)
      await ahead.catch((error: unknown) => {
        failed ??= error instanceof Error ? error : new Error(String(error));
      });
    if (!failed) await cursor.close().catch(() => {});
    client.release(failed);
  }
}
