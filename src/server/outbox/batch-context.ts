/**
 * The batch an item runs in (decision record 0024), handed from the batch route to the requests
 * it injects IN PROCESS, and to the items it runs itself (direct-items.ts, decision record 0027):
 * an AsyncLocalStorage store set around each item's run, which only the code that item runs can
 * read. No header, cookie or body field can set it, so a
 * request from outside (even one carrying every header an item carries) never joins a batch's
 * transaction nor borrows its session.
 *
 * Readers: the rights guard (plugins/rights-guard.ts) takes the batch's session instead of
 * resolving the same token again; the idempotency plugin (plugins/idempotency.ts) runs the
 * item's handler in the batch's transaction, under the keys the batch locked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Session } from '../auth/session.ts';

/** One batch being run: its transaction, its caller, its items' keys and where it stands. */
export interface BatchContext {
  /** The batch's open transaction; the current item runs inside its own SAVEPOINT. */
  readonly tx: pg.PoolClient;
  /** The caller's session, resolved once by the batch request's rights check. */
  readonly session: Session;
  /** The `Authorization` header that session was resolved from (an item with another is resolved afresh). */
  readonly authorization: string;
  /** Every item's Idempotency-Key in lower case, in the items' order (duplicates kept). */
  readonly keys: readonly string[];
  /** Index of the item running now (0-based), or -1 before the first. */
  item: number;
  /** Items whose writes were rolled back to their savepoint (a non-2xx answer, or a throw). */
  readonly rolledBack: Set<number>;
  /** False once the batch committed or rolled back: its store then stands for no batch. */
  open: boolean;
}

const storage = new AsyncLocalStorage<BatchContext>();

/** Runs `task` (one item's `inject`) inside `batch`: what it runs sees {@link currentBatch}. */
export function runInBatch<T>(batch: BatchContext, task: () => Promise<T>): Promise<T> {
  return storage.run(batch, task);
}

/** The open batch the running request was injected by, or null (any request from outside). */
export function currentBatch(): BatchContext | null {
  const batch = storage.getStore();
  return batch?.open ? batch : null;
}
