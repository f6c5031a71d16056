/**
 * The real application on a fresh test database, logging as a production server does (pino at
 * the level and in the format asked) into a list of lines the test reads: the hardening tests
 * assert what reaches the log (no secret, no error line for a refused input).
 */
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { RIGHTS } from '../../../src/contract/rights.ts';
import { buildApp } from '../../../src/server/app.ts';
import { createUser as insertUser } from '../../../src/server/auth/users.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { profiles } from '../../../src/server/db/schema.ts';
import { basic } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';

export const PASSWORD = 'Correct-Horse1';

/** pino's number of the error level: a line at or above it is an error line. */
export const ERROR_LEVEL = 50;

export type LoggedApp = Awaited<ReturnType<typeof createLoggedApp>>;

/**
 * Builds the app logging at `level` in `format` into `lines` (one entry per written line; an
 * error's stack lines follow their line in the text format).
 */
export async function createLoggedApp(level: 'info' | 'debug' | 'trace', format: 'text' | 'json') {
  const database = await createTestDatabase();
  const lines: string[] = [];
  const config = loadConfig({
    COMPTOIR_DEMO: '0',
    LOG_LEVEL: level,
    LOG_FORMAT: format,
    COMPTOIR_LOGIN_RATE: '10000',
    DATA_DIR: '/tmp/comptoir-test-unused',
  });
  const app = await buildApp({
    config,
    database,
    logger: true,
    logTo: { write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) },
  });
  await app.ready();
  return {
    app,
    database,
    lines,
    /** Creates a user whose own profile holds `droits` (default every right) on every site. */
    async createUser(login: string, droits: readonly string[] = RIGHTS): Promise<number> {
      const [profile] = await database.db
        .insert(profiles)
        .values({ titre: `profile-${login}`, droits: [...droits], allSites: true, restaurantIds: [] })
        .returning({ id: profiles.id });
      return insertUser(database.db, { login, password: PASSWORD, profileId: profile!.id });
    },
    /** Signs `login` in; answers the headers of its authenticated calls. */
    async signIn(login: string): Promise<Record<string, string>> {
      const res = await app.inject({
        method: 'GET',
        url: `/api/bo/connexion?username=${encodeURIComponent(login)}`,
        headers: { authorization: basic(login, PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${login} refused: ${res.statusCode}`);
      const { token } = res.json<{ token: string }>();
      return { authorization: basic(login, token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    },
    /** The lines written at error level or above (JSON format only). */
    errorLines(): string[] {
      return lines.filter((l) => (JSON.parse(l) as { level: number }).level >= ERROR_LEVEL);
    },
    async close(): Promise<void> {
      await app.close();
      await database.close();
    },
  };
}
