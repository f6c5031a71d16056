/**
 * The sections of the signed-in navigation (app/nav-menu.tsx) and which screen goes in which.
 * Kept apart from the components so it loads without React or a DOM.
 */
import type { LinkProps } from '@tanstack/react-router';

/**
 * Sections of the navigation, in display order. `main` has no heading (home and anything not
 * classified); the others are headed in the phone sheet and separated in the wide bar, except
 * `insights` (events calendar, BI, key figures, tracker, anomalies: the chain's steering), which
 * folds into one button of the header's first row, so the bar keeps one row on a tablet (issue
 * #20 item 10).
 */
export const NAV_GROUPS = ['main', 'insights', 'reports', 'counting', 'settings'] as const;

/** The groups the header's first row folds into one button each (app/nav-menu.tsx NavTools). */
export const FOLDED_NAV_GROUPS: readonly NavGroup[] = ['insights'];

/**
 * True when `entry` shows in the header's first row on wide screens (NavTools: folded groups and
 * settings) rather than in the bar of screens (NavBar).
 */
export function inHeaderTools(entry: { to: string; group?: NavGroup | undefined }): boolean {
  const group = navGroup(entry);
  return group === 'settings' || FOLDED_NAV_GROUPS.includes(group);
}
export type NavGroup = (typeof NAV_GROUPS)[number];

/** One navigation entry: a screen path (SPEC.md §2), its `nav.*` message, optionally its group. */
export interface NavEntry {
  to: NonNullable<LinkProps['to']>;
  messageId: string;
  /** Overrides the group found from the path (see `navGroup`). */
  group?: NavGroup;
}

/**
 * Path prefixes (SPEC.md §2 routes) and their group, so an entry appended to NAV without a
 * `group` still lands in a sensible section.
 */
const GROUP_OF_PREFIX: ReadonlyArray<readonly [string, NavGroup]> = [
  ['/home', 'main'],
  ['/rapports', 'reports'],
  ['/tickets', 'reports'],
  ['/configFavoris', 'reports'],
  ['/graphs', 'reports'],
  ['/analyses/repartitions', 'reports'],
  ['/analyses/listExports', 'reports'],
  ['/evenements', 'insights'],
  ['/bi', 'insights'],
  ['/tracker', 'insights'],
  ['/totalKPI', 'insights'],
  ['/anomalies', 'insights'],
  ['/analyses/comptageCaisses', 'counting'],
  ['/analyses/coffre', 'counting'],
  ['/analyses/recuManagers', 'counting'],
  ['/recus', 'counting'],
  ['/sync', 'settings'],
  ['/fec', 'settings'],
  ['/config', 'settings'],
];

/** The group of `entry`: its own `group`, else the one of its path prefix, else `main`. */
export function navGroup(entry: { to: string; group?: NavGroup | undefined }): NavGroup {
  if (entry.group) return entry.group;
  const path = entry.to;
  const hit = GROUP_OF_PREFIX.find(([p]) => path === p || path.startsWith(`${p}/`));
  return hit ? hit[1] : 'main';
}

/** `entries` by group, groups in NAV_GROUPS order, entries in their NAV order; empty groups left out. */
export function groupNavEntries<E extends NavEntry>(
  entries: readonly E[],
): Array<{ group: NavGroup; entries: E[] }> {
  return NAV_GROUPS.map((group) => ({ group, entries: entries.filter((e) => navGroup(e) === group) })).filter(
    (g) => g.entries.length > 0,
  );
}
