import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/server/db/connect.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

// `npm start` keeps the embedded PostgreSQL of DATA_DIR running; `npm run import` on the same
// DATA_DIR must use that server (through its socket), neither fail nor stop it.
let dataDir: string;
let server: EmbeddedServer;
let pool: pg.Pool;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-run-'));
  await fs.chmod(dataDir, 0o755);
  server = await startEmbeddedPostgres(dataDir);
  const admin = new pg.Client(server.connection);
  await admin.connect();
  await admin.query('CREATE DATABASE comptoir');
  await admin.end();
  pool = new pg.Pool({ ...server.connection, database: 'comptoir', max: 2 });
  // An idle client told by the stopping server to go (57P01) must not be an uncaught error (seen
  // once under load at the end of a full run); pg's documentation asks pools to handle 'error'.
  pool.on('error', () => {});
  await migrateDatabase(pool);
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

it('imports into the PostgreSQL already running on DATA_DIR and leaves it running', async () => {
  const file = path.join(dataDir, 'sales.csv');
  await fs.writeFile(file, 'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,2,9.95\n');
  const mapping = path.join(dataDir, 'mapping.json');
  await fs.writeFile(
    mapping,
    JSON.stringify({
      dateFormat: 'yyyy-MM-dd HH:mm',
      vatRate: 0.2,
      columns: { ticket: 'Ticket', datetime: 'Date', article: 'Item', quantity: 'Qty', unitPrice: 'Price' },
    }),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const cli = path.resolve(import.meta.dirname, '../../src/server/cli/import.ts');
  const run = spawnSync(process.execPath, [cli, file, '--mapping', mapping, '--site', 'Soho'], {
    env,
    encoding: 'utf8',
  });
  expect(run.stderr).toContain('Using the PostgreSQL server already running');
  expect(run.status).toBe(0);
  // Our connection still works: the import did not stop the server.
  const { rows } = await pool.query('SELECT total_cents FROM tickets');
  expect(rows).toEqual([{ total_cents: 1990 }]);
});
