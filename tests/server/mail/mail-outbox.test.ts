/**
 * Mail without a mail server (issue #28, issue #32 D.2): with no SMTP_URL a password reset answers
 * 200 and leaves a readable `.eml` with its link in DATA_DIR/mail-outbox/; administrators list and
 * open it through the outbox calls (audit-logged), which refuse any name outside the folder.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import type { OutboxListAnswer, OutboxMessageAnswer } from '../../../src/contract/mail-outbox.ts';
import { startBanner } from '../../../src/server/cli/start.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { waitForMailQueue } from '../../helpers/smtp.ts';

const PASSWORD = 'Ancien-Mot2passe';
let dataDir: string;
let outbox: string;
let t: TestApp;
let admin: { id: number; headers: AuthHeaders };
let manager: { id: number; headers: AuthHeaders };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-outbox-'));
  outbox = path.join(dataDir, 'mail-outbox');
  t = await createTestApp({
    config: { dataDir, smtpUrl: undefined, publicUrl: 'https://comptoir.example.com' },
  });
  const adminId = await t.createUser({
    login: 'root',
    password: PASSWORD,
    droits: ['CONFIGURATION'],
    allSites: true,
  });
  const managerId = await t.createUser({
    login: 'marie',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    allSites: true,
  });
  await t.database.pool.query(`UPDATE users SET email = 'marie@example.com' WHERE id = $1`, [managerId]);
  admin = { id: adminId, headers: await t.signIn('root', PASSWORD) };
  manager = { id: managerId, headers: await t.signIn('marie', PASSWORD) };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function emlFiles(): Promise<string[]> {
  return (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
}

describe('the .eml outbox', () => {
  it('a reset on a server without SMTP_URL answers 200 and leaves a readable .eml whose link works', async () => {
    const res = await t.app.inject({
      url: '/api/reinit/sendReinitMail?user=marie',
      headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'seeUrMail' });
    await waitForMailQueue(t.database.pool);
    const [name] = await emlFiles();
    const mail = await simpleParser(await readFile(path.join(outbox, name!)));
    expect(mail.to).toMatchObject({ value: [{ address: 'marie@example.com' }] });
    const link = new URL(/https:\/\/\S+/.exec(mail.text ?? '')![0]);
    expect(link.pathname).toBe('/reinit/changePassword');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/reinit/reinitPassword',
      headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      payload: {
        email: link.searchParams.get('email'),
        resetPasswordKey: link.searchParams.get('key'),
        password: 'Nouveau-Mot2passe!',
      },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('administrators list the outbox and open a mail, which is audit-logged', async () => {
    const list = await t.app.inject({ url: `/api/bo/mails/outbox?id=${admin.id}`, headers: admin.headers });
    expect(list.statusCode).toBe(200);
    const answer = list.json<OutboxListAnswer>();
    expect(answer.mode).toBe('outbox');
    expect(answer.folder).toBe(outbox);
    expect(answer.mails).toHaveLength(1);
    const entry = answer.mails[0]!;
    expect(entry).toMatchObject({ to: ['marie@example.com'] });
    expect(entry.subject).toContain('mot de passe');

    const opened = await t.app.inject({
      url: `/api/bo/mails/outbox/message?id=${admin.id}&name=${entry.name}`,
      headers: admin.headers,
    });
    expect(opened.statusCode).toBe(200);
    const mail = opened.json<OutboxMessageAnswer>();
    expect(mail.text).toContain('https://comptoir.example.com/reinit/changePassword?');
    expect(mail.subject).toBe(entry.subject);
    const { rows } = await t.database.pool.query(
      `SELECT user_id, target_id FROM audit_log WHERE action = 'mail.outboxOpen'`,
    );
    expect(rows).toEqual([{ user_id: admin.id, target_id: entry.name }]);
  });

  it('refuses names outside the folder, unknown files, and users without CONFIGURATION', async () => {
    await writeFile(path.join(dataDir, 'secret.eml'), 'Subject: secret\r\n\r\nno');
    for (const name of ['../secret.eml', '..%2Fsecret.eml', 'secret.eml', '/etc/passwd']) {
      const res = await t.app.inject({
        url: `/api/bo/mails/outbox/message?id=${admin.id}&name=${encodeURIComponent(name)}`,
        headers: admin.headers,
      });
      expect(res.statusCode, name).toBe(400);
    }
    const unknown = await t.app.inject({
      url: `/api/bo/mails/outbox/message?id=${admin.id}&name=20261207T000000-000Z-0123456789abcdef.eml`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    // The reset above ended marie's sessions: she signs in with her new password.
    manager.headers = await t.signIn('marie', 'Nouveau-Mot2passe!');
    const forbidden = await t.app.inject({
      url: `/api/bo/mails/outbox?id=${manager.id}`,
      headers: manager.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    const { rows } = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'mail.outboxOpen'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('the start banner says where mails go without SMTP_URL', () => {
    const lines = startBanner({
      url: 'http://localhost:8080/',
      administrator: { login: 'admin', created: false },
      mail: { kind: 'outbox', outboxDir: outbox },
    });
    expect(lines.join('\n')).toContain(`mails are written to ${outbox}`);
  });
});
