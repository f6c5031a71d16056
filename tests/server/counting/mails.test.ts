import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SafeCount } from '../../../src/contract/counting.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail } from '../../helpers/smtp.ts';
import { pdfText } from './pdf-text.ts';
import { DAY, PASSWORD, seedCounting } from './seed.ts';

/** A real SMTP server on a free loopback port, keeping every message it accepts. */
let mailbox: TestMailbox;
/** What it accepted (empty at the start of each test). */
let received: ParsedMail[];

let t: TestApp;
let s: Awaited<ReturnType<typeof seedCounting>>;
let paris: number;
let countId: number;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  received = mailbox.received;

  t = await createTestApp({
    config: { smtpUrl: mailbox.url, mailFrom: 'Comptoir <coffre@example.com>' },
  });
  s = await seedCounting(t);
  paris = s.chain.sites.paris;
  // Recipients: two directors (one German-speaking) on Paris, one on Lyon only, one without e-mail.
  const director = async (login: string, sites: number[], email: string | null, language: string | null) => {
    const id = await t.createUser({
      login,
      password: PASSWORD,
      droits: ['COFFRE'],
      restaurantIds: sites,
      language,
    });
    await t.database.pool.query(`UPDATE users SET role = 'DIRECTEUR', email = $2 WHERE id = $1`, [id, email]);
  };
  await director('dir-fr', [paris], 'dir-fr@example.com', 'fr');
  await director('dir-de', [paris], 'dir-de@example.com', 'de');
  await director('dir-lyon', [s.chain.sites.lyon], 'dir-lyon@example.com', 'fr');
  await director('dir-nomail', [paris], null, 'fr');
  const saved = await t.app.inject({
    method: 'POST',
    url: `/api/coffre/save?id=${s.manager.id}`,
    headers: s.manager.headers,
    payload: {
      site: paris,
      dateFiscale: DAY,
      openingCents: 0,
      depositsCents: 10000,
      withdrawalsCents: 0,
      contents: [{ denominationCents: 5000, quantity: 2 }],
    },
  });
  countId = saved.json<SafeCount>().id;
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});
beforeEach(() => {
  mailbox.reset();
});

/** How many mails are queued under `key` (job_mails). */
async function queuedUnder(key: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM job_mails WHERE key = $1',
    [key],
  );
  return rows[0]!.n;
}

/** Waits until the mail.send run of (`key`, `recipient`) has `status`. */
async function waitUntilRun(key: string, recipient: string, status: string): Promise<void> {
  const end = Date.now() + 15_000;
  for (;;) {
    const { rows } = await t.database.pool.query(
      `SELECT 1 FROM job_runs WHERE kind = 'mail.send' AND data = $1::jsonb AND status = $2`,
      [JSON.stringify({ key, recipients: recipient }), status],
    );
    if (rows.length > 0) return;
    if (Date.now() > end) throw new Error(`no ${status} run for ${recipient}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The retry of a refused mail comes 30 s later (RETRY_DELAY_SECONDS), when a later test of this
 * file may be running and counting what arrives: the test that provoked it marks it sent, so the
 * mail job's guard skips it when it comes.
 */
async function settleRetry(key: string, recipient: string): Promise<void> {
  await t.database.pool.query('UPDATE job_mails SET sent_at = now() WHERE key = $1 AND recipients = $2', [
    key,
    recipient,
  ]);
}

const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address));

describe('e-mails of the safe count', () => {
  it('envoieMail sends the PDF receipt to each director of the site, in their language', async () => {
    const res = await t.app.inject({
      url: `/api/bo/home/envoieMail?idRecu=${countId}&role=DIRECTEUR&site=${paris}`,
      headers: s.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 'MailEnvoye',
      recipients: ['dir-fr@example.com', 'dir-de@example.com'],
    });
    await waitForMail(mailbox, 2);
    expect(received.flatMap(to).sort()).toEqual(['dir-de@example.com', 'dir-fr@example.com']);
    const german = received.find((m) => to(m).includes('dir-de@example.com'))!;
    expect(german.from?.value[0]).toMatchObject({ name: 'Comptoir', address: 'coffre@example.com' });
    expect(german.subject).toBe('Tresorzählung vom 02/03/2026 — Paris');
    expect(german.text).toContain('gesendet von manager');
    const attachment = german.attachments[0]!;
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.filename).toBe(`coffre-${countId}.pdf`);
    expect(await pdfText(attachment.content)).toContain('Tresorzählung');
    const french = received.find((m) => to(m).includes('dir-fr@example.com'))!;
    expect(french.subject).toBe('Comptage du coffre du 02/03/2026 — Paris');
  });

  it('envoieMail to one user by login', async () => {
    // The receipt went to dir-fr in the test above: one receipt reaches one recipient once per
    // 10 minutes (issue #32 C.5). Forget that send, as if 10 minutes had passed.
    await t.database.pool.query(`DELETE FROM job_mails WHERE key LIKE 'safe-receipt:%'`);
    await t.database.pool.query(`DELETE FROM job_runs WHERE singleton_key LIKE 'safe-receipt:%'`);
    const res = await t.app.inject({
      url: `/api/bo/home/envoieMail?idRecu=${countId}&utilisateur=dir-fr&site=${paris}`,
      headers: s.manager.headers,
    });
    expect(res.json()).toMatchObject({ recipients: ['dir-fr@example.com'] });
    await waitForMail(mailbox, 1);
    expect(received).toHaveLength(1);
  });

  it('never mails a receipt to someone who may not see the site', async () => {
    const res = await t.app.inject({
      url: `/api/bo/home/envoieMail?idRecu=${countId}&utilisateur=dir-lyon&site=${paris}`,
      headers: s.manager.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'noDataError' });
    expect(received).toHaveLength(0);
  });

  it('envoieMailManquant reminds the directors that the day is missing', async () => {
    const res = await t.app.inject({
      url: `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-03`,
      headers: s.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    await waitForMail(mailbox, 2);
    expect(received.map((m) => m.subject).sort()).toEqual([
      'Comptage du coffre manquant : Paris, 03/03/2026',
      'Fehlende Tresorzählung: Paris, 03/03/2026',
    ]);
  });

  it('a repeat with the same Idempotency-Key does not send again', async () => {
    const headers = { ...s.manager.headers, 'idempotency-key': randomUUID() };
    const url = `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-04`;
    const first = await t.app.inject({ url, headers });
    const again = await t.app.inject({ url, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await queuedUnder(`missing-count:${paris}:${headers['idempotency-key']}`)).toBe(2);
    await waitForMail(mailbox, 2);
    expect(received).toHaveLength(2);
  });

  it('when keeping the first answer fails, its mails are not queued, and the repeat queues them once', async () => {
    // The database refuses to keep this route's answers: the request's transaction rolls back.
    await t.database.pool.query(`
      CREATE FUNCTION refuse_mail_keys() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'no space left on device'; END $$;
      CREATE TRIGGER refuse_mail_keys BEFORE INSERT ON idempotency_keys FOR EACH ROW
        WHEN (NEW.path LIKE '%envoieMailManquant') EXECUTE FUNCTION refuse_mail_keys();`);
    const headers = { ...s.manager.headers, 'idempotency-key': randomUUID() };
    const mailKey = `missing-count:${paris}:${headers['idempotency-key']}`;
    const url = `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-05`;
    try {
      const first = await t.app.inject({ url, headers });
      expect(first.statusCode).toBe(500);
      expect(await queuedUnder(mailKey)).toBe(0);
    } finally {
      await t.database.pool.query(
        'DROP TRIGGER refuse_mail_keys ON idempotency_keys; DROP FUNCTION refuse_mail_keys()',
      );
    }
    const again = await t.app.inject({ url, headers });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      code: 'MailEnvoye',
      recipients: ['dir-fr@example.com', 'dir-de@example.com'],
    });
    // Its answer is kept this time: the third try is a plain replay.
    const third = await t.app.inject({ url, headers });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(await queuedUnder(mailKey)).toBe(2);
    await waitForMail(mailbox, 2);
    expect(received).toHaveLength(2);
    // Both messages carry a Message-ID derived from the key, so a receiving server can spot a repeat.
    expect(received.map((m) => m.messageId)).toEqual([
      expect.stringMatching(/^<[0-9a-f]{32}@comptoir\.idempotent>$/),
      expect.stringMatching(/^<[0-9a-f]{32}@comptoir\.idempotent>$/),
    ]);
  });

  it('a recipient the mail server refuses does not hold the others back: its mail waits in the queue and retries', async () => {
    mailbox.refuse(['dir-de@example.com']);
    const headers = { ...s.manager.headers, 'idempotency-key': randomUUID() };
    const url = `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-06`;
    const first = await t.app.inject({ url, headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ code: 'MailEnvoye' });
    await waitForMail(mailbox, 1);
    expect(received.flatMap(to)).toEqual(['dir-fr@example.com']);
    const mailKey = `missing-count:${paris}:${headers['idempotency-key']}`;
    await waitUntilRun(mailKey, 'dir-de@example.com', 'retrying');
    await settleRetry(mailKey, 'dir-de@example.com');
  });

  it('a repeat sent while the first is still running answers 503 IdempotencyKeyInProgress with Retry-After, and queues nothing', async () => {
    const key = randomUUID();
    const headers = { ...s.manager.headers, 'idempotency-key': key };
    const url = `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-07`;
    // Another transaction holds the row the first request must write to queue dir-fr's mail, so
    // the first request stays in flight, holding its key.
    const blocker = await t.database.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(
        `INSERT INTO job_mails (key, recipients, message, message_id) VALUES ($1, 'dir-fr@example.com', '{}', 'x')`,
        [`missing-count:${paris}:${key}`],
      );
      const first = t.app.inject({ url, headers });
      await new Promise((r) => setTimeout(r, 300));
      const repeat = await t.app.inject({ url, headers });
      expect(repeat.statusCode).toBe(503);
      expect(repeat.headers['retry-after']).toBe('5');
      expect(repeat.json()).toMatchObject({ code: 'IdempotencyKeyInProgress' });
      expect(received).toHaveLength(0);
      await blocker.query('ROLLBACK');
      expect((await first).statusCode).toBe(200);
      await waitForMail(mailbox, 2);
    } finally {
      blocker.release();
    }
    const later = await t.app.inject({ url, headers });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(await queuedUnder(`missing-count:${paris}:${key}`)).toBe(2);
    expect(received).toHaveLength(2);
  }, 60_000);

  it('an SMTP refusal still answers MailEnvoye: the mail is queued and retried', async () => {
    mailbox.refuse(true);
    const headers = { ...s.manager.headers, 'idempotency-key': randomUUID() };
    const res = await t.app.inject({
      url: `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${s.manager.id}&site=${paris}&datefiscale=2026-03-03`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'MailEnvoye' });
    const mailKey = `missing-count:${paris}:${headers['idempotency-key']}`;
    // Both directors' first tries must be refused while the server refuses: mail.send runs two
    // at a time (decision 0047), so dir-de's may come after dir-fr's, and once the next test has
    // reset the mailbox it would be accepted there.
    await waitUntilRun(mailKey, 'dir-fr@example.com', 'retrying');
    await waitUntilRun(mailKey, 'dir-de@example.com', 'retrying');
    expect(received).toHaveLength(0);
    await settleRetry(mailKey, 'dir-fr@example.com');
    await settleRetry(mailKey, 'dir-de@example.com');
  });

  it('a receipt of another site, or of a site outside the scope, is refused', async () => {
    const other = await t.app.inject({
      url: `/api/bo/home/envoieMail?idRecu=${countId}&role=DIRECTEUR&site=${s.chain.sites.lyon}`,
      headers: s.manager.headers,
    });
    expect(other.statusCode).toBe(404);
    const foreign = await t.app.inject({
      url: `/api/bo/home/envoieMail?idRecu=${countId}&role=DIRECTEUR&site=${s.chain.sites.nantes}`,
      headers: s.manager.headers,
    });
    expect(foreign.statusCode).toBe(403);
    expect(received).toHaveLength(0);
  });
});

describe('without an SMTP server configured', () => {
  let bare: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-outbox-'));
    bare = await createTestApp({ config: { dataDir } });
  });
  afterAll(async () => {
    await bare.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('mail answers MailEnvoye and the mail is written to the .eml outbox', async () => {
    const chain = await seedCounting(bare);
    const id = await bare.createUser({
      login: 'dir',
      password: PASSWORD,
      droits: ['COFFRE'],
      restaurantIds: [chain.chain.sites.paris],
    });
    await bare.database.pool.query(
      `UPDATE users SET role = 'DIRECTEUR', email = 'dir@example.com' WHERE id = $1`,
      [id],
    );
    const res = await bare.app.inject({
      url: `/api/bo/home/envoieMailManquant?role=DIRECTEUR&id=${chain.manager.id}&site=${chain.chain.sites.paris}&datefiscale=${DAY}`,
      headers: chain.manager.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'MailEnvoye', recipients: ['dir@example.com'] });
    const outbox = path.join(dataDir, 'mail-outbox');
    const deadline = Date.now() + 15_000;
    while (!existsSync(outbox) || (await readdir(outbox)).filter((n) => n.endsWith('.eml')).length === 0) {
      if (Date.now() > deadline) throw new Error('no .eml written');
      await new Promise((r) => setTimeout(r, 50));
    }
    const [name] = (await readdir(outbox)).filter((n) => n.endsWith('.eml'));
    const mail = await simpleParser(await readFile(path.join(outbox, name!)));
    expect(mail.to).toMatchObject({ value: [{ address: 'dir@example.com' }] });
    expect(mail.subject).toContain('Comptage du coffre manquant');
  });
});

describe('mail settings', () => {
  it('SMTP_URL and COMPTOIR_MAIL_FROM are optional and checked at start-up', async () => {
    const { loadConfig, ConfigError } = await import('../../../src/server/config.ts');
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(loadConfig({}).mailFrom).toBe('Comptoir <comptoir@localhost>');
    expect(
      loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', COMPTOIR_MAIL_FROM: 'caisse@example.com' }),
    ).toMatchObject({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      mailFrom: 'caisse@example.com',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ COMPTOIR_MAIL_FROM: 'not an address' })).toThrow(/COMPTOIR_MAIL_FROM/);
  });
});
