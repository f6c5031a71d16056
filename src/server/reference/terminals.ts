/** The terminals (caisses) of a user's sites, as GET bo/getCaisses answers them (SPEC.md §3, §7). */
import type { z } from 'zod';
import type { CaissesAnswerSchema, Terminal } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';

/** Terminals keyed by restaurantId (as a string): the site's id and name, its terminals by number. */
export type TerminalsBySite = z.infer<typeof CaissesAnswerSchema>;

/** The terminals of each site of `siteIds`; a site without a terminal is listed with none. */
export async function terminalsBySite(db: Queryable, siteIds: readonly number[]): Promise<TerminalsBySite> {
  const { rows } = await db.query<{ id: number; libelle: string; caisses: Terminal[] }>(
    `SELECT s.id, s.libelle,
          coalesce(json_agg(json_build_object('id', t.terminal_id, 'libelle', t.libelle) ORDER BY t.terminal_id)
            FILTER (WHERE t.terminal_id IS NOT NULL), '[]') AS caisses
     FROM sites s LEFT JOIN terminals t ON t.site_id = s.id
    WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
    [siteIds],
  );
  return Object.fromEntries(
    rows.map((r) => [String(r.id), { site: { restaurantId: r.id, libelle: r.libelle }, caisses: r.caisses }]),
  );
}
