/**
 * Benchmark of issue #30: backup and restore of the demo chain through Comptoir's path
 * (database/backup.ts, database/restore.ts) against `pg_dump -Fc` / `pg_restore` run by hand on
 * the same database in the same run, as ratios (≈ 1: no slower path of our own). Our backup also
 * reads every table's rows and checksum in the dump's snapshot and hashes the file; our restore
 * also checks the file's SHA-256, verifies every table against the manifest, migrates and renames.
 * That verification is timed apart (the table stats alone, and the file's SHA-256 alone). Several
 * runs, median and spread (min–max), each run's own ratio (ours over by hand, timed back to back)
 * and every run's times. Sizes: the dump's bytes.
 *
 * Run alone with `nice node_modules/.bin/node bench/database.ts` (own embedded PostgreSQL in a
 * temporary folder; the full demo chain `npm start` makes, ≈ 1.15 M lines, generated in ≈ 25 s,
 * or COMPTOIR_BENCH_DB_DAYS days of it; COMPTOIR_BENCH_DB_RUNS runs, default 3); `npm run bench`
 * calls {@link benchDatabase} with its demo pool (the same full chain). Numbers: decision 0039.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { backupDatabase, runTool, sha256Of } from '../src/server/database/backup.ts';
import { clientOn, ident, settingsOf, toolEnv } from '../src/server/database/connection.ts';
import { SwitchGate } from '../src/server/database/gate.ts';
import { tableStats } from '../src/server/database/manifest.ts';
import { dropPrevious, restoreDatabase } from '../src/server/database/restore.ts';
import { findPgTools } from '../src/server/database/tools.ts';
import { migrateDatabase } from '../src/server/db/connect.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { generateDemoChain } from '../src/server/demo/generate.ts';

/** Median and spread of `values` (ms). */
function summary(values: number[]): { median: number; min: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s.at(-1)! };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await work();
  return performance.now() - t;
}

/**
 * A `progress` callback for backupDatabase / restoreDatabase that times their steps: each step
 * lasts from its call to the next one's (the last to {@link StepTimer.end}), in ms.
 */
interface StepTimer {
  progress: (step: string) => void;
  end: () => Record<string, number>;
}
function stepTimer(): StepTimer {
  const times: Record<string, number> = {};
  let current: { step: string; at: number } | null = null;
  const close = () => {
    if (current) times[current.step] = (times[current.step] ?? 0) + performance.now() - current.at;
  };
  return {
    progress: (step) => {
      close();
      current = { step, at: performance.now() };
    },
    end: () => {
      close();
      current = null;
      return times;
    },
  };
}

async function admin(pool: pg.Pool, sql: string): Promise<void> {
  const c = clientOn(settingsOf(pool));
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * Runs the bench on the database of `demoPool` (read only: restores go to databases of their own).
 * @throws when pg_dump / pg_restore are missing, or a tool's error.
 */
export async function benchDatabase(
  demoPool: pg.Pool,
  runs = Number(process.env.COMPTOIR_BENCH_DB_RUNS ?? 3),
) {
  const tools = await findPgTools();
  if (!tools) throw new Error('pg_dump / pg_restore 15 missing: install postgresql-client-15');
  const settings = settingsOf(demoPool);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-db-'));
  const ours = { backup: [] as number[], restore: [] as number[] };
  const hand = { backup: [] as number[], restore: [] as number[] };
  const verify = { stats: [] as number[], sha256: [] as number[] };
  // Our restore's steps, as restoreDatabase reports them: check (manifest, size, SHA-256),
  // restore (pg_restore into a new database), verify (every table against the manifest), migrate
  // (and end sessions), switch (renames).
  const restoreSteps: Record<string, number[]> = {};
  let bytes = 0;
  const target = `${settings.database}_bench_target`;
  try {
    for (let i = 0; i < runs; i++) {
      const mine = `run${i}.backup`;
      ours.backup.push(await timed(() => backupDatabase(demoPool, { folder: dir, dest: mine, tools })));
      const byHand = path.join(dir, `hand${i}.dump`);
      hand.backup.push(
        await timed(() =>
          runTool(
            tools.pgDump,
            ['--format=custom', `--file=${byHand}`, '--no-password'],
            toolEnv(settings, settings.database),
          ),
        ),
      );
      bytes = (await fs.stat(byHand)).size;
      verify.stats.push(await timed(() => tableStats(demoPool)));
      verify.sha256.push(await timed(() => sha256Of(path.join(dir, mine))));

      // By hand: a new database, pg_restore into it.
      await admin(demoPool, `DROP DATABASE IF EXISTS ${ident(target)} WITH (FORCE)`);
      hand.restore.push(
        await timed(async () => {
          await admin(demoPool, `CREATE DATABASE ${ident(target)} TEMPLATE template0`);
          await runTool(
            tools.pgRestore,
            [
              '--exit-on-error',
              '--no-owner',
              '--no-privileges',
              '--no-password',
              `--dbname=${target}`,
              byHand,
            ],
            toolEnv(settings, target),
          );
        }),
      );
      // Ours: over that database (restore into a new one, verify, migrate, switch).
      const targetPool = new pg.Pool({
        ...demoPool.options,
        password: demoPool.options.password,
        database: target,
        max: 2,
      });
      targetPool.on('error', () => {});
      try {
        let previous = '';
        const steps = stepTimer();
        ours.restore.push(
          await timed(async () => {
            previous = (
              await restoreDatabase(targetPool, {
                folder: dir,
                src: mine,
                tools,
                gate: new SwitchGate(),
                progress: steps.progress,
              })
            ).previous;
          }),
        );
        for (const [step, ms] of Object.entries(steps.end())) {
          restoreSteps[step] = [...(restoreSteps[step] ?? []), ms];
        }
        await dropPrevious(targetPool, previous);
      } finally {
        await targetPool.end();
      }
      await admin(demoPool, `DROP DATABASE IF EXISTS ${ident(target)} WITH (FORCE)`);
      await fs.rm(path.join(dir, mine), { force: true });
      await fs.rm(path.join(dir, `${mine}.json`), { force: true });
      await fs.rm(byHand, { force: true });
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  // Each run's own ratio (ours and by hand timed back to back): on a shared machine the load
  // moves between runs, and a paired ratio follows it better than a ratio of medians.
  const paired = (a: number[], b: number[]) => summary(a.map((x, i) => x / b[i]!));
  // Our restore checks the file's SHA-256 then every table's rows and checksum after pg_restore,
  // one after the other: without them ('check' and 'verify', timed inside the restore) it costs
  // its time less those two steps (the backup reads its stats beside pg_dump, not after).
  const zeros = ours.restore.map(() => 0);
  const restoreBare = ours.restore.map(
    (x, i) => x - (restoreSteps.check ?? zeros)[i]! - (restoreSteps.verify ?? zeros)[i]!,
  );
  const result = {
    name: 'database backup and restore (issue #30)',
    runs,
    dumpBytes: bytes,
    backup: { ours: summary(ours.backup), byHand: summary(hand.backup) },
    restore: { ours: summary(ours.restore), byHand: summary(hand.restore) },
    backupRatio: summary(ours.backup).median / summary(hand.backup).median,
    restoreRatio: summary(ours.restore).median / summary(hand.restore).median,
    pairedBackupRatio: paired(ours.backup, hand.backup),
    pairedRestoreRatio: paired(ours.restore, hand.restore),
    pairedRestoreRatioWithoutVerification: paired(restoreBare, hand.restore),
    verification: { tableStats: summary(verify.stats), sha256: summary(verify.sha256) },
    restoreSteps: Object.fromEntries(Object.entries(restoreSteps).map(([k, v]) => [k, summary(v)])),
    pairedPgRestoreStepRatio: paired(restoreSteps.restore ?? zeros, hand.restore),
    perRunMs: { ours, byHand: hand, verify, restoreSteps },
  };
  const ms = (s: { median: number; min: number; max: number }) =>
    `${(s.median / 1000).toFixed(2)} s (${(s.min / 1000).toFixed(2)}–${(s.max / 1000).toFixed(2)})`;
  const ratio = (s: { median: number; min: number; max: number }) =>
    `×${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  console.log(`  dump ${(bytes / 1048576).toFixed(1)} MiB, ${runs} runs, median (min–max):`);
  console.log(
    `  backup: ours ${ms(result.backup.ours)} vs pg_dump ${ms(result.backup.byHand)} → ×${result.backupRatio.toFixed(2)}; per run ${ratio(result.pairedBackupRatio)}`,
  );
  console.log(
    `  restore: ours ${ms(result.restore.ours)} vs pg_restore ${ms(result.restore.byHand)} → ×${result.restoreRatio.toFixed(2)}; per run ${ratio(result.pairedRestoreRatio)}, less its check and verify steps ${ratio(result.pairedRestoreRatioWithoutVerification)}`,
  );
  console.log(
    `  verification apart: table stats ${ms(result.verification.tableStats)}, SHA-256 ${ms(result.verification.sha256)}`,
  );
  console.log(
    `  our restore's steps: ${Object.entries(result.restoreSteps)
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join(
        ', ',
      )}; its pg_restore step vs pg_restore by hand, per run ${ratio(result.pairedPgRestoreStepRatio)}`,
  );
  const seconds = (values: number[]) => values.map((v) => (v / 1000).toFixed(1)).join(' ');
  console.log(
    `  each run (s): backup ours ${seconds(ours.backup)} | pg_dump ${seconds(hand.backup)} | restore ours ${seconds(ours.restore)} | pg_restore ${seconds(hand.restore)} | stats ${seconds(verify.stats)}`,
  );
  return result;
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-db-pg-'));
  await fs.chmod(dir, 0o755); // the embedded server's own user must reach its data folder
  const server = await startEmbeddedPostgres(dir, () => {});
  try {
    const c = new pg.Client(server.connection);
    await c.connect();
    await c.query('CREATE DATABASE bench_db');
    await c.end();
    const pool = new pg.Pool({ ...server.connection, database: 'bench_db', max: 4 });
    pool.on('error', () => {});
    await migrateDatabase(pool);
    const days = process.env.COMPTOIR_BENCH_DB_DAYS ? Number(process.env.COMPTOIR_BENCH_DB_DAYS) : undefined;
    const t0 = performance.now();
    const demo = await generateDemoChain(pool, {
      seed: 20261122,
      now: new Date(),
      ...(days ? { days } : {}),
    });
    const generated = (performance.now() - t0) / 1000;
    // Settled as npm run bench's demo database is: autovacuum would otherwise take up the fresh
    // rows during the first runs.
    await pool.query('VACUUM (ANALYZE)');
    await pool.query('CHECKPOINT');
    console.log(
      `• database backup/restore on a demo chain of ${demo.sites} sites, ${demo.tickets} tickets, ${demo.lines} lines (generated in ${generated.toFixed(1)} s)`,
    );
    await benchDatabase(pool);
    await pool.end();
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
