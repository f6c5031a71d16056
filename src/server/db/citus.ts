/**
 * Places Comptoir's tables on a Citus cluster (issue #33, decision record 0042,
 * docs/operations/distributed-postgresql.md): run after the migrations, it does nothing unless
 * the database has the `citus` extension and at least one worker node, and is idempotent (a
 * table already placed is left as it is). Plain and embedded PostgreSQL never reach its DDL.
 *
 * - reference tables ({@link REFERENCE_TABLES}): a copy on every node;
 * - every other table of schema `public` with a `site_id` column: distributed by `site_id`,
 *   co-located with `tickets`;
 * - the rest stays on the coordinator (Citus adds those with a foreign key to a reference table
 *   to its metadata itself); pg-boss's schema `pgboss` is not touched.
 */
import type { Queryable } from './queryable.ts';

/** Small, rarely written tables every node reads: replicated (Citus reference tables). */
export const REFERENCE_TABLES = [
  'companies',
  'sites',
  'groups',
  'group_sites',
  'profiles',
  'users',
  'local_events',
  'admin_messages',
  'fec_account_plans',
] as const;

/**
 * Tables with a `site_id` that stay on the coordinator all the same: their keys do not hold
 * `site_id` (tests/architecture/distribution-keys.test.ts COORDINATOR_TABLES says why each).
 */
export const COORDINATOR_TABLES_WITH_SITE_ID = ['integration_deliveries'] as const;

/** The table every distributed table is co-located with. */
export const COLOCATION_TABLE = 'tickets';

/** What {@link distributeForCitus} did: `null` when the database is not a Citus cluster. */
export type CitusPlacement = { reference: string[]; distributed: string[] } | null;

/**
 * Whether `db`'s database is a Citus coordinator with workers (extension `citus` installed and
 * at least one active worker).
 */
export async function isCitusCluster(db: Queryable): Promise<boolean> {
  const ext = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  if (ext.rowCount === 0) return false;
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM citus_get_active_worker_nodes()',
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * On a Citus cluster, makes the rest of the caller's transaction reach each worker over one
 * connection (`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`); on plain PostgreSQL
 * (no `citus` extension) it sets nothing. Call it before a multi-shard read of a transaction that
 * then writes a reference table: Citus otherwise refuses that write ("cannot modify table
 * "companies" because there was a parallel operation on a distributed table") when a distributed
 * table has a foreign key towards the reference table's family (local_event_sites → sites →
 * companies). Decision record 0042 (2026-12-07). Outside a transaction it lasts one statement.
 */
export async function sequentialOnCitus(db: Queryable): Promise<void> {
  await db.query(
    `SELECT set_config('citus.multi_shard_modify_mode', 'sequential', true)
      WHERE EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')`,
  );
}

/**
 * Creates the reference and distributed tables that are not placed yet (see the module's
 * comment). Also rewrites the change feed's trigger function (migration 0007): on a cluster its
 * triggers fire on the shards, so it names the table, not the shard (`users_102008` → `users`),
 * and notifies only on the coordinator, where the servers listen — a worker cannot PREPARE (two-
 * phase commit) a transaction that ran NOTIFY. Reference tables and `sessions` keep their feed:
 * the coordinator's own placement gets the triggers (placeChangeFeedOnCoordinator); distributed
 * tables (data_loads, local_event_sites) are notified by their writers (decision 0046).
 * @returns the tables placed by this call (empty lists when all were already), or `null` when
 *   `db` is not a Citus cluster (nothing done).
 * @throws what Citus raises when a table cannot be placed (the migration left it invalid).
 */
export async function distributeForCitus(db: Queryable): Promise<CitusPlacement> {
  if (!(await isCitusCluster(db))) return null;
  // Statement triggers (the change feed) on reference and distributed tables run on the shards.
  await db.query('SET citus.enable_unsafe_triggers = on');
  await db.query(`CREATE OR REPLACE FUNCTION comptoir_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF citus_is_coordinator() THEN
    PERFORM pg_notify('comptoir_changes', regexp_replace(TG_TABLE_NAME, '_[0-9]+$', ''));
  END IF;
  RETURN NULL;
END $$`);
  const placed = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND (p.partmethod <> 'n' OR p.repmodel = 't')`,
  );
  const done = new Set(placed.rows.map((r) => r.name));
  const reference: string[] = [];
  for (const table of REFERENCE_TABLES) {
    if (done.has(table)) continue;
    await db.query('SELECT create_reference_table($1)', [table]);
    reference.push(table);
  }
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'site_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const candidates = rows
    .map((r) => r.name)
    .filter((t) => !(REFERENCE_TABLES as readonly string[]).includes(t))
    .filter((t) => !(COORDINATOR_TABLES_WITH_SITE_ID as readonly string[]).includes(t));
  const ordered = [COLOCATION_TABLE, ...candidates.filter((t) => t !== COLOCATION_TABLE)];
  const distributed: string[] = [];
  for (const table of ordered) {
    if (done.has(table)) continue;
    if (table === COLOCATION_TABLE) await db.query(`SELECT create_distributed_table($1, 'site_id')`, [table]);
    else
      await db.query(`SELECT create_distributed_table($1, 'site_id', colocate_with => $2)`, [
        table,
        COLOCATION_TABLE,
      ]);
    distributed.push(table);
  }
  if (reference.length + distributed.length > 0) await recreateChangeFeedTriggers(db);
  await placeChangeFeedOnCoordinator(db);
  return { reference, distributed };
}

/**
 * Gives the coordinator's own placement of each table of the change feed (the copy of a
 * reference table, the only shard of a "citus local" table such as `sessions`) the feed's
 * triggers it lacks, named as Citus names a shard's trigger (`sites_changed_102009`). Those are
 * the only placements where the rewritten `comptoir_notify_change()` notifies, and a write from
 * the coordinator runs there by local execution, in the writer's transaction — so the
 * coordinator's listeners hear it at commit, as on one PostgreSQL. Citus puts a trigger created
 * on such a table on the workers' shards but not on the coordinator's placement (seen with
 * 13.2.2); its documented way for triggers it does not place is to create them on the shards
 * directly (docs.citusdata.com, "Triggers on Distributed Tables"). Idempotent: a trigger already
 * there is skipped. Distributed tables (shards on the workers only) are not concerned: their
 * writers notify themselves ({@link notifyChanged} in changes.ts, decision 0046).
 */
async function placeChangeFeedOnCoordinator(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ name: string; tab: string; shard: string; def: string }>(
    `SELECT t.tgname AS name, c.relname AS tab, s.shardid::text AS shard, pg_get_triggerdef(t.oid) AS def
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_proc p ON p.oid = t.tgfoid
     JOIN pg_dist_shard s ON s.logicalrelid = c.oid
     JOIN pg_dist_placement pl ON pl.shardid = s.shardid AND pl.groupid = 0
     WHERE NOT t.tgisinternal AND n.nspname = 'public' AND p.proname = 'comptoir_notify_change'
       AND NOT EXISTS (SELECT 1 FROM pg_trigger st
                       WHERE st.tgrelid = to_regclass(format('public.%I', c.relname || '_' || s.shardid))
                         AND st.tgname = t.tgname || '_' || s.shardid)
     ORDER BY c.relname, t.tgname`,
  );
  for (const t of rows) {
    // pg_get_triggerdef: "CREATE TRIGGER <name> <timing> <events> ON public.<table> <rest>".
    const head = `CREATE TRIGGER ${t.name} `;
    const on = ` ON public.${t.tab} `;
    if (!t.def.startsWith(head) || !t.def.includes(on))
      throw new Error(`change feed trigger ${t.name} on ${t.tab}: unexpected definition ${t.def}`);
    const def = t.def
      .replace(head, `CREATE TRIGGER ${quoteIdent(`${t.name}_${t.shard}`)} `)
      .replace(on, ` ON public.${quoteIdent(`${t.tab}_${t.shard}`)} `);
    await db.query(def);
  }
}

/**
 * Drops and creates again every trigger of the change feed (function `comptoir_notify_change`)
 * on the tables of schema `public`, so Citus creates it on every shard: a table that Citus first
 * turned into a local table (a foreign key towards a table being made a reference table) and
 * then into a reference table keeps the trigger on its shell only, which DML never fires.
 */
async function recreateChangeFeedTriggers(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ name: string; tab: string; def: string }>(
    `SELECT t.tgname AS name, c.relname AS tab, pg_get_triggerdef(t.oid) AS def
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_proc p ON p.oid = t.tgfoid
     WHERE NOT t.tgisinternal AND n.nspname = 'public' AND p.proname = 'comptoir_notify_change'
       AND NOT EXISTS (SELECT 1 FROM pg_dist_shard s WHERE c.relname LIKE '%_' || s.shardid)`,
  );
  for (const t of rows) {
    await db.query(`DROP TRIGGER ${quoteIdent(t.name)} ON ${quoteIdent(t.tab)}`);
    await db.query(t.def);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
