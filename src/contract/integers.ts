/**
 * Bounds of the integers the API accepts, from the columns they end in (issue #17 item 10): a
 * number beyond its column's range used to reach PostgreSQL ("value out of range for type
 * integer") and answer 500; with these bounds on every query, path and body integer it answers
 * 400 BadRequest before any query runs. tests/server/integer-bounds.test.ts checks the OpenAPI
 * document for an integer without them.
 */

/** Largest value of a PostgreSQL `integer` (int4) column: the ids of `serial` tables, terminal numbers. */
export const INT4_MAX = 2_147_483_647;

/**
 * Largest id of a `bigint`/`bigserial` column the API accepts: the largest integer a JavaScript
 * number holds exactly (counts, documents, tickets, editions).
 */
export const BIGINT_ID_MAX = Number.MAX_SAFE_INTEGER;

/**
 * Largest amount in cents accepted in a count, a document or a safe count (`bigint` columns):
 * 100 billion in the currency's unit, far above any till, and small enough that the sums of a
 * day's amounts stay exact in a JavaScript number.
 */
export const CENTS_MAX = 10_000_000_000_000;

/** Largest page or offset of a paged list: far beyond any list a person pages through. */
export const PAGE_MAX = 1_000_000;

/**
 * A list of ids written as one text (`sites=1,2,3`, SPEC.md §7): each id canonical decimal (no
 * sign, no blank, no leading zero) of at most 10 digits, separated by single commas; the empty
 * text is the empty list. Callers still bound each id to {@link INT4_MAX} (issue #32 C.1, C.7).
 */
export const ID_LIST_TEXT = /^((0|[1-9]\d{0,9})(,(0|[1-9]\d{0,9}))*)?$/;
