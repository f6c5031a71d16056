/**
 * Mail floods (issue #32 C.5): 30 reset requests for one user from 3 addresses queue a handful
 * of mails and leave one live key; 15 clicks on "mail the receipt" mail each recipient once.
 * The limits are counted in PostgreSQL (mail/mail-quota.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import type { SafeCount } from '../../../src/contract/counting.ts';
import { MAIL_QUOTAS } from '../../../src/server/mail/mail-quota.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { waitForMailQueue } from '../../helpers/smtp.ts';
import { DAY, PASSWORD, seedCounting } from '../counting/seed.ts';

let dataDir: string;
let t: TestApp;
let s: Awaited<ReturnType<typeof seedCounting>>;
let marieId: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-floods-'));
  t = await createTestApp({ config: { dataDir } });
  s = await seedCounting(t);
  marieId = await t.createUser({ login: 'marie', password: PASSWORD, droits: ['COFFRE'], allSites: true });
  await t.database.pool.query(
    `UPDATE users SET email = 'marie@example.com', role = 'DIRECTEUR' WHERE id = $1`,
    [marieId],
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function count(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(sql, values);
  return rows[0]!.n;
}

describe('mail floods', () => {
  it('30 reset requests for one user from 3 addresses queue at most the quota and leave one live key', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({
        url: '/api/reinit/sendReinitMail?user=marie',
        headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
        remoteAddress: `192.0.2.${1 + (i % 3)}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 'seeUrMail' });
    }
    const mails = await count(
      `SELECT count(*)::int AS n FROM job_mails WHERE recipients = 'marie@example.com'`,
      [],
    );
    expect(mails).toBe(MAIL_QUOTAS['mail-reset'].max);
    const live = await count(
      'SELECT count(*)::int AS n FROM password_resets WHERE user_id = $1 AND used_at IS NULL AND expires_at > now()',
      [marieId],
    );
    expect(live).toBe(1);
  });

  it('15 clicks on "mail the receipt" mail each recipient once', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/coffre/save?id=${s.manager.id}`,
      headers: s.manager.headers,
      payload: {
        site: s.chain.sites.paris,
        dateFiscale: DAY,
        openingCents: 0,
        depositsCents: 10000,
        withdrawalsCents: 0,
        contents: [{ denominationCents: 5000, quantity: 2 }],
      },
    });
    const countId = saved.json<SafeCount>().id;
    for (let i = 0; i < 15; i++) {
      const res = await t.app.inject({
        url: `/api/bo/home/envoieMail?idRecu=${countId}&utilisateur=marie&site=${s.chain.sites.paris}`,
        headers: s.manager.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 'MailEnvoye', recipients: ['marie@example.com'] });
    }
    await waitForMailQueue(t.database.pool);
    const receipts = await count(
      `SELECT count(*)::int AS n FROM job_mails WHERE key LIKE 'safe-receipt:%' AND sent_at IS NOT NULL`,
      [],
    );
    expect(receipts).toBe(1);
  });
});
