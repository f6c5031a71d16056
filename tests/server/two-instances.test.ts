/**
 * Two server processes on one PostgreSQL (issue #17 "Proof that stays", docs/operations/instances.md):
 * nothing a client relies on may live in one process only. Both are real `node` processes started
 * the way `npm start` starts one (cli/start.ts's `startAndAnnounce`, then main.ts's
 * `stopOnSignals`), on a test database given as DATABASE_URL (so neither starts its embedded
 * PostgreSQL), demo off and a small fixture instead. Only the client build is left out (an empty
 * root: API only), as the build is not what is under test and would take a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/constants.ts';
import { createUser } from '../../src/server/auth/users.ts';
import * as schema from '../../src/server/db/schema.ts';
import { basic } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { type Chain, seedChain } from './fixtures.ts';

const NODE = path.resolve('node_modules', '.bin', 'node');
const ADMIN_PASSWORD = 'Admin-Horse-1!';
const PASSWORD = 'Correct-Horse1';
const BANNER = /Comptoir is running at (http:\/\/\S+\/)/;

/** cli/start.ts's `main()` with the client root given as the first argument. */
const STARTER = `
import { loadConfig } from ${JSON.stringify(pathToFileURL(path.resolve('src/server/config.ts')).href)};
import { startAndAnnounce } from ${JSON.stringify(pathToFileURL(path.resolve('src/server/cli/start.ts')).href)};
import { stopOnSignals } from ${JSON.stringify(pathToFileURL(path.resolve('src/server/main.ts')).href)};
const log = (m) => console.log(m);
const server = await startAndAnnounce(loadConfig(), { root: process.argv[1], log });
stopOnSignals(server, log);
`;

/** A running server process: its base URL, what it printed, how it ended. */
interface Instance {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts one server process on `databaseUrl` and resolves once its banner is printed. */
function startInstance(databaseUrl: string, root: string): Promise<Instance> {
  const child = spawn(NODE, ['--input-type=module', '-e', STARTER, root], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      COMPTOIR_DEMO: '0',
      COMPTOIR_ADMIN_PASSWORD: ADMIN_PASSWORD,
      COMPTOIR_LOGIN_RATE: '1000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'text',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (d: Buffer) => {
    text += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    text += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner after 30 s:\n${text}`)), 30_000);
    const check = () => {
      const m = BANNER.exec(text);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve({ child, url: m[1]!, output: () => text, exited });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before its banner:\n${text}`));
    });
  });
}

/** Stops `instance` with SIGTERM (as a process manager would) and answers its exit status. */
async function stop(instance: Instance | undefined): Promise<number | null> {
  if (!instance || instance.child.exitCode !== null) return instance?.child.exitCode ?? null;
  instance.child.kill('SIGTERM');
  return instance.exited;
}

describe('two server processes on one PostgreSQL', () => {
  let db: TestDatabase;
  let root: string;
  let a: Instance;
  let b: Instance;
  let chain: Chain;
  let managerId: number;

  const call = (
    on: Instance,
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) =>
    fetch(`${on.url}api/${url}`, {
      method: init.method ?? 'GET',
      headers: {
        [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const connect = (on: Instance, login: string, password: string) =>
    call(on, `bo/connexion?username=${login}`, { headers: { authorization: basic(login, password) } });
  /** Signs in through `on`; answers the headers of that session's calls. */
  const signIn = async (on: Instance, login: string, password: string) => {
    const res = await connect(on, login, password);
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    return { authorization: basic(login, token) };
  };
  const addUser = async (login: string, droits: string[]) => {
    const { rows } = await db.pool.query<{ id: number }>(
      `INSERT INTO profiles (titre, droits, all_sites, restaurant_ids) VALUES ($1, $2, true, '{}') RETURNING id`,
      [`profile-${login}`, droits],
    );
    return createUser(drizzle(db.pool, { schema }), { login, password: PASSWORD, profileId: rows[0]!.id });
  };
  const favourite = (libelle: string) => ({
    libelle,
    typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
    type: 'Daily',
    lSites: [chain.sites.paris, chain.sites.lyon],
    lCaisses: [],
    vendeur: [],
    periode: 'W-1',
    format: 'XLSX',
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-two-')); // no client: API only
    // One after the other: the first creates the administrator, the second finds it. The
    // fixture comes after (the administrator is only created on a database without users).
    a = await startInstance(db.url, root);
    b = await startInstance(db.url, root);
    chain = await seedChain(db.pool);
    managerId = await addUser('gerant', ['RAPPORTS']);
    await addUser('verrou', ['RAPPORTS']);
    await addUser('parti', ['RAPPORTS']);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
    await db?.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('listen on their own ports and share one database (the administrator created once)', async () => {
    expect(a.url).not.toBe(b.url);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM users WHERE login = 'admin'`);
    expect(rows[0].n).toBe(1);
    for (const on of [a, b]) expect((await call(on, 'version')).status).toBe(200);
  });

  it('the same Idempotency-Key sent to A then to B writes one row; B replays A’s answer', async () => {
    const session = await signIn(a, 'gerant', PASSWORD);
    const key = randomUUID();
    const send = (on: Instance) =>
      call(on, `bo/favoris/save?id=${managerId}`, {
        method: 'POST',
        headers: { ...session, 'idempotency-key': key },
        body: favourite('Une seule fois'),
      });
    const first = await send(a);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await send(b);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM favourites WHERE libelle = $1`, [
      'Une seule fois',
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('counts sign-in failures across both: five wrong passwords alternating A/B lock the account on both', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await connect(i % 2 === 0 ? a : b, 'verrou', `Wrong-Pass${i}!`);
      expect(res.status).toBe(401);
    }
    for (const on of [a, b]) {
      const res = await connect(on, 'verrou', PASSWORD);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('a favourite saved through A is listed by B’s next answer', async () => {
    const onA = await signIn(a, 'gerant', PASSWORD);
    const onB = await signIn(b, 'gerant', PASSWORD);
    const listed = async () =>
      (
        (await (await call(b, `bo/favoris?id=${managerId}`, { headers: onB })).json()) as {
          favoris: { libelle: string }[];
        }
      ).favoris.map((f) => f.libelle);
    expect(await listed()).not.toContain('Vu par B');
    const saved = await call(a, `bo/favoris/save?id=${managerId}`, {
      method: 'POST',
      headers: onA,
      body: favourite('Vu par B'),
    });
    expect(saved.status).toBe(200);
    expect(await listed()).toContain('Vu par B');
  });

  it('a user deactivated through A is refused by B, whose session cache had just served them', async () => {
    const admin = await signIn(a, 'admin', ADMIN_PASSWORD);
    const parti = await signIn(b, 'parti', PASSWORD);
    const { rows } = await db.pool.query<{ id: number }>(`SELECT id FROM users WHERE login = 'parti'`);
    const asParti = () => call(b, `bo/favoris?id=${rows[0]!.id}`, { headers: parti });
    // Twice through B: the second answer comes from B's session cache (decision record 0007).
    expect((await asParti()).status).toBe(200);
    expect((await asParti()).status).toBe(200);
    const off = await call(a, `bo/infra/saveUtilisateur?id=${rows[0]!.id}`, {
      method: 'POST',
      headers: admin,
      body: { active: false },
    });
    expect(off.status).toBe(200);
    // B learns it from the change feed (LISTEN/NOTIFY) milliseconds after A's commit, not after
    // the cache's 60 s: wait at most 2 s.
    await vi.waitFor(async () => expect((await asParti()).status).toBe(401), { timeout: 2000, interval: 20 });
    expect((await connect(b, 'parti', PASSWORD)).status).toBe(401);
  });

  it('after B answers a logout, a password change or a deactivation, A refuses the token at once, round after round (issue #32 C.3)', async () => {
    const admin = await signIn(b, 'admin', ADMIN_PASSWORD);
    const late: string[] = [];
    for (let round = 0; round < 8; round++) {
      for (const how of ['logout', 'password', 'deactivation'] as const) {
        const login = `revoque-${how}-${round}`;
        const id = await addUser(login, ['RAPPORTS']);
        const onA = await signIn(a, login, PASSWORD);
        const asUser = () => call(a, `bo/favoris?id=${id}`, { headers: onA });
        // Twice through A: the second answer comes from A's session cache.
        expect((await asUser()).status).toBe(200);
        expect((await asUser()).status).toBe(200);
        const token = Buffer.from(onA.authorization.slice('Basic '.length), 'base64')
          .toString()
          .split(':')[1]!;
        const revoked =
          how === 'logout'
            ? await call(b, 'bo/logout', { headers: { authorization: basic(login, token) } })
            : await call(b, `bo/infra/saveUtilisateur?id=${id}`, {
                method: 'POST',
                headers: admin,
                body:
                  how === 'password'
                    ? { updatePassword: true, password: 'Autre-Mot-2026!', rePasswordKey: 'Autre-Mot-2026!' }
                    : { active: false },
              });
        expect(revoked.status, how).toBeLessThan(300);
        // No wait: the very next call through A is refused.
        const after = await asUser();
        if (after.status !== 401) late.push(`${how} round ${round}: ${after.status}`);
      }
    }
    expect(late).toEqual([]);
  }, 120_000);

  it('stops on SIGTERM with exit status 0, the other instance still answering', async () => {
    const status = await stop(b);
    expect(status).toBe(0);
    expect(b.output()).toMatch(/SIGTERM: stopping/);
    expect((await call(a, 'version')).status).toBe(200);
  });
});
