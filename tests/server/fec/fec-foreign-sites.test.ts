/**
 * A company's sites not kept in EUR are never left out of its FEC silently (issue #29, decision
 * 0037 § "Sites not in euros"): GET bo/fec/export refuses with FecForeignCurrency naming them
 * and produces no file, unless `exclureHorsEuro=true`, whose file holds the EUR sites only and
 * whose answer names the others in `X-Fec-Sites-Exclus`; GET bo/fec/plan lists them for /fec.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FecPlan } from '../../../src/contract/fec.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { FIRST_DATE, LAST_DATE, loadChain } from '../../reports/sales-analyses/chain.ts';

const PASSWORD = 'Correct-Horse1';
const SIREN = '552100554';

describe('FEC of a company with a site not in euros', () => {
  let t: TestApp;
  let user: { id: number; headers: Record<string, string> };

  beforeAll(async () => {
    t = await createTestApp();
    await loadChain(t.database);
    // Company 2 holds London Soho (GBP, site 3); Lyon Part-Dieu (EUR, site 2) joins it.
    await t.database.pool.query('UPDATE companies SET siren = $1 WHERE id = 2', [SIREN]);
    await t.database.pool.query('UPDATE sites SET company_id = 2 WHERE id = 2');
    const id = await t.createUser({
      login: 'compta',
      password: PASSWORD,
      droits: ['FEC_CONFIGURATION'],
      allSites: true,
    });
    user = { id, headers: await t.signIn('compta', PASSWORD) };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const ask = (extra = '') =>
    t.app.inject({
      method: 'GET',
      url: `/api/bo/fec/export?id=${user.id}&societe=2&dateDebut=${FIRST_DATE}&dateFin=${LAST_DATE}${extra}`,
      headers: user.headers,
    });

  it('refuses the FEC with FecForeignCurrency naming the site and its currency, and no file', async () => {
    const res = await ask();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'FecForeignCurrency',
      details: { sites: [{ id: 3, libelle: 'London Soho', devise: 'GBP' }], noms: 'London Soho (GBP)' },
    });
    expect(res.headers['content-disposition']).toBeUndefined();
    expect((await ask('&exclureHorsEuro=false')).statusCode).toBe(400);
  });

  it('with exclureHorsEuro=true, writes the EUR sites only and names the others in X-Fec-Sites-Exclus', async () => {
    const res = await ask('&exclureHorsEuro=true');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-fec-sites-exclus']).toBe('3:GBP');
    const text = iconv.decode(res.rawPayload, 'ISO-8859-15');
    expect(checkFec(text, `${SIREN}FEC${LAST_DATE.replaceAll('-', '')}.txt`)).toEqual([]);
    const sites = new Set(
      text
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((r) => r.split('\t')[8]?.split('-')[1]),
    );
    expect([...sites]).toEqual(['2']);
  });

  it('lists the site on the plan /fec reads, and none for a company all in euros', async () => {
    const plan = async (societe: number) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/bo/fec/plan?id=${user.id}&societe=${societe}`,
          headers: user.headers,
        })
      ).json<FecPlan>();
    expect((await plan(2)).sitesHorsEuro).toEqual([{ id: 3, libelle: 'London Soho', devise: 'GBP' }]);
    expect((await plan(1)).sitesHorsEuro).toEqual([]);
  });
});
