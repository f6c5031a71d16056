import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordProblems } from '../../src/contract/password.ts';
import {
  clientBuildReason,
  ensureClient,
  startAndAnnounce,
  startBanner,
} from '../../src/server/cli/start.ts';
import { loadConfig } from '../../src/server/config.ts';
import { publicUrl, startServer } from '../../src/server/main.ts';
import { createTestDatabase } from '../helpers/db.ts';

const NODE = path.resolve('node_modules', '.bin', 'node');

describe('starting the server', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  const config = (extra: Record<string, string> = {}) =>
    loadConfig({ DATABASE_URL: db.url, PORT: '0', COMPTOIR_DEMO: '0', LOG_LEVEL: 'silent', ...extra });

  it('creates the administrator with a printed password at first start only, and listens', async () => {
    const first = await startServer(config());
    try {
      expect(first.administrator.created).toBe(true);
      expect(passwordProblems(first.administrator.generatedPassword!)).toEqual([]);
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(`${first.url}api/version`);
      expect(await res.json()).toEqual({ version: '1.3.0' });
    } finally {
      await first.close();
    }
    const second = await startServer(config());
    try {
      expect(second.administrator).toEqual({ created: false, login: 'admin' });
    } finally {
      await second.close();
    }
  });

  it('does not create the demo chain when the database already holds sales', async () => {
    await db.pool.query(`INSERT INTO companies (raison_sociale) VALUES ('Imported')`);
    await db.pool.query(
      `INSERT INTO sites (libelle, company_id) SELECT 'Shop', id FROM companies WHERE raison_sociale = 'Imported'`,
    );
    await db.pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, total_cents, total_excl_cents, tax_cents, source, source_ref)
       SELECT id, 1, '2026-01-02', now(), 100, 83, 17, 'test', '1' FROM sites WHERE libelle = 'Shop'`,
    );
    const server = await startServer(config({ COMPTOIR_DEMO: '1' }));
    try {
      expect(server.demo).toBeUndefined();
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM sites');
      expect(rows[0].n).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('closes the database when listening fails, and says why', async () => {
    const blocker = await startServer(config());
    try {
      const port = new URL(blocker.url).port;
      await expect(startServer(config({ PORT: port }))).rejects.toThrow(/EADDRINUSE|address already in use/);
    } finally {
      await blocker.close();
    }
  });

  it('prints wildcard addresses as localhost', () => {
    expect(publicUrl('0.0.0.0', 8080)).toBe('http://localhost:8080/');
    expect(publicUrl('::1', 80)).toBe('http://[::1]:80/');
  });
});

describe('what a person sees at the terminal', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-banner-')); // no client: API only
  });
  afterAll(async () => {
    await db.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('ends start-up with the banner after the demo chain, then writes at most one short line per request', async () => {
    // Progress lines and log lines into one list, in the order a terminal would show them.
    const terminal: string[] = [];
    const config = {
      ...loadConfig({ DATABASE_URL: db.url, PORT: '0', COMPTOIR_DEMO: '1', LOG_LEVEL: 'info' }, true),
      demoDays: 3,
    };
    expect(config.logFormat).toBe('text');
    const server = await startAndAnnounce(config, {
      root,
      log: (m) => terminal.push(m),
      logTo: { write: (text: string) => terminal.push(...text.split('\n').filter(Boolean)) },
    });
    try {
      const banner = terminal.indexOf(`Comptoir is running at ${server.url}`);
      const lastDemo = terminal.findLastIndex((l) => l.startsWith('Demo chain'));
      expect(lastDemo).toBeGreaterThan(0);
      expect(banner).toBeGreaterThan(lastDemo);
      const password = server.administrator.generatedPassword!;
      const demoUsers = server.demo!.users;
      expect(demoUsers.map((u) => u.login)).toEqual([
        'gerant.bellecour',
        'responsable.brasseries',
        'gerante.ferrand',
        'comptable',
      ]);
      expect(terminal.slice(banner)).toEqual([
        `Comptoir is running at ${server.url}`,
        `  API documentation: ${server.url}api/docs`,
        '  Administrator login: admin',
        `  Administrator password: ${password}`,
        expect.stringContaining('shown only this once'),
        expect.stringMatching(/^ {2}Demo users .*shown only this once/),
        ...demoUsers.map((u) => `    ${u.login} / ${u.password}: ${u.description}`),
        // No SMTP_URL: where the mails go (issue #28).
        `  Mail: no SMTP_URL, so mails are written to ${path.join(config.dataDir, 'mail-outbox')} (administrators read them at ${server.url}config/mails)`,
        'Stop with Ctrl+C.',
      ]);
      // Printed in the banner only: no progress or log line carries a password.
      for (const secret of [password, ...demoUsers.map((u) => u.password)]) {
        expect(terminal.slice(0, banner).join('\n')).not.toContain(secret);
        expect(terminal.filter((l) => l.includes(secret))).toHaveLength(1);
      }

      const before = terminal.length;
      expect((await fetch(`${server.url}api/version`)).status).toBe(200);
      // The line is written once the answer has been sent: wait for it, and a little for any other.
      await vi.waitFor(() => expect(terminal.length).toBeGreaterThan(before));
      await new Promise((r) => setTimeout(r, 100));
      expect(terminal.slice(before)).toEqual([
        expect.stringMatching(/^\d\d:\d\d:\d\d GET \/api\/version 200 \d+ ms$/),
      ]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('npm start', () => {
  it('stops with exit status 1 and a message naming a bad setting', () => {
    const run = spawnSync(NODE, ['src/server/cli/start.ts'], {
      env: { ...process.env, PORT: 'eighty', DATA_DIR: '/tmp/unused-comptoir' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/PORT/);
    expect(run.stdout).not.toMatch(/Building/);
  });
});

describe('client build check', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-root-'));
    await fs.mkdir(path.join(root, 'src', 'client', 'features'), { recursive: true });
    await fs.writeFile(path.join(root, 'src', 'client', 'features', 'a.ts'), 'export {};');
    await fs.writeFile(path.join(root, 'index.html'), '<html></html>');
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('builds when dist/index.html is missing or older than a client source, not otherwise', async () => {
    expect(clientBuildReason(root)).toMatch(/missing/);
    await fs.mkdir(path.join(root, 'dist'));
    await fs.writeFile(path.join(root, 'dist', 'index.html'), '<html></html>');
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(root, 'dist', 'index.html'), later, later);
    expect(clientBuildReason(root)).toBeNull();
    const evenLater = new Date(Date.now() + 120_000);
    await fs.utimes(path.join(root, 'src', 'client', 'features', 'a.ts'), evenLater, evenLater);
    expect(clientBuildReason(root)).toMatch(/src\/client/);
  });
});

describe('client to serve', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-deploy-'));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('serves the API only, saying so, when there is neither a client source nor a build', async () => {
    const lines: string[] = [];
    expect(await ensureClient(root, (m) => lines.push(m))).toBeUndefined();
    expect(lines.join('\n')).toMatch(/API only/);
  });

  it('serves a shipped dist/ as it is when the sources are absent', async () => {
    await fs.mkdir(path.join(root, 'dist'));
    await fs.writeFile(path.join(root, 'dist', 'index.html'), '<html></html>');
    const lines: string[] = [];
    expect(await ensureClient(root, (m) => lines.push(m))).toBe(path.join(root, 'dist'));
    expect(lines).toEqual([]);
  });
});

describe('the banner of a later start (issue #32 D.1)', () => {
  const url = 'http://localhost:8080/';
  it('says how to set a new administrator password whenever the generated one is not shown', () => {
    const later = startBanner({ url, administrator: { created: false, login: 'admin' } });
    expect(later).toContain(
      '  Lost the administrator password? Set a new one: npm run admin -- reset-password admin',
    );
    const fromSetting = startBanner({ url, administrator: { created: true, login: 'chef' } });
    expect(fromSetting).toContain('  Administrator password: the one in COMPTOIR_ADMIN_PASSWORD');
    expect(fromSetting.join('\n')).toContain('npm run admin -- reset-password chef');
    const first = startBanner({
      url,
      administrator: { created: true, login: 'admin', generatedPassword: 'Xy-generated-1234' },
    });
    expect(first.join('\n')).not.toContain('reset-password');
  });
});

describe('the client build at start (issue #32 D.1)', () => {
  let root: string;
  /** A client source tree whose `vite build` prints `lines` lines and exits with `code`. */
  async function fakeVite(lines: number, code: number) {
    await fs.mkdir(path.join(root, 'node_modules', 'vite', 'bin'), { recursive: true });
    await fs.writeFile(
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      `for (let i = 0; i < ${lines}; i++) console.log('dist/assets/chunk-' + i + '.js  1.00 kB');\n` +
        "console.warn('inlineDynamicImports option is deprecated');\n" +
        `process.exit(${code});\n`,
    );
  }
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-build-'));
    await fs.mkdir(path.join(root, 'src', 'client'), { recursive: true });
    await fs.writeFile(path.join(root, 'index.html'), '<html></html>');
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it("shows a short build line, not the chunk listing nor the plugins' notices", async () => {
    await fakeVite(540, 0);
    const lines: string[] = [];
    const shown: string[] = [];
    expect(
      await ensureClient(
        root,
        (m) => lines.push(m),
        (o) => shown.push(o),
      ),
    ).toBe(path.join(root, 'dist'));
    expect(lines).toEqual([
      expect.stringMatching(/^Building the client \(.*\)…$/),
      expect.stringMatching(/^Client built in \d+\.\d s\.$/),
    ]);
    expect(shown).toEqual([]);
  });

  it("shows the build's output when it fails", async () => {
    await fakeVite(3, 1);
    const shown: string[] = [];
    await expect(
      ensureClient(
        root,
        () => {},
        (o) => shown.push(o),
      ),
    ).rejects.toThrow(/vite build failed/);
    expect(shown.join('')).toContain('chunk-2.js');
    expect(shown.join('')).toContain('inlineDynamicImports');
  });
});
