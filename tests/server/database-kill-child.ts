/**
 * Child process of database-kill.test.ts: one server's database operations runner that starts a
 * backup or a restore and tells the parent when the long step begins (`dump` / `restore`), where
 * the parent kills it with SIGKILL. Arguments: the pg connection (JSON), the backup folder, the
 * mode (`backup` | `restore`), the backup path.
 */
import pg from 'pg';
import { backupDatabase } from '../../src/server/database/backup.ts';
import { SwitchGate } from '../../src/server/database/gate.ts';
import { DatabaseOperations } from '../../src/server/database/operations.ts';
import { restoreDatabase } from '../../src/server/database/restore.ts';
import { findPgTools } from '../../src/server/database/tools.ts';

const [connection, folder, mode, file] = process.argv.slice(2);
const pool = new pg.Pool({ ...JSON.parse(connection!), max: 4 });
pool.on('error', () => {});
const tools = (await findPgTools())!;
const operations = new DatabaseOperations(pool, { error() {} });
const told = (step: string) => {
  if (step === 'dump' || step === 'restore') process.send?.(step);
};
await operations.start(
  pool,
  null,
  mode === 'backup' ? 'database.backup' : 'database.restore',
  { path: file },
  async () => {
    if (mode === 'backup')
      await backupDatabase(pool, { folder: folder!, dest: file!, tools, progress: told });
    else
      await restoreDatabase(pool, {
        folder: folder!,
        src: file!,
        tools,
        gate: new SwitchGate(),
        progress: told,
      });
    return {};
  },
);
await operations.idle();
process.send?.('ended');
