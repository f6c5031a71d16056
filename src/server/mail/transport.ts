/**
 * Outgoing mail (DESIGN.md §3: nodemailer): one SMTP transport per app, from SMTP_URL
 * (config.ts). Without SMTP_URL there is no transport and every send fails with
 * {@link MailError}, which routes answer as 502 `ErreurEnvoiMail` (SPEC.md §8). Timeouts are
 * short so a dead SMTP server fails a request in seconds, not minutes.
 */
import nodemailer, { type Transporter } from 'nodemailer';

/** One message. `to` are e-mail addresses; attachments are in memory. */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Sending failed: no transport configured, or the SMTP server refused or could not be reached. */
export class MailError extends Error {}

/** Sends mail; `close()` ends the transport's connections (the app's onClose). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * The mailer of `smtpUrl` (nodemailer connection URL; query options such as `?ignoreTLS=true`
 * are honoured), sending as `from`. With no URL, every send throws MailError.
 */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  let transport: Transporter | null = null;
  return {
    async send(message) {
      if (!smtpUrl) throw new MailError('no SMTP server configured (SMTP_URL)');
      transport ??= nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      });
      try {
        await transport.sendMail({ from, ...message });
      } catch (e) {
        throw new MailError(e instanceof Error ? e.message : String(e), { cause: e });
      }
    },
    close() {
      transport?.close();
      transport = null;
    },
  };
}
