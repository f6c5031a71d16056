/**
 * /config/mails against the real server without SMTP_URL (mail-outbox-api.ts), in happy-dom: a
 * queued mail is written to the outbox, listed with its date, recipients and subject, and opened
 * with its text, its HTML part in a frame sandboxed with no permission, and its attachments.
 */
import { adminId, closeAll, dataDir, PASSWORD, t } from './mail-outbox-api.ts';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { MailOutboxPage } from '../../src/client/features/mail-outbox/components/mail-outbox-page.tsx';
import { OutboxNotice } from '../../src/client/features/mail-outbox/components/outbox-notice.tsx';
import { signIn } from '../../src/client/lib/session.ts';
import { waitForMailQueue } from '../helpers/smtp.ts';
import {
  buttonNamed,
  press,
  renderRoutedScreen,
  renderScreen,
  type Screen,
  unmountScreen,
  waitUntil,
} from './support.tsx';

let screen: Screen;
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 8_000, 25);

beforeAll(async () => {
  await t.app.jobs.queueMail(
    {
      to: ['marie@example.com'],
      subject: 'Votre lien',
      text: 'Bonjour marie, voici le lien.',
      html: '<p>Bonjour <b>marie</b></p><script>parent.document.title = "pwned"</script>',
      attachments: [
        { filename: 'coffre-1.pdf', content: Buffer.from('%PDF-1.4'), contentType: 'application/pdf' },
      ],
    },
    'outbox-screen-test',
  );
  await waitForMailQueue(t.database.pool);
  await signIn('admin', PASSWORD);
});
afterAll(async () => {
  unmountScreen(screen);
  await closeAll();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/config/mails', () => {
  it('lists the outbox and opens a mail with its HTML sandboxed; the open is audit-logged', async () => {
    screen = await renderScreen(<MailOutboxPage />, 'en', en);
    await waitFor(() => screen.container.textContent?.includes('Votre lien') ?? false);
    expect(screen.container.querySelector('[role="status"]')?.textContent).toContain('No mail server is set');
    expect(screen.container.textContent).toContain('marie@example.com');
    await press(buttonNamed(screen.container, 'Open “Votre lien”'));
    await waitFor(() => screen.container.querySelector('#mo-subject') !== null);
    expect(screen.container.querySelector('#mo-subject')?.textContent).toBe('Votre lien');
    expect(screen.container.querySelector('pre')?.textContent).toBe('Bonjour marie, voici le lien.');
    const frame = screen.container.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<b>marie</b>');
    expect(screen.container.textContent).toContain('coffre-1.pdf (application/pdf, 1 KiB)');
    const { rows } = await t.database.pool.query(
      `SELECT user_id FROM audit_log WHERE action = 'mail.outboxOpen'`,
    );
    expect(rows).toEqual([{ user_id: adminId }]);
  });

  it('an administrator is told on the users screen that invitations go to the outbox, with a link to it', async () => {
    unmountScreen(screen);
    screen = await renderRoutedScreen({ '/config/users': OutboxNotice }, '/config/users', 'en', en);
    await waitFor(() => screen.container.querySelector('[role="note"]') !== null);
    const note = screen.container.querySelector('[role="note"]')!;
    expect(note.textContent).toContain('invitations and reset links are written to the mail outbox');
    expect(note.querySelector('a')?.getAttribute('href')).toBe('/config/mails');
  });
});
