/**
 * The demo chain's partner integration (issue #29, decision 0044): e-cash, enabled on every demo
 * site, into the folder `DATA_DIR/exports/ecash/` every day at 06:30 (Paris), with e-cash's
 * default layout, so a newcomer sees files arrive and the history fill on /config/ecash without
 * setting anything up. The rule belongs to nobody (an administration rule, shown to CONFIGURATION).
 */
import type pg from 'pg';
import { defaultLayout } from '../integrations/partners.ts';

/**
 * Inserts the e-cash integration on `siteIds` (inside the demo's transaction).
 * @returns the number of integrations created (1).
 */
export async function createDemoIntegration(
  client: pg.ClientBase,
  siteIds: readonly number[],
): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO report_rules (owner_id, libelle, type, hour, minute) VALUES (NULL, 'e-cash 6 h 30', 'DAILY', 6, 30) RETURNING id`,
  );
  await client.query(
    `INSERT INTO integrations (partner, enabled, sites, rule_id, destination, layout) VALUES ('ecash', true, $1, $2, $3, $4)`,
    [siteIds, rows[0]!.id, { type: 'folder', dossier: 'ecash' }, defaultLayout('ecash')],
  );
  return 1;
}
