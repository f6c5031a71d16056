/**
 * No HEAD on API routes that are not plain reads (issue #17 item 4): the GETs that check a
 * secret (contract/rights.ts SECRET_GETS) and those that write (WRITE_GETS) have no HEAD twin,
 * the server refuses to start with one, and a HEAD to them changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_GETS, WRITE_GETS } from '../../src/contract/rights.ts';
import { checkRouteRights } from '../../src/server/plugins/rights-guard.ts';
import { editionQueueStats } from '../../src/server/reports/editions.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';
import { loadChain } from '../reports/chain.ts';

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'Correct-Horse1';

describe('HEAD on GETs that are not plain reads', () => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp();
    userId = await t.createUser({ login: 'paul', password: PASSWORD, droits: ['COFFRE'], allSites: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const sessionCount = async () =>
    (await t.database.pool.query('SELECT count(*)::int AS n FROM sessions')).rows[0].n as number;

  it('registers every secret-checking GET without a HEAD route', () => {
    for (const key of [...SECRET_GETS, ...WRITE_GETS]) {
      const url = `/api/${key.slice('GET '.length)}`;
      if (!t.app.hasRoute({ method: 'GET', url })) continue; // a route of another branch
      expect(t.app.hasRoute({ method: 'HEAD', url }), key).toBe(false);
    }
    for (const key of SECRET_GETS) {
      expect(t.app.hasRoute({ method: 'GET', url: `/api/${key.slice('GET '.length)}` }), key).toBe(true);
    }
    // Plain reads keep theirs.
    expect(t.app.hasRoute({ method: 'HEAD', url: '/api/bo/getSites' })).toBe(true);
  });

  it('answers 404 to HEAD bo/connexion with the right password and opens no session', async () => {
    const before = await sessionCount();
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/api/bo/connexion?username=paul',
      headers: { ...XRW, authorization: basic('paul', PASSWORD) },
    });
    expect(res.statusCode).toBe(404);
    expect(await sessionCount()).toBe(before);
  });

  it('answers 404 to HEAD bo/logout and the token stays valid', async () => {
    const headers = await t.signIn('paul', PASSWORD);
    expect((await t.app.inject({ method: 'HEAD', url: '/api/bo/logout', headers })).statusCode).toBe(404);
    const res = await t.app.inject({ url: `/api/bo/getSites?id=${userId}`, headers });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 to HEAD bo/checkContreCode and counts nothing', async () => {
    const headers = await t.signIn('paul', PASSWORD);
    const res = await t.app.inject({
      method: 'HEAD',
      url: `/api/bo/checkContreCode?id=${userId}&code=paul&contreCode=1234`,
      headers,
    });
    expect(res.statusCode).toBe(404);
    const { rows } = await t.database.pool.query(
      `SELECT 1 FROM auth_throttle WHERE scope IN ('manager', 'session')`,
    );
    expect(rows).toHaveLength(0);
  });

  it('answers 404 to HEAD on the reset link calls', async () => {
    for (const url of ['/api/reinit/sendReinitMail?login=paul', '/api/reinit/reinitPassword?key=abc']) {
      expect((await t.app.inject({ method: 'HEAD', url, headers: XRW })).statusCode, url).toBe(404);
    }
  });
});

describe('HEAD on GETs that render a document (issue #32 C.6)', () => {
  let t: TestApp;
  let userId: number;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    await loadChain(t.database);
    userId = await t.createUser({ login: 'tete', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
    headers = await t.signIn('tete', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Editions recorded so far, queued or written. */
  const editions = async () => {
    await new Promise((r) => setTimeout(r, 100));
    const stats = editionQueueStats(t.database.pool);
    return stats.queued + stats.written + stats.failed + stats.waiting;
  };

  const report = (format: string) =>
    `/api/bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=${format}` +
    '&dateDebut=2026-11-02&dateFin=2026-11-02&sites[]=1';

  it('answers 405 Allow: GET to HEAD bo/getReport (PDF) and exports/download, renders nothing and records no edition', async () => {
    const get = await t.app.inject({ method: 'GET', url: report('PDF'), headers });
    expect(get.statusCode, get.body).toBe(200);
    const recorded = await editions();
    expect(recorded).toBeGreaterThan(0);
    const { rows } = await t.database.pool.query<{ id: string }>(
      'SELECT id::text FROM report_editions ORDER BY id DESC LIMIT 1',
    );
    const edition = rows[0]!.id;
    const heads = [
      report('PDF'),
      report('CSV'),
      `/api/bo/getReportSite?id=${userId}&rapportClassName=RapportVentes&format=PDF&dateDebut=2026-11-02&dateFin=2026-11-02&restaurantId=1`,
      `/api/exports/download?id=${userId}&edition=${edition}`,
      `/api/exports/download?id=${userId}&edition=${edition}&format=PDF`,
      `/api/bo/getResultsData?id=${userId}&format=PDF`,
    ];
    for (const url of heads) {
      const res = await t.app.inject({ method: 'HEAD', url, headers });
      expect(res.statusCode, url).toBe(405);
      expect(res.headers.allow, url).toBe('GET');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    expect(await editions()).toBe(recorded);
    // Plain reads keep their HEAD.
    const sites = await t.app.inject({ method: 'HEAD', url: `/api/bo/getSites?id=${userId}`, headers });
    expect(sites.statusCode).toBe(200);
  });
});

describe('the start-up rule', () => {
  const handler = () => {};

  it('refuses a secret-checking GET registered with a HEAD twin, or with HEAD itself', () => {
    for (const key of SECRET_GETS) {
      const url = `/api/${key.slice('GET '.length)}`;
      const config = { rights: key, ...(key.startsWith('GET reinit/') ? { write: true } : {}) };
      expect(() => checkRouteRights({ method: 'GET', url, config, handler }), key).toThrow(/head/i);
      expect(() => checkRouteRights({ method: ['GET', 'HEAD'], url, config, handler }), key).toThrow(/head/i);
      expect(() =>
        checkRouteRights({ method: 'GET', url, config, handler, exposeHeadRoute: false }),
      ).not.toThrow();
    }
  });

  it('lets a plain read keep its HEAD twin', () => {
    expect(() =>
      checkRouteRights({
        method: 'GET',
        url: '/api/bo/getSites',
        config: { rights: 'GET bo/getSites' },
        handler,
      }),
    ).not.toThrow();
  });
});
