/**
 * The record of each load of sales data into a site (table `data_loads`, schema-exports.ts), read
 * by GET exports/status ("last load"). Lives with the database code so that the loaders (CSV
 * import, demo generator) write it without depending on the report modules.
 */
import type pg from 'pg';
import { notifyChanged } from './changes.ts';

/** A load of sales data into a site, as {@link recordDataLoad} stores it. */
export interface DataLoad {
  siteId: number;
  /** `file:<name>` for an import, `demo` for the demo chain. */
  source: string;
  /** First and last fiscal dates the load touched (wire dates), null when it added nothing. */
  firstFiscalDate: string | null;
  lastFiscalDate: string | null;
  /** Tickets added. */
  tickets: number;
}

/**
 * Records a load of sales data (for GET exports/status). Meant to be called by a loader (import,
 * demo generator) inside its own transaction, so the record exists exactly when the data does;
 * the change feed hears it at that transaction's commit ({@link notifyChanged}).
 */
export async function recordDataLoad(client: pg.Pool | pg.PoolClient, load: DataLoad): Promise<void> {
  await client.query(
    `INSERT INTO data_loads (site_id, source, first_fiscal_date, last_fiscal_date, tickets)
     VALUES ($1, $2, $3, $4, $5)`,
    [load.siteId, load.source, load.firstFiscalDate, load.lastFiscalDate, load.tickets],
  );
  // On a Citus cluster the table's trigger fires on a worker, which cannot notify (decision 0046).
  await notifyChanged(client, 'data_loads');
}

/**
 * True when the database holds at least one ticket, whatever loaded it (an import, the demo
 * generator): the start-up creates the demo chain only on a database with no sales.
 */
export async function anySalesLoaded(db: Pick<pg.ClientBase, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM tickets) AS any');
  return rows[0]!.any;
}
