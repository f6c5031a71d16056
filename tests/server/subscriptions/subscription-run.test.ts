/**
 * A subscription run (issue #28) on a real PostgreSQL, run by the app's job queue (job
 * `subscription.run`, its mails through the `mail.send` job) to the real SMTP server: the
 * due source finds it at its minute, the mail arrives with the PDF and XLSX whose totals equal
 * bo/getReport's to the cent; it runs with its owner's rights of the day (a lost site gives no
 * data, a deactivated owner suspends it); "send only if there is data" sends nothing on an empty
 * period; the unsubscribe link stops the next run for that recipient, and a forged or
 * other-purpose token is refused; above the size limit the mail carries download links instead.
 */
import ExcelJS from 'exceljs';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../../src/server/jobs/run-records.ts';
import { dueSubscriptions } from '../../../src/server/subscriptions/due.ts';
import {
  runSubscription,
  SUBSCRIPTION_RUN,
  type SubscriptionRunOptions,
} from '../../../src/server/subscriptions/run.ts';
import { subscriptionRuns } from '../../../src/server/subscriptions/subscription-store.ts';
import { linkKey, signLink } from '../../../src/server/subscriptions/signed-links.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { testJobContext } from '../../helpers/job-context.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../../helpers/smtp.ts';
import { pdfText } from '../counting/pdf-text.ts';
import { type Chain, seedChain } from '../fixtures.ts';
import { waitUntil } from '../jobs/queue-helpers.ts';

const PUBLIC_URL = 'https://bo.example.test';
/** 06:00 in Paris on 3 March 2026 (winter time): yesterday is 2 March, the seeded sales day. */
const PLANNED = new Date('2026-03-03T05:00:00Z');
const PASSWORD = 'Secret-Password-1';

let t: TestApp;
let mailbox: TestMailbox;
let chain: Chain;
let options: SubscriptionRunOptions;
let owner: number;
let admin: number;
let ownerAuth: AuthHeaders;
let adminAuth: AuthHeaders;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({ config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL } });
  chain = await seedChain(t.database.pool);
  admin = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: ['CONFIGURATION', 'RAPPORTS'],
    allSites: true,
  });
  adminAuth = await t.signIn('admin', PASSWORD);
  options = {
    database: t.database,
    distribution: 'Chaîne Test',
    linkBase: `${PUBLIC_URL}/api/recurrences`,
  };
});
afterEach(() => mailbox.reset());
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

let serial = 0;
/** A new owner (RAPPORTS on Paris, Lyon and Nantes) with a subscription to yesterday's sales there. */
async function ownerSubscription(
  fields: { formats?: string[]; siDonnees?: boolean; emails?: string[] } = {},
) {
  serial += 1;
  const login = `responsable${serial}`;
  owner = await t.createUser({
    login,
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon, chain.sites.nantes],
  });
  ownerAuth = await t.signIn(login, PASSWORD);
  const post = async (path: string, payload: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/${path}?id=${owner}`,
      headers: ownerAuth,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: number }>().id;
  };
  const regleId = await post('regles/save', {
    libelle: 'Tous les jours à 6 h',
    type: 'DAILY',
    heure: 6,
    minute: 0,
  });
  const destinataires = [];
  for (const email of fields.emails ?? ['direction@example.com'])
    destinataires.push(await post('destinataires/save', { email, langue: 'fr' }));
  const id = await post('abonnements/save', {
    libelle: 'Ventes de la veille',
    rapport: { lSites: [chain.sites.paris, chain.sites.lyon, chain.sites.nantes], periode: 'D-1' },
    formats: fields.formats ?? ['PDF', 'XLSX'],
    regleId,
    destinataires,
    siDonnees: fields.siDonnees ?? true,
  });
  return { id, destinataires };
}

/**
 * Queues a run of subscription `id` for `plannedAt` on the app's job queue, waits until it ended
 * and its mails left (by polling the run records, never a fixed sleep), and answers its history
 * entry (`outcome`), the keys of the mails it queued (`key|recipients`) and the files it recorded.
 */
async function run(id: number, plannedAt = PLANNED) {
  const { pool } = t.database;
  const data = { subscriptionId: id, plannedAt: plannedAt.toISOString() };
  const runId = (await t.app.jobs.enqueue(SUBSCRIPTION_RUN, data, { plannedAt }))!;
  await waitUntil(async () => ['succeeded', 'failed'].includes((await getRun(pool, runId))!.status));
  await waitForMailQueue(pool);
  const { rows } = await pool.query<{ key: string }>(
    `SELECT key || '|' || recipients AS key FROM job_mails WHERE run_id = $1 ORDER BY key`,
    [runId],
  );
  return {
    outcome: (await subscriptionRuns(pool, id))[0]!,
    keys: rows.map((r) => r.key),
    files: (await getRun(pool, runId))!.files,
  };
}

/** Runs subscription `id` in the test with other `runOptions` (as the job would, not queued). */
async function runWith(id: number, runOptions: SubscriptionRunOptions) {
  const ctx = testJobContext(t.database.pool, mailbox, PLANNED, new Date());
  try {
    return await runSubscription(runOptions, { subscriptionId: id, plannedAt: PLANNED.toISOString() }, ctx);
  } finally {
    ctx.close();
  }
}

/** bo/getReport's JSON totals of the owner's sales of `day` on `sites`. */
async function reportTotals(sites: number[], day = '2026-03-02') {
  const query = sites.map((s) => `sites[]=${s}`).join('&');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/bo/getReport?id=${owner}&rapportClassName=RapportVentes&format=JSON&dateDebut=${day}&dateFin=${day}&${query}`,
    headers: ownerAuth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ totals: Record<string, number> }>().totals;
}

/** The total net sales of the XLSX's totals row (the cell after "Total" holding money). */
async function xlsxNetSales(content: Buffer): Promise<number> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(content).buffer);
  const sheet = workbook.worksheets[0]!;
  const totals = sheet.getRow(sheet.rowCount);
  expect(totals.getCell(1).value).toBe('Total');
  const net = totals.getCell(5).value as { result: number };
  return Math.round(net.result * 100);
}

/** Money as French shows it, with plain spaces. */
const euros = (cents: number) =>
  new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })
    .format(cents / 100)
    .replace(/[\s\u00a0\u202f]+/g, ' ');

/** A header of `mail` as sent (mailparser reads List-* headers into its own shape), unfolded. */
const header = (mail: ParsedMail, key: string) =>
  mail.headerLines
    .find((h) => h.key === key)
    ?.line.slice(key.length + 1)
    .replace(/\r?\n\s+/g, '')
    .trim();

const attachment = (mail: ParsedMail, ext: string) => mail.attachments.find((a) => a.filename?.endsWith(ext));

describe('a subscription run', () => {
  it('is due at 06:00 Paris time with its singleton key, and not at the next minute', async () => {
    const { id } = await ownerSubscription();
    const due = await dueSubscriptions(t.database.pool, new Date('2026-03-03T04:59:00Z'), PLANNED);
    expect(due.filter((d) => d.data.subscriptionId === id)).toEqual([
      {
        kind: 'subscription.run',
        data: { subscriptionId: id, plannedAt: PLANNED.toISOString() },
        plannedAt: PLANNED,
        singletonKey: `subscription:${id}:${PLANNED.toISOString()}`,
      },
    ]);
    const later = await dueSubscriptions(t.database.pool, PLANNED, new Date('2026-03-03T05:01:00Z'));
    expect(later.filter((d) => d.data.subscriptionId === id)).toEqual([]);
  });

  it('is due at 06:00 of its site’s own zone (Seoul), and at Paris time when its sites span two zones', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO sites (libelle, company_id, time_zone) VALUES ('Séoul', $1, 'Asia/Seoul') RETURNING id`,
      [chain.companies.alpha],
    );
    const seoul = rows[0]!.id;
    const user = await t.createUser({
      login: 'seoul',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [seoul, chain.sites.paris],
    });
    const headers = await t.signIn('seoul', PASSWORD);
    const post = async (path: string, payload: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/bo/recurrences/${path}?id=${user}`,
          headers,
          payload,
        })
      ).json<{ id: number }>().id;
    const regleId = await post('regles/save', { libelle: '6 h', type: 'DAILY', heure: 6 });
    const destinataires = [await post('destinataires/save', { email: 'seoul@example.com' })];
    const subscription = (lSites: number[]) =>
      post('abonnements/save', {
        libelle: 'x',
        rapport: { lSites },
        formats: ['CSV'],
        regleId,
        destinataires,
      });
    const alone = await subscription([seoul]);
    const both = await subscription([seoul, chain.sites.paris]);
    const dueIds = async (from: string, to: string) =>
      (await dueSubscriptions(t.database.pool, new Date(from), new Date(to))).map(
        (d) => d.data.subscriptionId,
      );
    // 06:00 in Seoul on 3 March is 21:00 UTC on 2 March; 06:00 in Paris is 05:00 UTC.
    expect(await dueIds('2026-03-02T20:59:00Z', '2026-03-02T21:00:00Z')).toContain(alone);
    expect(await dueIds('2026-03-02T20:59:00Z', '2026-03-02T21:00:00Z')).not.toContain(both);
    expect(await dueIds('2026-03-03T04:59:00Z', '2026-03-03T05:00:00Z')).toContain(both);
    expect(await dueIds('2026-03-03T04:59:00Z', '2026-03-03T05:00:00Z')).not.toContain(alone);
  });

  it('mails the PDF and the XLSX, whose totals equal bo/getReport to the cent', async () => {
    const { id, destinataires } = await ownerSubscription();
    const { outcome, keys, files } = await run(id);
    expect(outcome).toMatchObject({ statut: 'SENT', mails: 1, tentatives: 1, erreur: null });
    expect(keys).toEqual([
      `subscription:${id}:${PLANNED.toISOString()}:${destinataires[0]}|direction@example.com`,
    ]);
    expect(mailbox.received).toHaveLength(1);
    const mail = mailbox.received[0]!;
    expect(mail.to).toMatchObject({ text: 'direction@example.com' });
    expect(mail.subject).toBe('Ventes de la veille — 02/03/2026');
    expect(mail.text).toContain('Paris, Lyon, Nantes');
    expect(mail.html).toContain('Ventes de la veille');
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header(mail, 'list-unsubscribe')).toContain(`${PUBLIC_URL}/api/recurrences/desabonnement?token=`);

    const totals = await reportTotals([chain.sites.paris, chain.sites.lyon, chain.sites.nantes]);
    // The seed: Paris 300.50, Lyon 50.00, Nantes 9.99 on 2 March.
    expect(totals.netSales).toBe(30050 + 5000 + 999);
    expect(await xlsxNetSales(attachment(mail, '.xlsx')!.content)).toBe(totals.netSales);
    const pdf = (await pdfText(attachment(mail, '.pdf')!.content)).replace(/\s+/g, ' ');
    expect(pdf).toContain(`Total ${totals.tickets} ${euros(totals.netSales!)}`);
    expect(files.map((f) => f.name)).toEqual([
      expect.stringMatching(/\.pdf$/),
      expect.stringMatching(/\.xlsx$/),
    ]);
  });

  it('runs with the owner’s sites of the day: a site they lost gives no more data', async () => {
    const { id } = await ownerSubscription();
    await t.database.pool.query(
      `UPDATE profiles SET restaurant_ids = $2 WHERE id = (SELECT profile_id FROM users WHERE id = $1)`,
      [owner, [chain.sites.paris]],
    );
    await run(id);
    const mail = mailbox.received[0]!;
    expect(mail.text).toContain('Paris');
    expect(mail.text).not.toContain('Lyon');
    expect(await xlsxNetSales(attachment(mail, '.xlsx')!.content)).toBe(30050);
    expect(await pdfText(attachment(mail, '.pdf')!.content)).not.toContain('Lyon');
  });

  it('an owner deactivated suspends it: nothing is due, nothing is sent, and it shows so', async () => {
    const { id } = await ownerSubscription();
    await t.database.pool.query('UPDATE users SET active = false WHERE id = $1', [owner]);
    const due = await dueSubscriptions(t.database.pool, new Date('2026-03-03T04:59:00Z'), PLANNED);
    expect(due.filter((d) => d.data.subscriptionId === id)).toEqual([]);
    const { outcome } = await run(id);
    expect(outcome).toMatchObject({ statut: 'SUSPENDED', mails: 0 });
    expect(mailbox.received).toHaveLength(0);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/bo/recurrences/abonnements?id=${admin}`,
      headers: adminAuth,
    });
    expect(list.json().abonnements.find((s: { id: number }) => s.id === id)).toMatchObject({
      suspendu: true,
      dernierEnvoi: { statut: 'SUSPENDED' },
    });
  });

  it('a subscription removed after its run was queued sends nothing and fails nothing', async () => {
    const { id } = await ownerSubscription();
    await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/abonnements/remove?id=${owner}&abonnementId=${id}`,
      headers: ownerAuth,
    });
    expect((await run(id)).outcome).toMatchObject({ statut: 'EMPTY', mails: 0, erreur: null });
    expect(mailbox.received).toHaveLength(0);
  });

  it('an owner removed suspends it too', async () => {
    const { id } = await ownerSubscription();
    await t.database.pool.query('DELETE FROM sessions WHERE user_id = $1', [owner]);
    await t.database.pool.query('DELETE FROM users WHERE id = $1', [owner]);
    const { outcome } = await run(id);
    expect(outcome).toMatchObject({ statut: 'SUSPENDED' });
    expect(mailbox.received).toHaveLength(0);
  });

  it('"send only if there is data" sends nothing on an empty period; without it, a mail without files', async () => {
    const empty = new Date('2026-03-10T05:00:00Z');
    const only = await ownerSubscription();
    expect((await run(only.id, empty)).outcome).toMatchObject({ statut: 'EMPTY', mails: 0 });
    expect(mailbox.received).toHaveLength(0);
    const always = await ownerSubscription({ siDonnees: false });
    expect((await run(always.id, empty)).outcome).toMatchObject({ statut: 'EMPTY', mails: 1 });
    expect(mailbox.received).toHaveLength(1);
    expect(mailbox.received[0]!.attachments).toEqual([]);
    expect(mailbox.received[0]!.text).toContain("Il n'y a aucune donnée pour cette période.");
  });

  it('the unsubscribe link stops the next run for that recipient only', async () => {
    const { id } = await ownerSubscription({
      formats: ['CSV'],
      emails: ['leaves@example.com', 'stays@example.com'],
    });
    await run(id);
    expect(mailbox.received.map((m) => (m.to as { text: string }).text).sort()).toEqual([
      'leaves@example.com',
      'stays@example.com',
    ]);
    const leaving = mailbox.received.find((m) => (m.to as { text: string }).text === 'leaves@example.com')!;
    const link = (header(leaving, 'list-unsubscribe') ?? '').replace(/^<|>$/g, '').replace(PUBLIC_URL, '');
    // The page asks first and changes nothing; no session, no X-Requested-With (a mail client).
    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('leaves@example.com');
    expect(page.body).toContain('<form method="post"');
    // RFC 8058 one-click: the mail client posts the form body.
    const done = await t.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('ne recevra plus');
    mailbox.reset();
    // The same day run again a minute later: the data is there, only one recipient is left.
    await run(id, new Date(PLANNED.getTime() + 60_000));
    expect(mailbox.received.map((m) => (m.to as { text: string }).text)).toEqual(['stays@example.com']);
    const { rows } = await t.database.pool.query(
      `SELECT user_id FROM audit_log WHERE action = 'subscription.unsubscribe' AND target_id = $1`,
      [String(id)],
    );
    expect(rows).toEqual([{ user_id: null }]);
  });

  it('a forged token or one made for another purpose is refused and changes nothing', async () => {
    const { id, destinataires } = await ownerSubscription({ formats: ['CSV'] });
    const key = await linkKey(t.database.pool);
    const good = signLink(key, { p: 'unsubscribe', s: id, r: destinataires[0]! });
    const forged = signLink(Buffer.alloc(32, 7), { p: 'unsubscribe', s: id, r: destinataires[0]! });
    const tampered = `${Buffer.from(JSON.stringify({ p: 'unsubscribe', s: id, r: destinataires[0]! + 1 })).toString('base64url')}.${good.split('.')[1]}`;
    const download = signLink(key, {
      p: 'download',
      s: id,
      t: PLANNED.toISOString(),
      f: 'CSV',
      l: 'fr',
      e: Date.now() + 60_000,
    });
    for (const token of [forged, tampered, download, 'garbage']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/recurrences/desabonnement?token=${encodeURIComponent(token)}`,
      });
      expect(res.statusCode, token).toBe(404);
    }
    // A person following a broken link sees a page saying so; an API client gets SPEC.md §8's body.
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/recurrences/desabonnement?token=${encodeURIComponent(forged)}`,
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Ce lien n&#39;est pas valable.');
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/recurrences/desabonnement?token=${encodeURIComponent(forged)}`,
    });
    expect(api.json()).toMatchObject({ code: 'NotFound' });
    await run(id);
    expect(mailbox.received).toHaveLength(1);
  });

  it('above the size limit, the mail carries download links that work and expire instead of files', async () => {
    const { id } = await ownerSubscription({ formats: ['CSV'] });
    await runWith(id, { ...options, maxAttachmentBytes: 10 });
    const mail = mailbox.received[0]!;
    expect(mail.attachments).toEqual([]);
    const href = /href="([^"]*\/api\/recurrences\/fichier\?token=[^"]+)"/
      .exec(mail.html as string)![1]!
      .replaceAll('&amp;', '&');
    const file = await t.app.inject({ method: 'GET', url: href.replace(PUBLIC_URL, '') });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.body).toContain('Paris');
    const key = await linkKey(t.database.pool);
    const expired = signLink(key, {
      p: 'download',
      s: id,
      t: PLANNED.toISOString(),
      f: 'CSV',
      l: 'fr',
      e: Date.now() - 1,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/recurrences/fichier?token=${expired}` })).statusCode,
    ).toBe(404);
  });

  it('"send now" answers once the run is queued; the mail leaves from the queue and the history follows it', async () => {
    const { id } = await ownerSubscription({ formats: ['CSV'] });
    // Yesterday of today has no sales in the seed; this subscription sends anyway.
    await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/abonnements/save?id=${owner}`,
      headers: ownerAuth,
      payload: {
        id,
        libelle: 'Toujours',
        rapport: { periode: 'D-1' },
        formats: ['CSV'],
        regleId: (await firstRule()).id,
        destinataires: (await firstSub(id)).destinataires,
        siDonnees: false,
      },
    });
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/abonnements/send?id=${owner}&abonnementId=${id}`,
      headers: ownerAuth,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ statut: 'QUEUED', tentatives: 0, mails: 0, termine: null });
    const history = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/bo/recurrences/abonnements/envois?id=${owner}&abonnementId=${id}`,
          headers: ownerAuth,
        })
      ).json<{ envois: { statut: string }[] }>().envois;
    await waitForMail(mailbox, 1);
    await waitUntil(async () => (await history())[0]?.statut === 'EMPTY');
    expect(await history()).toEqual([
      {
        planifie: sent.json().planifie,
        termine: expect.any(String),
        statut: 'EMPTY',
        tentatives: 1,
        mails: 1,
        fichiers: [],
        erreur: null,
      },
    ]);
    const mail = mailbox.received[0]!;
    expect(mail.to).toMatchObject({ text: 'direction@example.com' });
    expect(mail.text).toContain("Il n'y a aucune donnée pour cette période.");
    // The list shows the same run as the last one.
    expect((await firstSub(id)) as unknown).toMatchObject({ dernierEnvoi: { statut: 'EMPTY', mails: 1 } });
    // A second "send now" is a second run, with its own mail.
    mailbox.reset();
    await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/abonnements/send?id=${owner}&abonnementId=${id}`,
      headers: ownerAuth,
    });
    await waitForMail(mailbox, 1);
    await waitUntil(async () => (await history()).filter((r) => r.statut === 'EMPTY').length === 2);
  });
});

async function firstRule() {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/bo/recurrences/regles?id=${owner}`,
    headers: ownerAuth,
  });
  return res.json<{ regles: { id: number }[] }>().regles[0]!;
}
async function firstSub(id: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/bo/recurrences/abonnements?id=${owner}`,
    headers: ownerAuth,
  });
  return res
    .json<{ abonnements: { id: number; destinataires: number[] }[] }>()
    .abonnements.find((s) => s.id === id)!;
}
