/**
 * Offline copies of reports and dashboards (issue #3 point 6) as the service worker makes them
 * (lib/outbox/offline-copy-store.ts): allow-list only, network first against a real loopback server, last
 * answers kept in IndexedDB (fake-indexeddb) within bounds, served with their date when the
 * network fails.
 */
import 'fake-indexeddb/auto';
import { basicAuthLogin } from '../../src/contract/basic-auth.ts';
import { isCacheableRead } from '../../src/contract/offline-reads.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ComptoirDb, openDb } from '../../src/client/lib/outbox/local-database.ts';
import { OFFLINE_COPY_HEADER } from '../../src/client/lib/outbox/offline-copy-protocol.ts';
import {
  type CopyEvent,
  copyKey,
  networkFirst,
  storeCopy,
} from '../../src/client/lib/outbox/offline-copy-store.ts';
import { json, startTestApi, type TestApi } from './api-server.ts';

let api: TestApi;
let db: ComptoirDb;
let n = 0;
let down = false;
let sales = 100;

function basic(login: string) {
  return `Basic ${Buffer.from(`${login}:tok`).toString('base64')}`;
}

beforeAll(async () => {
  api = await startTestApi();
  api.on('bo/home/ventes', (_req, res) => {
    if (down) {
      res.socket?.destroy();
      return;
    }
    json(res, 200, { data: [{ dateFiscale: '2026-11-22', caCents: sales }] });
  });
  api.on('bo/getReport', (_req, res) => json(res, 200, { columns: [], rows: [], totals: {} }));
  api.on('bo/getSites', (_req, res) => json(res, 503, { code: 'Network Error' }));
  api.on('bo/rapport/metrics', (_req, res) => json(res, 500, { code: 'InternalError' }));
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  db = openDb(`copies-test-${++n}`);
  down = false;
  sales = 100;
});

function get(path: string, query: string, login = 'gérant') {
  return new Request(`${api.base}${path}?${query}`, { headers: { Authorization: basic(login) } });
}

describe('offline copies', () => {
  it('keeps only allow-listed read-only GETs, never the GETs that change data', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(isCacheableRead('bo/home/ventes', q('id=1'))).toBe(true);
    expect(isCacheableRead('bo/getReport', q('format=JSON&id=1'))).toBe(true);
    expect(isCacheableRead('bo/rapport/metrics', q('id=1'))).toBe(true);
    expect(isCacheableRead('bo/getSites', q('id=1'))).toBe(true);
    expect(isCacheableRead('coffre', q('dateFiscale=2026-11-22'))).toBe(true);
    expect(isCacheableRead('bo/favoris', q('id=1'))).toBe(true);
    expect(isCacheableRead('bo/tickets/search', q('id=1'))).toBe(true);
    expect(isCacheableRead('bo/tickets/detail', q('id=1&site=1&ticketId=2'))).toBe(true);
    expect(isCacheableRead('bo/getReportSite', q('format=JSON&restaurantId=1'))).toBe(true);
    expect(isCacheableRead('exports/status', q('dateFiscale=2026-11-22'))).toBe(true);
    expect(isCacheableRead('exports/list', q('id=1'))).toBe(true);
    expect(isCacheableRead('bo/getResultsChoices', q('id=1&RapportGeneralClassName=RapportVentes'))).toBe(
      true,
    );
    // Issue #19: the calendar, the forecast, the key figures, the tracker, the anomalies and the
    // BI explorer's table.
    for (const path of [
      'withCredentials/collab/configurationEvenements',
      'withCredentials/collab/previsions',
      'bo/bi/totalKPI',
      'bo/bi/tracker',
      'bo/bi/anomalies',
    ])
      expect(isCacheableRead(path, q('id=1')), path).toBe(true);
    expect(isCacheableRead('bo/bi/explore', q('id=1&measure=NET'))).toBe(true);
    expect(isCacheableRead('bo/bi/explore', q('id=1&format=XLSX'))).toBe(false);
    // Downloads and receipts are not kept.
    expect(isCacheableRead('bo/getReportSite', q('format=CSV&restaurantId=1'))).toBe(false);
    expect(isCacheableRead('exports/download', q('edition=4'))).toBe(false);
    expect(isCacheableRead('bo/getAllReportsSpecBK', q('id=1&site=1'))).toBe(false);
    expect(isCacheableRead('bo/getReport', q('format=PDF'))).toBe(false);
    expect(isCacheableRead('coffre', q('ACTION=getRecu&pdf=true&id=3'))).toBe(false);
    // GETs of the contract that change data (DESIGN.md §4).
    for (const path of [
      'bo/infra/removeSociete',
      'bo/infra/removeUtilisateur',
      'bo/updateRule',
      'bo/emptyDataBase',
      'bo/emptyPartialDataBase',
      'bo/backupDataBase',
      'bo/restoreDataBase',
      'bo/miseEnRoute',
      'bo/home/envoieMail',
      'bo/home/envoieMailManquant',
      'bo/checkContreCode',
      'bo/logout',
      'bo/connexion',
      'bo/favoris/remove',
    ]) {
      expect(isCacheableRead(path, q('id=1')), path).toBe(false);
    }
  });

  it('keys copies by login and query, ignoring the cache-busting timestamp', () => {
    expect(basicAuthLogin(basic('gérant'))).toBe('gérant');
    const a = copyKey('x', 'bo/home/ventes', new URLSearchParams('sites=1,2&_=111&id=3'));
    const b = copyKey('x', 'bo/home/ventes', new URLSearchParams('id=3&_=222&sites=1,2'));
    expect(a).toBe(b);
    expect(copyKey('y', 'bo/home/ventes', new URLSearchParams('id=3&sites=1,2'))).not.toBe(a);
  });

  it('answers from the network while it works, and offline from the last answer marked with its date', async () => {
    const events: CopyEvent[] = [];
    const onEvent = (e: CopyEvent) => events.push(e);
    const fresh = await networkFirst(get('bo/home/ventes', 'id=1&_=1'), {
      db,
      path: 'bo/home/ventes',
      now: () => Date.parse('2026-11-22T14:32:00Z'),
      onEvent,
    });
    expect(fresh.headers.get(OFFLINE_COPY_HEADER)).toBeNull();
    expect(await fresh.json()).toEqual({ data: [{ dateFiscale: '2026-11-22', caCents: 100 }] });

    down = true;
    const copy = await networkFirst(get('bo/home/ventes', 'id=1&_=2'), {
      db,
      path: 'bo/home/ventes',
      onEvent,
    });
    expect(copy.status).toBe(200);
    expect(copy.headers.get(OFFLINE_COPY_HEADER)).toBe('2026-11-22T14:32:00.000Z');
    expect(await copy.json()).toEqual({ data: [{ dateFiscale: '2026-11-22', caCents: 100 }] });
    expect(events.map((e) => e.type)).toEqual(['fresh', 'copy']);

    // Another user on the same device gets no copy of the first one's figures.
    await expect(
      networkFirst(get('bo/home/ventes', 'id=1', 'autre'), { db, path: 'bo/home/ventes' }),
    ).rejects.toThrow();

    // Back online: fresh figures replace the copy.
    down = false;
    sales = 250;
    await networkFirst(get('bo/home/ventes', 'id=1'), { db, path: 'bo/home/ventes' });
    down = true;
    const newer = await networkFirst(get('bo/home/ventes', 'id=1'), { db, path: 'bo/home/ventes' });
    expect(await newer.json()).toEqual({ data: [{ dateFiscale: '2026-11-22', caCents: 250 }] });
  });

  it('answers from the copy when a gateway says the server is unreachable, but passes a 500 through', async () => {
    await storeCopy(db, {
      key: copyKey('gérant', 'bo/getSites', new URLSearchParams('id=1')),
      storedAt: Date.parse('2026-11-21T08:00:00Z'),
      status: 200,
      contentType: 'application/json',
      body: new TextEncoder().encode('[{"restaurantId":1}]').buffer,
      bytes: 20,
      login: 'gérant',
    });
    const sites = await networkFirst(get('bo/getSites', 'id=1'), { db, path: 'bo/getSites' });
    expect(sites.headers.get(OFFLINE_COPY_HEADER)).toBe('2026-11-21T08:00:00.000Z');
    expect(await sites.json()).toEqual([{ restaurantId: 1 }]);

    const metrics = await networkFirst(get('bo/rapport/metrics', 'id=1'), { db, path: 'bo/rapport/metrics' });
    expect(metrics.status).toBe(500);
    expect(await db.offlineCopies.count()).toBe(1);
  });

  it('keeps at most the bounded number of copies and bytes, dropping the oldest first', async () => {
    const bounds = { maxCopies: 3, maxBytes: 100, maxOneBytes: 60 };
    const put = (key: string, storedAt: number, bytes: number) =>
      storeCopy(
        db,
        {
          key,
          storedAt,
          status: 200,
          contentType: 'application/json',
          body: new ArrayBuffer(bytes),
          bytes,
          login: 'x',
        },
        bounds,
      );
    await put('a', 1, 10);
    await put('b', 2, 10);
    await put('c', 3, 10);
    await put('d', 4, 10);
    expect((await db.offlineCopies.toArray()).map((c) => c.key).sort()).toEqual(['b', 'c', 'd']);
    await put('e', 5, 50);
    await put('f', 6, 40);
    expect((await db.offlineCopies.toArray()).map((c) => c.key).sort()).toEqual(['d', 'e', 'f']);
    await put('g', 7, 20);
    // 100 bytes at most: the oldest go until it fits (d, then e).
    expect((await db.offlineCopies.toArray()).map((c) => c.key).sort()).toEqual(['f', 'g']);
    // One answer over the single-copy bound is not kept at all.
    await put('huge', 7, 61);
    expect(await db.offlineCopies.get('huge')).toBeUndefined();
  });
});
