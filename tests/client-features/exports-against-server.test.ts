/**
 * The exports screen's client calls against the real API server (Fastify app on a fresh
 * PostgreSQL database, on a loopback port): a report downloaded by the client shows in the list,
 * downloads again with its name, the state of its day says REPORTED, the day's ZIP arrives, and a
 * refused call is told with the code of SPEC.md §8.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type ClientCore, connectClient, disconnectClient } from './against-server.ts';
import { loadChain } from '../reports/chain.ts';

let t: TestApp;

type Modules = ClientCore & {
  exports: typeof import('../../src/client/features/exports/export-queries.ts');
  reports: typeof import('../../src/contract/reports.ts');
};
let m: Modules;

beforeAll(async () => {
  t = await createTestApp();
  await loadChain(t.database);
  await t.createUser({
    login: 'gerant',
    password: 'Comptoir-2026!',
    droits: ['RAPPORTS'],
    restaurantIds: [1, 2],
  });
  m = {
    ...(await connectClient(t)),
    exports: await import('../../src/client/features/exports/export-queries.ts'),
    reports: await import('../../src/contract/reports.ts'),
  };
  await m.session.signIn('gerant', 'Comptoir-2026!');
});

afterAll(() => disconnectClient(t));

describe('exports through the client calls', () => {
  it('my last report: NoReportInState before any, then the last one again as a PDF', async () => {
    const userId = m.session.session.user!.id;
    await expect(m.exports.downloadLastReport(userId, 'fr', () => {})).rejects.toMatchObject({
      code: 'NoReportInState',
      status: 409,
    });
  });

  it('a report downloaded by the client is listed, downloads again, and marks its day REPORTED', async () => {
    const userId = m.session.session.user!.id;
    const before = await m.queryClient.fetchQuery(m.exports.exportQueries.status(userId, '2026-11-03'));
    expect(before.sites.map((s) => [s.libelle, s.state])).toEqual([
      ['Lyon Part-Dieu', 'RECEIVED'],
      ['Paris Opéra', 'RECEIVED'],
    ]);

    const first = await m.http.download(
      'bo/getReport',
      {
        id: userId,
        rapportClassName: 'RapportVentes',
        format: 'XLSX',
        language: 'de',
        dateDebut: '2026-11-03',
        dateFin: '2026-11-03',
        'sites[]': 1,
      },
      () => {},
    );
    expect(first.filename).toBe('umsatz_2026-11-03_2026-11-03.xlsx');

    const list = await m.queryClient.fetchQuery(m.exports.exportQueries.list(userId, 'en', 1));
    expect(list.editions).toHaveLength(1);
    expect(list.editions[0]).toMatchObject({
      localisedTitle: 'Sales',
      format: 'XLSX',
      bytes: first.blob.size,
      login: 'gerant',
    });

    const progress: Array<number | null> = [];
    const again = await m.exports.downloadEdition(userId, list.editions[0]!, (p) => progress.push(p));
    expect(again.filename).toBe('umsatz_2026-11-03_2026-11-03.xlsx');
    expect(again.blob.size).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);

    const after = await m.queryClient.fetchQuery({
      ...m.exports.exportQueries.status(userId, '2026-11-03'),
      staleTime: 0,
    });
    expect(after.sites.find((s) => s.restaurantId === 1)).toMatchObject({ state: 'REPORTED', reports: 2 });
    expect(after.sites.find((s) => s.restaurantId === 2)).toMatchObject({ state: 'RECEIVED', reports: 0 });

    const last = await m.exports.downloadLastReport(userId, 'en', () => {});
    expect(last.filename).toBe('sales_2026-11-03_2026-11-03.pdf');
    const head = new Uint8Array(await last.blob.slice(0, 5).arrayBuffer());
    expect(new TextDecoder().decode(head)).toBe('%PDF-');
  });

  it("lists others' reports of the user's sites too, unless only the user's own are asked for", async () => {
    const userId = m.session.session.user!.id;
    await t.createUser({ login: 'autre', password: 'Comptoir-2026!', droits: ['RAPPORTS'], allSites: true });
    const autre = await t.signIn('autre', 'Comptoir-2026!');
    const autreId = (
      await t.database.pool.query<{ id: number }>("SELECT id FROM users WHERE login = 'autre'")
    ).rows[0]!.id;
    const res = await t.app.inject({
      url: `/api/bo/getReport?id=${autreId}&rapportClassName=RapportVentes&format=CSV&dateDebut=2026-11-05&dateFin=2026-11-05&sites[]=2`,
      headers: autre,
    });
    expect(res.statusCode).toBe(200);
    const all = await m.queryClient.fetchQuery(m.exports.exportQueries.list(userId, 'fr', 1));
    expect(all.editions.map((e) => e.login)).toContain('autre');
    const mine = await m.queryClient.fetchQuery(m.exports.exportQueries.list(userId, 'fr', 1, true));
    expect(mine.editions.length).toBeGreaterThan(0);
    expect(mine.editions.every((e) => e.login === 'gerant')).toBe(true);
  });

  it("the day's ZIP of a site arrives with its name", async () => {
    const userId = m.session.session.user!.id;
    const zip = await m.exports.downloadDayArchive(userId, 2, '2026-11-04', 'fr', () => {});
    expect(zip.filename).toBe('rapports_2_2026-11-04_2026-11-04.zip');
    const head = new Uint8Array(await zip.blob.slice(0, 4).arrayBuffer());
    expect([...head]).toEqual([0x50, 0x4b, 0x03, 0x04]); // PK\3\4
  });

  it('a refused call fails with the code of SPEC.md §8', async () => {
    const userId = m.session.session.user!.id;
    await expect(m.exports.downloadDayArchive(userId, 3, '2026-11-04', 'fr', () => {})).rejects.toMatchObject(
      {
        code: 'Forbidden',
      },
    );
    await expect(
      m.queryClient.fetchQuery(m.exports.exportQueries.status(userId, '2026-02-30')),
    ).rejects.toMatchObject({ code: 'BadRequest' });
  });
  it('lists files, not the reports shown on screen, however many views came after the last file (issue #32 D.10)', async () => {
    const userId = m.session.session.user!.id;
    const before = await m.exports.listFiles(userId, 'en', 50, true);
    const query = {
      id: userId,
      rapportClassName: 'RapportVentes',
      dateDebut: '2026-11-03',
      dateFin: '2026-11-03',
      'sites[]': 2,
    };
    await m.http.download('bo/getReport', { ...query, format: 'CSV' }, () => {});
    // Three on-screen views after the file, as /graphs makes on each visit.
    for (let i = 0; i < 3; i++)
      await m.http.getJson('bo/getReport', m.reports.DatasetAnswerSchema, { ...query, format: 'JSON' });
    const all = await m.queryClient.fetchQuery(m.exports.exportQueries.list(userId, 'en', 1, true));
    expect(all.editions.map((e) => e.format)).not.toContain('JSON');
    expect(all.editions).toHaveLength(before.editions.length + 1);
    expect(all.editions[0]).toMatchObject({ format: 'CSV' });
    // Asked one at a time, the file is still found behind the three views.
    expect((await m.exports.listFiles(userId, 'en', 1, true)).editions.map((e) => e.format)).toEqual(['CSV']);
  });
});
