/**
 * The one type for "something that runs SQL" that domain modules and db helpers take, so a
 * function works the same on the pool, a client, or a transaction's client.
 */
import type pg from 'pg';

/** Anything that runs a query: a pool client inside a transaction, a client, or a pool. */
export type Queryable = Pick<pg.ClientBase, 'query'>;
