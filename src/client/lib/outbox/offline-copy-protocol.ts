/**
 * What the service worker and the page agree on about offline copies of read-only answers
 * (DESIGN.md §7): the answer header that marks a copy, and the messages the service worker posts
 * to the page that made the request.
 */

/** Answer header on a copy served offline: ISO 8601 date of the network answer it copies. */
export const OFFLINE_COPY_HEADER = 'X-Comptoir-Offline-Copy';
/** Posted when a copy was served: `{ type, key, path, storedAt }` (storedAt ISO). */
export const OFFLINE_COPY_MESSAGE = 'comptoir:offline-copy';
/** Posted when a fresh network answer was kept: `{ type, key, path }`. */
export const FRESH_ANSWER_MESSAGE = 'comptoir:fresh-answer';
