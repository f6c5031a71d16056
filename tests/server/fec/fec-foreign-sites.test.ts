/**
 * A company's sites not kept in EUR are never left out of its FEC silently (issue #29, decision
 * 0037 § "Sites not in euros"): GET bo/fec/export refuses with FecForeignCurrency naming them
 * and produces no file, unless `exclureHorsEuro=true`, whose file holds the EUR sites only and
 * whose answer names the others in `X-Fec-Sites-Exclus`; GET bo/fec/plan lists them for /fec; a
 * FEC recurrence of the company keeps the EUR sites' file, records the others with it (listed by
 * bo/fec/files) and names them in its mail.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FecPlan } from '../../../src/contract/fec.ts';
import type { FecFilesAnswer } from '../../../src/contract/fec-recurrences.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail } from '../../helpers/smtp.ts';
import { FIRST_DATE, LAST_DATE, loadChain } from '../../reports/sales-analyses/chain.ts';
import { waitUntil } from '../jobs/queue-helpers.ts';

const PASSWORD = 'Correct-Horse1';
const SIREN = '552100554';

describe('FEC of a company with a site not in euros', () => {
  let t: TestApp;
  let mailbox: TestMailbox;
  let dataDir: string;
  let user: { id: number; headers: Record<string, string> };

  beforeAll(async () => {
    mailbox = await openTestMailbox();
    dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-fec-foreign-'));
    t = await createTestApp({ config: { smtpUrl: mailbox.url, dataDir } });
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
    await mailbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
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

  it('a recurrence keeps the EUR file, records the site left out, lists it and names it in its mail', async () => {
    const post = (url: string, payload: object = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bo/fec/${url}&id=${user.id}`,
        headers: user.headers,
        payload,
      });
    const saved = await post('saveRecurrence?societe=2', {
      libelle: 'FEC mensuel',
      destinataires: ['cabinet@example.com'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const run = await post(`runRecurrenceNow?societe=2&recurrence=${saved.json().id}`);
    expect(run.statusCode, run.body).toBe(200);
    const files = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/bo/fec/files?societe=2&id=${user.id}`,
          headers: user.headers,
        })
      ).json<FecFilesAnswer>().fichiers;
    await waitUntil(async () => (await files())[0]?.run?.statut === 'SUCCEEDED');
    expect((await files())[0]!.sitesExclus).toEqual([{ id: 3, libelle: 'London Soho', devise: 'GBP' }]);
    await waitForMail(mailbox, 1);
    // The recurrence's language is French by default.
    expect(mailbox.received[0]!.text).toMatch(
      /Ce fichier ne contient pas le site hors euro de la société\s: London Soho \(GBP\)\. Un FEC est tenu en euros/,
    );
  });
});
