/**
 * The app, the small chain of tests/server/fixtures.ts and an administrator (right CONFIGURATION,
 * every site), for the tests of companies, sites and groups; plus calls with the administrator's
 * session and a reader of the audit log.
 */
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

export const PASSWORD = 'Correct-Horse1';

/** One row of the audit log as the tests read it. */
export interface AuditRow {
  user_id: number | null;
  action: string;
  kind: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  address: string | null;
}

export type AdminSetup = Awaited<ReturnType<typeof adminSetup>>;

/** Builds the app on a fresh database with the chain and a signed-in administrator. */
export async function adminSetup() {
  const t: TestApp = await createTestApp();
  const chain: Chain = await seedChain(t.database.pool);
  const adminId = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: ['CONFIGURATION'],
    allSites: true,
  });
  const admin = await t.signIn('admin', PASSWORD);
  return {
    t,
    chain,
    adminId,
    admin,
    /** GET `url` (under /api) as the administrator, or with `headers`. */
    get: (url: string, headers: Record<string, string> = admin) =>
      t.app.inject({ method: 'GET', url: `/api/${url}`, headers }),
    /** POST `body` as JSON to `url` (under /api) as the administrator, or with `headers`. */
    post: (url: string, body: unknown, headers: Record<string, string> = admin) =>
      t.app.inject({ method: 'POST', url: `/api/${url}`, headers, payload: body as object }),
    /** The audit log's rows, oldest first; only those whose action starts with `prefix` when given. */
    async audit(prefix = ''): Promise<AuditRow[]> {
      const { rows } = await t.database.pool.query<AuditRow>(
        `SELECT user_id, action, kind, target_id, before, after, address FROM audit_log
          WHERE action LIKE $1 || '%' ORDER BY id`,
        [prefix],
      );
      return rows;
    },
  };
}
