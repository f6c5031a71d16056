/**
 * Plain constants of the contract, kept free of zod so the client's first load (the login) can
 * import them without the schema library. `api.ts` re-exports them.
 */

/** Application version, SPEC.md §3 / §9. */
export const APP_VERSION = '1.3.0';

/** The header every call must carry (SPEC.md §7) and the value our client sends. */
export const CLIENT_HEADER = 'X-Requested-With';
export const CLIENT_HEADER_VALUE = 'XMLHttpRequest';

/**
 * Request header carrying the client's UUID of a write (DESIGN.md §7): the server answers a repeated
 * key with its first answer and stores nothing twice (contract/counting.ts describes the rules).
 * Declared here, free of zod, for the service worker's outbox as well as the page.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
