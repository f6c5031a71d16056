/**
 * The home dashboard's reminder for a terminal not counted (issue #19; GET
 * bo/home/envoieMailManquant with `caisse`, home/cash-count-reminder.ts), through a real SMTP
 * server: the users of the role on the site are mailed in their language, once per
 * Idempotency-Key; the reminder needs COMPTAGE (the safe's reminder keeps needing COFFRE); a
 * terminal that is not the site's, or a site outside the scope, is refused and mails nobody.
 */
import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../helpers/smtp.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Comptoir-2026!';
const DAY = '2026-03-02';

let mailbox: TestMailbox;
/** What the SMTP server accepted since the current test began. */
let received: ParsedMail[] = [];
let t: TestApp;
let chain: Chain;
/** A user of each kind, signed in. */
const callers: Record<'counter' | 'safeOnly' | 'lyonCounter', { id: number; headers: AuthHeaders }> =
  {} as never;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  received = mailbox.received;
  t = await createTestApp({
    config: { smtpUrl: mailbox.url, mailFrom: 'Comptoir <caisses@example.com>' },
  });
  chain = await seedChain(t.database.pool);
  const { paris, lyon } = chain.sites;
  const user = async (
    login: string,
    droits: string[],
    sites: number[],
    role = '',
    email = '',
    language = 'fr',
  ) => {
    const id = await t.createUser({ login, password: PASSWORD, droits, restaurantIds: sites, language });
    await t.database.pool.query("UPDATE users SET role = $2, email = NULLIF($3, '') WHERE id = $1", [
      id,
      role,
      email,
    ]);
    return { id, headers: await t.signIn(login, PASSWORD) };
  };
  callers.counter = await user('compteur', ['COMPTAGE'], [paris]);
  callers.safeOnly = await user('coffre', ['COFFRE'], [paris]);
  callers.lyonCounter = await user('compteur-lyon', ['COMPTAGE'], [lyon]);
  // Recipients: two directors of Paris (one German-speaking), one of Lyon only.
  await user('dir-fr', ['RAPPORTS'], [paris], 'DIRECTEUR', 'dir-fr@example.com', 'fr');
  await user('dir-de', ['RAPPORTS'], [paris], 'DIRECTEUR', 'dir-de@example.com', 'de');
  await user('dir-lyon', ['RAPPORTS'], [lyon], 'DIRECTEUR', 'dir-lyon@example.com', 'fr');
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});
beforeEach(() => {
  received.length = 0;
});

/** Every queued mail tried: no more will arrive. */
const settle = () => waitForMailQueue(t.database.pool);

const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : [m.to]).flatMap((a) => a?.value.map((v) => v.address));

/** GET envoieMailManquant for terminal `caisse` (none: the safe) of `site`, as `caller`. */
function remind(
  caller: { id: number; headers: AuthHeaders },
  query: { site?: number; caisse?: number; day?: string },
  extraHeaders: Record<string, string> = {},
) {
  const params = new URLSearchParams({
    role: 'DIRECTEUR',
    id: String(caller.id),
    site: String(query.site ?? chain.sites.paris),
    datefiscale: query.day ?? DAY,
  });
  if (query.caisse !== undefined) params.set('caisse', String(query.caisse));
  return t.app.inject({
    url: `/api/bo/home/envoieMailManquant?${params}`,
    headers: { ...caller.headers, ...extraHeaders },
  });
}

describe('reminder for a missing cash count (envoieMailManquant with caisse)', () => {
  it("mails the site's directors, each in their language, that the terminal was not counted", async () => {
    const res = await remind(callers.counter, { caisse: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 'MailEnvoye',
      recipients: ['dir-fr@example.com', 'dir-de@example.com'],
    });
    await waitForMail(mailbox, 2);
    expect(received.flatMap(to).sort()).toEqual(['dir-de@example.com', 'dir-fr@example.com']);
    const french = received.find((m) => to(m).includes('dir-fr@example.com'))!;
    expect(french.subject).toBe('Comptage de caisse manquant : Paris, caisse 2, 02/03/2026');
    expect(french.text).toContain('Le comptage de la caisse 2 de Paris pour le 02/03/2026');
    expect(french.text).toContain('Message envoyé par compteur.');
    const german = received.find((m) => to(m).includes('dir-de@example.com'))!;
    expect(german.subject).toBe('Fehlende Kassenzählung: Paris, Kasse 2, 02/03/2026');
  });

  it('sends once: a repeat with the same Idempotency-Key replays the answer and mails nobody again', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const first = await remind(callers.counter, { caisse: 1, day: '2026-03-03' }, key);
    const again = await remind(callers.counter, { caisse: 1, day: '2026-03-03' }, key);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    await waitForMail(mailbox, 2);
    await settle();
    expect(received).toHaveLength(2);
  });

  it('needs COMPTAGE: a user with COFFRE only is refused, and the safe reminder still needs COFFRE', async () => {
    const cash = await remind(callers.safeOnly, { caisse: 1 });
    expect(cash.statusCode).toBe(403);
    expect(cash.json()).toMatchObject({ code: 'Forbidden', details: { anyOf: ['COMPTAGE'] } });
    const safe = await remind(callers.counter, {});
    expect(safe.statusCode).toBe(403);
    expect(safe.json()).toMatchObject({ code: 'Forbidden', details: { anyOf: ['COFFRE'] } });
    expect((await remind(callers.safeOnly, {})).statusCode).toBe(200);
    await waitForMail(mailbox, 2);
    await settle();
    // Only the safe reminder left, to the two directors.
    expect(received.map((m) => m.subject)).toHaveLength(2);
    expect(received.every((m) => m.subject?.includes('coffre') || m.subject?.includes('Tresor'))).toBe(true);
  });

  it("refuses a terminal that is not the site's, and a site outside the scope, mailing nobody", async () => {
    const unknown = await remind(callers.counter, { caisse: 9 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'UnknownTerminal', details: { caisse: 9 } });
    const elsewhere = await remind(callers.lyonCounter, { caisse: 1 });
    expect(elsewhere.statusCode).toBe(403);
    expect(received).toHaveLength(0);
  });

  it('answers noDataError when nobody of the role on the site has an e-mail address', async () => {
    const res = await remind(callers.lyonCounter, { site: chain.sites.lyon, caisse: 1 });
    // Lyon has no terminal in the chain: add one, then its director is the only recipient.
    expect(res.json()).toMatchObject({ code: 'UnknownTerminal' });
    await t.database.pool.query(
      `INSERT INTO terminals (site_id, terminal_id, libelle) VALUES ($1, 1, 'L1')`,
      [chain.sites.lyon],
    );
    const sent = await remind(callers.lyonCounter, { site: chain.sites.lyon, caisse: 1 });
    expect(sent.json()).toEqual({ code: 'MailEnvoye', recipients: ['dir-lyon@example.com'] });
    await t.database.pool.query(`UPDATE users SET email = NULL WHERE login = 'dir-lyon'`);
    const nobody = await remind(callers.lyonCounter, {
      site: chain.sites.lyon,
      caisse: 1,
      day: '2026-03-04',
    });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json()).toMatchObject({ code: 'noDataError' });
    await waitForMail(mailbox, 1);
    await settle();
    expect(received.flatMap(to)).toEqual(['dir-lyon@example.com']);
  });
});
