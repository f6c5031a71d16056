/**
 * Plain constants of the contract, kept free of zod so the client's first load (the login) can
 * import them without the schema library. `api.ts` re-exports them.
 */

/** Application version, SPEC.md §3 / §9. */
export const APP_VERSION = '1.3.0';

/** The header every call must carry (SPEC.md §7) and the value our client sends. */
export const CLIENT_HEADER = 'X-Requested-With';
export const CLIENT_HEADER_VALUE = 'XMLHttpRequest';
