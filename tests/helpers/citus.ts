/**
 * Test databases on a Citus cluster (TEST_CITUS=1 with TEST_DATABASE_URL on the coordinator,
 * scripts/citus.sh, decision record 0042). Citus accepts only template1 as a CREATE DATABASE
 * template (a template's shards live on the workers), so each test file's database is built
 * anew: created on every node (citus.enable_create_database_propagation), the extension on every
 * node, the nodes registered in its metadata, then migrated and distributed (migrateDatabase).
 */
import pg from 'pg';
import { migrateDatabase } from '../../src/server/db/connect.ts';

/** Whether this run's test server is a Citus coordinator (TEST_CITUS=1). */
export const ON_CITUS = process.env.TEST_CITUS === '1';

/**
 * Creates database `name` on the cluster whose coordinator `admin` connects to (its maintenance
 * database, with the cluster's nodes registered), ready for Comptoir: migrated and distributed.
 * @param admin the coordinator's `postgres` database; its user and password open every node.
 * @param url `admin`'s connection string with the database replaced by `name`.
 */
export async function createCitusDatabase(admin: pg.PoolConfig, name: string, url: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  let nodes: { host: string; port: number; role: 'coordinator' | 'worker' }[];
  try {
    const { rows } = await client.query<{ nodename: string; nodeport: number; groupid: number }>(
      `SELECT nodename, nodeport, groupid FROM pg_dist_node WHERE isactive ORDER BY groupid`,
    );
    nodes = rows.map((r) => ({
      host: r.nodename,
      port: r.nodeport,
      role: r.groupid === 0 ? 'coordinator' : 'worker',
    }));
    await client.query('SET citus.enable_create_database_propagation = on');
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const coordinator = nodes.find((n) => n.role === 'coordinator');
  if (!coordinator)
    throw new Error('the Citus coordinator is not in pg_dist_node (citus_set_coordinator_host)');
  for (const node of nodes) {
    const u = new URL(url);
    u.hostname = node.host;
    u.port = String(node.port);
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    await c.query('CREATE EXTENSION IF NOT EXISTS citus');
    await c.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await pool.query('SELECT citus_set_coordinator_host($1, $2)', [coordinator.host, coordinator.port]);
    for (const node of nodes.filter((n) => n.role === 'worker'))
      await pool.query('SELECT citus_add_node($1, $2)', [node.host, node.port]);
    await migrateDatabase(pool);
  } finally {
    await pool.end();
  }
}

/**
 * Drops database `name` on every node (the DROP is propagated). A worker may still hold, for a
 * moment, the backends of the coordinator's connections that `WITH (FORCE)` just ended, and
 * refuses with "being accessed by other users" (55006): tried again for up to about 10 s. Such
 * a refused DROP may already have dropped the database on the other worker, so the next one
 * stops there on "does not exist" (3D000): what is left is then dropped node by node
 * ({@link dropOnEachNode}).
 * @throws the last error when the database still cannot be dropped.
 */
export async function dropCitusDatabase(admin: pg.PoolConfig, name: string): Promise<void> {
  const client = new pg.Client(admin);
  await client.connect();
  try {
    await client.query('SET citus.enable_create_database_propagation = on');
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        return;
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === '3D000' && attempt > 0) {
          await dropOnEachNode(client, admin, name);
          return;
        }
        if (code !== '55006' || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Drops database `name` where it is left, without propagation: on each worker of `client`'s
 * metadata (through `admin`'s user and password), then on the coordinator `client` is on.
 * A worker still holding the coordinator's closing connections (55006) is tried again for up to
 * about 10 s.
 */
async function dropOnEachNode(client: pg.Client, admin: pg.PoolConfig, name: string): Promise<void> {
  const { rows } = await client.query<{ nodename: string; nodeport: number }>(
    'SELECT nodename, nodeport FROM pg_dist_node WHERE isactive AND groupid <> 0',
  );
  for (const node of rows) {
    const u = new URL(String(admin.connectionString));
    u.hostname = node.nodename;
    u.port = String(node.nodeport);
    const worker = new pg.Client({ connectionString: u.toString() });
    await worker.connect();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await worker.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          break;
        } catch (e) {
          if ((e as { code?: string }).code !== '55006' || attempt >= 50) throw e;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    } finally {
      await worker.end();
    }
  }
  await client.query('SET citus.enable_create_database_propagation = off');
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
