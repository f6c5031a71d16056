/**
 * Reading the `.eml` outbox back (issue #28): the list and one mail, parsed by mailparser.
 * Only files of the outbox folder itself, named as transport.ts names them, are ever read: a name
 * is checked against that pattern and its resolved path must lie directly in the folder, so `..`,
 * slashes, links elsewhere or any other file answer "not found".
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressObject } from 'mailparser';
import { type OutboxEntry, type OutboxMessageAnswer, OutboxNameSchema } from '../../contract/mail-outbox.ts';
import { DomainError } from '../errors.ts';

/** Most mails the list answers (newest first). */
export const OUTBOX_LIST_LIMIT = 500;

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value.map((v) => v.address ?? v.name));
}

/**
 * The outbox's mails, newest first (file names start with the UTC time), at most `limit`
 * (default and cap {@link OUTBOX_LIST_LIMIT}); none when the folder is absent.
 */
export async function listOutbox(dir: string, limit: number = OUTBOX_LIST_LIMIT): Promise<OutboxEntry[]> {
  if (limit === 0) return [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const mails = names
    .filter((n) => OutboxNameSchema.safeParse(n).success)
    .sort()
    .reverse();
  const entries: OutboxEntry[] = [];
  for (const name of mails.slice(0, Math.min(limit, OUTBOX_LIST_LIMIT))) {
    const file = path.join(dir, name);
    const [content, stat] = await Promise.all([readFile(file), lstat(file)]);
    const { simpleParser } = await import('mailparser');
    const mail = await simpleParser(content, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
    });
    entries.push({
      name,
      date: (mail.date ?? stat.mtime).toISOString(),
      to: addresses(mail.to),
      subject: mail.subject ?? '',
      bytes: stat.size,
    });
  }
  return entries;
}

/**
 * One mail of the outbox by file `name`.
 * @throws DomainError notFound `NotFound` when the name is not an outbox file's or the file is gone.
 */
export async function readOutboxMail(dir: string, name: string): Promise<OutboxMessageAnswer> {
  const file = path.resolve(dir, name);
  const notFound = new DomainError('notFound', 'NotFound', 'no such mail in the outbox');
  if (!OutboxNameSchema.safeParse(name).success || path.dirname(file) !== path.resolve(dir)) throw notFound;
  let content: Buffer;
  try {
    if (!(await lstat(file)).isFile()) throw notFound;
    content = await readFile(file);
  } catch {
    throw notFound;
  }
  // mailparser is loaded when an administrator opens the outbox, not by every server.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(content, { skipTextToHtml: true, skipImageLinks: true });
  return {
    name,
    date: (mail.date ?? new Date(0)).toISOString(),
    from: addresses(mail.from).join(', '),
    to: addresses(mail.to),
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : null,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? '',
      contentType: a.contentType,
      bytes: a.size,
    })),
  };
}
