/**
 * GET bo/fec/export through the real application: the accountant's file is the checked FEC,
 * named `<SIREN>FEC<AAAAMMJJ>.txt` in an attachment Content-Disposition, ISO 8859-15; a user
 * without FEC_CONFIGURATION gets 403, so does one whose scope misses a site of the company; a
 * company without SIREN answers FecNoSiren and no file.
 */
import { parse } from 'content-disposition';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { FIRST_DATE, LAST_DATE, loadChain } from '../../reports/sales-analyses/chain.ts';

const PASSWORD = 'Correct-Horse1';
const SIREN = '552100554';

describe('GET bo/fec/export', () => {
  let t: TestApp;
  const users: Record<string, { id: number; headers: Record<string, string> }> = {};

  beforeAll(async () => {
    t = await createTestApp();
    await loadChain(t.database);
    await t.database.pool.query('UPDATE companies SET siren = $1 WHERE id = 1', [SIREN]);
    const make = async (
      login: string,
      droits: string[],
      scope: { allSites?: boolean; restaurantIds?: number[] },
    ) => {
      const id = await t.createUser({ login, password: PASSWORD, droits, ...scope });
      users[login] = { id, headers: await t.signIn(login, PASSWORD) };
    };
    await make('compta', ['FEC_CONFIGURATION'], { allSites: true });
    await make('reports', ['RAPPORTS'], { allSites: true });
    await make('paris', ['FEC_CONFIGURATION'], { restaurantIds: [1] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const ask = (login: string, societe: number, dateDebut = FIRST_DATE, dateFin = LAST_DATE) => {
    const user = users[login]!;
    return t.app.inject({
      method: 'GET',
      url: `/api/bo/fec/export?id=${user.id}&societe=${societe}&dateDebut=${dateDebut}&dateFin=${dateFin}`,
      headers: user.headers,
    });
  };

  it("answers the accountant the checked file, named after the SIREN and the period's last day", async () => {
    const res = await ask('compta', 1);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=ISO-8859-15');
    const disposition = parse(String(res.headers['content-disposition']));
    expect(disposition).toEqual({ type: 'attachment', parameters: { filename: `${SIREN}FEC20261110.txt` } });
    const text = iconv.decode(res.rawPayload, 'ISO-8859-15');
    expect(checkFec(text, disposition.parameters.filename)).toEqual([]);
    const records = text.trimEnd().split('\r\n');
    expect(records[0]?.split('\t')[0]).toBe('JournalCode');
    expect(new Set(records.slice(1).map((r) => r.split('\t')[2])).size).toBe(20);
  });

  it('refuses a user without FEC_CONFIGURATION and one whose scope misses a site of the company', async () => {
    const reports = await ask('reports', 1);
    expect(reports.statusCode).toBe(403);
    expect(reports.json()).toMatchObject({ code: 'Forbidden' });
    expect(reports.headers['content-disposition']).toBeUndefined();
    const paris = await ask('paris', 1);
    expect(paris.statusCode).toBe(403);
    expect(paris.headers['content-disposition']).toBeUndefined();
  });

  it('answers FecNoSiren and no file for a company without SIREN, and refuses a reversed period', async () => {
    const res = await ask('compta', 2);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'FecNoSiren' });
    expect(res.headers['content-disposition']).toBeUndefined();
    const reversed = await ask('compta', 1, LAST_DATE, FIRST_DATE);
    expect(reversed.statusCode).toBe(400);
  });
});
