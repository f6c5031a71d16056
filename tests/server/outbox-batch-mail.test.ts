/**
 * A write that mails, sent as an item of POST bo/outbox/batch (decision record 0024), on the real
 * app, PostgreSQL and a real SMTP server: the mails leave while the batch's transaction is still
 * open, so their send records are committed on their own (mail/send-once.ts); a batch that then
 * cannot commit answers 503, and the item sent again alone under its key mails nobody twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CashCountBody } from '../../src/contract/counting.ts';
import type { OutboxBatchAnswer, OutboxBatchItem } from '../../src/contract/outbox-batch.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../helpers/smtp.ts';
import { DAY, PASSWORD, seedCounting } from './counting/seed.ts';

let mailbox: TestMailbox;
let t: TestApp;
let s: Awaited<ReturnType<typeof seedCounting>>;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({ config: { smtpUrl: mailbox.url } });
  s = await seedCounting(t);
  const director = await t.createUser({
    login: 'directeur',
    password: PASSWORD,
    droits: ['COFFRE'],
    restaurantIds: [s.chain.sites.paris],
  });
  await t.database.pool.query(`UPDATE users SET role = 'DIRECTEUR', email = $2 WHERE id = $1`, [
    director,
    'directeur@example.com',
  ]);
});

afterAll(async () => {
  await t.close();
  await mailbox.close();
});

/** The reminder that the day's safe count is missing, as the outbox would send it alone. */
function reminderItem(day: string, key = randomUUID()): OutboxBatchItem {
  return {
    method: 'GET',
    path: 'bo/home/envoieMailManquant',
    query: {
      role: 'DIRECTEUR',
      id: String(s.manager.id),
      site: String(s.chain.sites.paris),
      datefiscale: day,
    },
    idempotencyKey: key,
  };
}

function batch(items: OutboxBatchItem[]) {
  return t.app.inject({
    method: 'POST',
    url: '/api/bo/outbox/batch',
    headers: s.manager.headers,
    payload: { items },
  });
}

describe('a write that mails, as an item of a batch', () => {
  it('mails once; the same batch again replays its answer and mails nobody', async () => {
    const items = [reminderItem('2026-03-10')];
    const first = (await batch(items)).json<OutboxBatchAnswer>().answers[0]!;
    expect(first).toMatchObject({ status: 200, replayed: false, body: { code: 'MailEnvoye' } });
    await waitForMail(mailbox, 1);
    const again = (await batch(items)).json<OutboxBatchAnswer>().answers[0]!;
    expect(again).toMatchObject({ status: 200, replayed: true, body: first.body });
    await waitForMailQueue(t.database.pool);
    expect(mailbox.received).toHaveLength(1);
  });

  it('in a batch that cannot commit, its mail is not queued; the item sent alone again mails once', async () => {
    mailbox.received.length = 0;
    // Cash counts of terminal 2 fail at COMMIT, so the whole batch does, its queued mail with it.
    await t.database.pool.query(`
      CREATE FUNCTION test_refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.terminal_id = 2 THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$;
      CREATE CONSTRAINT TRIGGER test_refuse_at_commit AFTER INSERT ON cash_counts
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_at_commit();`);
    const reminder = reminderItem('2026-03-11');
    const count: CashCountBody = {
      site: s.chain.sites.paris,
      dateFiscale: DAY,
      caisse: 2,
      cash: [{ denominationCents: 500, quantity: 1 }],
      chequesCents: 0,
      mealVouchersCents: 0,
      cardSlipsCents: null,
    };
    const countItem: OutboxBatchItem = {
      method: 'POST',
      path: 'bo/comptage/save',
      query: { id: String(s.manager.id) },
      idempotencyKey: randomUUID(),
      schemaVersion: 1,
      body: count,
    };
    try {
      const res = await batch([reminder, countItem]);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'ServerBusy' });
      const { rows } = await t.database.pool.query('SELECT 1 FROM job_mails WHERE key LIKE $1', [
        `%${reminder.idempotencyKey}`,
      ]);
      expect(rows).toEqual([]);
    } finally {
      await t.database.pool.query(
        'DROP TRIGGER test_refuse_at_commit ON cash_counts; DROP FUNCTION test_refuse_at_commit()',
      );
    }
    const alone = await t.app.inject({
      url: `/api/bo/home/envoieMailManquant?${new URLSearchParams(reminder.query).toString()}`,
      headers: { ...s.manager.headers, 'idempotency-key': reminder.idempotencyKey },
    });
    expect(alone.statusCode).toBe(200);
    expect(alone.headers['idempotent-replayed']).toBeUndefined();
    expect(alone.json()).toEqual({ code: 'MailEnvoye', recipients: ['directeur@example.com'] });
    await waitForMail(mailbox, 1);
    await waitForMailQueue(t.database.pool);
    expect(mailbox.received).toHaveLength(1);
  });
});
