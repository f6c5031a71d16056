/**
 * Which part of a catalogue (`i18n/<lang>.json`) a message belongs to. The client loads a
 * language in two chunks: `start` before the first paint (the login route, the shell, errors and
 * successes, the password-reset screens) and `later` — the screens behind sign-in — fetched in the
 * background after the first paint and awaited before any signed-in screen shows (routes/_authed).
 * This keeps the login route's initial JavaScript within its budget (issue #2 §7, 150 kB gzip,
 * bench/bundle.ts) however many screens the catalogues describe. vite.config.ts splits the
 * catalogues with this rule at build time; the JSON files stay one per language.
 */

/** The two chunks of a catalogue. */
export type CataloguePart = 'start' | 'later';

/**
 * Message id prefixes (the text before the first dot) of the screens behind sign-in. A prefix
 * listed here must not be used by the login route or the shell: tests/client/catalogue-parts.test.ts
 * scans their files for such ids.
 */
export const LATER_PREFIXES: ReadonlySet<string> = new Set([
  'account',
  'adminHub',
  'anomalies',
  'audit',
  'bi',
  'counting',
  'events',
  'exports',
  'favourites',
  'graphs',
  'groupsAdmin',
  'home',
  'kpi',
  'messages',
  'period',
  'profilesAdmin',
  'repartitions',
  'report',
  'reports',
  'rights',
  'rule',
  'rulesAdmin',
  'selection',
  'sitesAdmin',
  'subscriptions',
  'tickets',
  'tracker',
  'usersAdmin',
]);

/** The part of message `id`: `later` when its prefix is in {@link LATER_PREFIXES}, else `start`. */
export function cataloguePart(id: string): CataloguePart {
  const dot = id.indexOf('.');
  return LATER_PREFIXES.has(dot < 0 ? id : id.slice(0, dot)) ? 'later' : 'start';
}
