/**
 * Who does what in the demo chain's counting history and events (counting.ts, events.ts): the
 * users present when the demo is created — the demo users (catalogue.ts DEMO_USERS) and, at
 * `npm start`, the administrator, created before the demo chain — with their rights and site
 * scopes as the domain reads them (auth/scope.ts). The demo follows the domain's rules: a count
 * is made by a user holding COMPTAGE on the site, a safe count is countersigned by another user
 * holding COFFRE on it (counting/countersignatures.ts), an event is written by a user holding
 * EVENEMENTS on all its sites. Among several, the one with the fewest sites (the site's own
 * manager before an area manager, before the administrator), then the oldest user.
 */
import type pg from 'pg';
import type { Right } from '../../contract/rights.ts';
import { siteScope } from '../auth/scope.ts';

/** A user of the demo's history: id and login, as the counting tables record them. */
export interface DemoPerson {
  userId: number;
  login: string;
}

/** The users who count, countersign and write events, by demo site (index in catalogue.ts SITES). */
export interface DemoPeople {
  /** Who counts the cash and the safe of a site; null when no user may. */
  counter(siteIndex: number): DemoPerson | null;
  /** Who countersigns the safe counts of a site counted by `counter`; null when nobody else may. */
  countersigner(siteIndex: number, counter: DemoPerson | null): DemoPerson | null;
  /** The id of the user who wrote an event on these sites; null when no user may. */
  eventAuthor(siteIndexes: readonly number[]): number | null;
}

interface Candidate extends DemoPerson {
  rights: readonly string[];
  /** Demo site indexes in scope. */
  sites: ReadonlySet<number>;
}

/**
 * Reads the users, their rights and scopes (in demo site indexes, `siteIds` being the demo
 * sites' database ids in catalogue order) through `client`, the demo's transaction.
 * @throws the database's error.
 */
export async function demoPeople(client: pg.ClientBase, siteIds: readonly number[]): Promise<DemoPeople> {
  const { rows } = await client.query<{ id: number; login: string; droits: string[] }>(
    'SELECT u.id, u.login, p.droits FROM users u JOIN profiles p ON p.id = u.profile_id ORDER BY u.id',
  );
  const index = new Map(siteIds.map((id, i) => [id, i]));
  const candidates: Candidate[] = [];
  for (const r of rows) {
    const scope = await siteScope(client, r.id);
    const sites = new Set(scope.flatMap((id) => (index.has(id) ? [index.get(id) as number] : [])));
    candidates.push({ userId: r.id, login: r.login, rights: r.droits, sites });
  }
  // Fewest sites first; the sort is stable, so the oldest user first among equals.
  candidates.sort((a, b) => a.sites.size - b.sites.size);
  const find = (right: Right, sites: readonly number[], not?: number) => {
    const c = candidates.find(
      (u) => u.userId !== not && u.rights.includes(right) && sites.every((s) => u.sites.has(s)),
    );
    return c ? { userId: c.userId, login: c.login } : null;
  };
  return {
    counter: (s) => find('COMPTAGE', [s]),
    countersigner: (s, counter) => find('COFFRE', [s], counter?.userId),
    eventAuthor: (sites) => find('EVENEMENTS', sites)?.userId ?? null,
  };
}
