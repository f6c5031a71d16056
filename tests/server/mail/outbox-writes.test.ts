/**
 * The `.eml` outbox's one file per Message-ID (mail/transport.ts, decision record 0047): a mailer
 * reads its folder once and then trusts its own writes; a try that follows a cut one
 * (`mayExist`) looks at the folder again, so a mail another process wrote is not written twice.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type MailMessage } from '../../../src/server/mail/transport.ts';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-outbox-writes-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const mail = (messageId: string): MailMessage => ({
  to: ['gerant@example.com'],
  messageId,
  subject: 'Ventes de la veille',
  text: 'Bonjour',
});

describe('the .eml outbox', () => {
  it('writes one file per Message-ID, also when another mailer of the folder wrote it first', async () => {
    const settings = { smtpUrl: undefined, from: 'Comptoir <c@example.com>', dataDir };
    const first = createMailer(settings);
    const second = createMailer(settings);
    try {
      // The second mailer reads the folder before the first writes the shared mail.
      await second.send(mail('<other@comptoir.test>'));
      await first.send(mail('<shared@comptoir.test>'));
      await first.send(mail('<shared@comptoir.test>'));
      await second.send(mail('<shared@comptoir.test>'), { mayExist: true });
      const names = await readdir(path.join(dataDir, 'mail-outbox'));
      expect(names.filter((n) => n.endsWith('.eml'))).toHaveLength(2);
    } finally {
      first.close();
      second.close();
    }
  });
});
