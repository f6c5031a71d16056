/** Labels of the audit log's kinds, verbs and fields, which the server may extend before the catalogues do. */
import type { IntlShape } from 'react-intl';

/** The catalogue's message `id` when it has one, else `fallback` (the raw kind, verb or field name). */
export function labelOr(intl: IntlShape, id: string, fallback: string): string {
  return id in intl.messages ? intl.formatMessage({ id }) : fallback;
}
