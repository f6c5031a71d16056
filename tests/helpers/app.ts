/**
 * The real application on a fresh test database, for server integration tests through
 * `app.inject` (DESIGN.md §9). Each call gets its own database (cloned from the migrated
 * template), so test files never see each other's rows.
 */
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import type { Right } from '../../src/contract/rights.ts';
import { buildApp } from '../../src/server/app.ts';
import type { LogSink } from '../../src/server/logging.ts';
import { createUser as insertUser } from '../../src/server/auth/users.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { profiles } from '../../src/server/db/schema.ts';
import { createTestDatabase } from './db.ts';

/** A user to create: a profile of its own (`profile-<login>`) holding `droits` and the site scope. */
export interface TestUser {
  login: string;
  password: string;
  droits: readonly (Right | string)[];
  /** Profile sees every site. */
  allSites?: boolean;
  /** Profile's own sites. */
  restaurantIds?: number[];
  /** User's added / removed companies (SPEC.md §6). */
  societesPlus?: number[];
  societesMoins?: number[];
  language?: string | null;
  codeExploitant?: string | null;
}

/** Headers of an authenticated call: `Authorization: Basic base64(login:token)` and `X-Requested-With`. */
export type AuthHeaders = Record<string, string>;

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Builds the app on a fresh database. `config` overrides the defaults (demo off, silent logs,
 * a login rate high enough for any test); `directBatchItems: false` makes batches send every
 * item through the HTTP pipeline (app.ts BuildAppOptions).
 */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    clientDir?: string;
    directBatchItems?: boolean;
    /** Log into this sink (at `config.logLevel`) instead of not at all. */
    logTo?: LogSink;
  } = {},
) {
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({
      COMPTOIR_DEMO: '0',
      LOG_LEVEL: 'silent',
      COMPTOIR_LOGIN_RATE: '10000',
      DATA_DIR: '/tmp/comptoir-test-unused',
    }),
    ...options.config,
  };
  const app = await buildApp({
    config,
    database,
    ...(options.clientDir ? { clientDir: options.clientDir } : {}),
    ...(options.directBatchItems === undefined ? {} : { directBatchItems: options.directBatchItems }),
    ...(options.logTo ? { logger: true, logTo: options.logTo } : {}),
  });
  await app.ready();

  return {
    app,
    database,
    config,
    /** Creates a profile and a user; returns the user's id. */
    async createUser(user: TestUser): Promise<number> {
      const [profile] = await database.db
        .insert(profiles)
        .values({
          titre: `profile-${user.login}`,
          droits: [...user.droits],
          allSites: user.allSites ?? false,
          restaurantIds: user.restaurantIds ?? [],
        })
        .returning({ id: profiles.id });
      return insertUser(database.db, {
        login: user.login,
        password: user.password,
        profileId: profile!.id,
        societesPlus: user.societesPlus ?? [],
        societesMoins: user.societesMoins ?? [],
        language: user.language ?? null,
        codeExploitant: user.codeExploitant ?? null,
      });
    },
    /**
     * Signs in through `GET /api/bo/connexion`.
     * @throws Error with the answer when the sign-in is refused.
     */
    async signIn(login: string, password: string): Promise<AuthHeaders> {
      const res = await app.inject({
        method: 'GET',
        url: `/api/bo/connexion?username=${encodeURIComponent(login)}`,
        headers: { authorization: basic(login, password), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      });
      if (res.statusCode !== 200)
        throw new Error(`sign-in of ${login} refused: ${res.statusCode} ${res.body}`);
      const { token } = res.json<{ token: string }>();
      return { authorization: basic(login, token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    },
    async close(): Promise<void> {
      await app.close();
      await database.close();
    },
  };
}

/** `Basic base64(login:secret)`. */
export function basic(login: string, secret: string): string {
  return `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;
}
