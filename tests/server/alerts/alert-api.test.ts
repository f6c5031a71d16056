/**
 * The alert calls (issue #28 "Alerts") through HTTP on a real PostgreSQL, the job queue and the
 * real SMTP server: save, list, remove, each audit-logged; a user sees only their own alerts and
 * saves only the kinds their rights allow, an administrator every alert; "check now" mails
 * through the queue, and a second "check now" of the same day mails nothing more.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../../helpers/smtp.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PUBLIC_URL = 'https://bo.example.test';
const PASSWORD = 'Secret-Password-1';

let t: TestApp;
let mailbox: TestMailbox;
let chain: Chain;
let owner: number;
let ownerAuth: AuthHeaders;
let other: number;
let otherAuth: AuthHeaders;
let admin: number;
let adminAuth: AuthHeaders;

beforeAll(async () => {
  mailbox = await openTestMailbox();
  t = await createTestApp({ config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL } });
  chain = await seedChain(t.database.pool);
  owner = await t.createUser({
    login: 'gerant',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris],
  });
  ownerAuth = await t.signIn('gerant', PASSWORD);
  other = await t.createUser({
    login: 'autre',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.lyon],
  });
  otherAuth = await t.signIn('autre', PASSWORD);
  admin = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: ['CONFIGURATION'],
    allSites: true,
  });
  adminAuth = await t.signIn('admin', PASSWORD);
});
afterEach(() => mailbox.reset());
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

async function call(
  method: 'GET' | 'POST',
  path: string,
  as: { id: number; auth: AuthHeaders },
  payload?: object,
) {
  const sep = path.includes('?') ? '&' : '?';
  return t.app.inject({
    method,
    url: `/api/bo/recurrences/${path}${sep}id=${as.id}`,
    headers: as.auth,
    ...(payload ? { payload } : {}),
  });
}

/** A rule at 07:00 and a recipient of the owner's. */
async function ruleAndRecipient() {
  const me = { id: owner, auth: ownerAuth };
  const rule = await call('POST', 'regles/save', me, { libelle: '7 h', type: 'DAILY', heure: 7 });
  const recipient = await call('POST', 'destinataires/save', me, {
    email: 'direction@example.com',
    langue: 'en',
  });
  expect(rule.statusCode, rule.body).toBe(200);
  return { regleId: rule.json<{ id: number }>().id, destinataireId: recipient.json<{ id: number }>().id };
}

describe('alerts API', () => {
  it('saves, lists and removes one’s own alerts, audit-logged, dropping sites outside the scope', async () => {
    const me = { id: owner, auth: ownerAuth };
    const { regleId, destinataireId } = await ruleAndRecipient();
    const saved = await call('POST', 'alertes/save', me, {
      libelle: 'Comptages',
      type: 'countMissing',
      sites: [chain.sites.paris, chain.sites.lyon],
      regleId,
      destinataires: [destinataireId],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const alert = saved.json<{ id: number }>();
    expect(alert).toMatchObject({
      proprietaireId: owner,
      proprietaire: 'gerant',
      libelle: 'Comptages',
      type: 'countMissing',
      sites: [chain.sites.paris],
      regleId,
      destinataires: [destinataireId],
      active: true,
    });
    const listed = await call('GET', 'alertes', me);
    expect(listed.json()).toEqual({ alertes: [alert] });
    // Another user neither sees it nor removes it; the administrator sees it.
    expect((await call('GET', 'alertes', { id: other, auth: otherAuth })).json()).toEqual({ alertes: [] });
    const foreign = await call('POST', `alertes/remove?alerteId=${alert.id}`, { id: other, auth: otherAuth });
    expect(foreign.statusCode).toBe(404);
    const all = await call('GET', 'alertes', { id: admin, auth: adminAuth });
    expect(all.json<{ alertes: { id: number }[] }>().alertes.map((a) => a.id)).toContain(alert.id);

    const removed = await call('POST', `alertes/remove?alerteId=${alert.id}`, me);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', 'alertes', me)).json()).toEqual({ alertes: [] });
    const { rows } = await t.database.pool.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE target_id = $1 AND action LIKE $2 ORDER BY id',
      [String(alert.id), 'alert.%'],
    );
    expect(rows.map((r) => r.action)).toEqual(['alert.create', 'alert.remove']);
  });

  it('refuses a kind the user’s rights do not allow (newAnomaly needs RAPPORTS_ANOMALIES)', async () => {
    const { regleId, destinataireId } = await ruleAndRecipient();
    const res = await call(
      'POST',
      'alertes/save',
      { id: owner, auth: ownerAuth },
      {
        libelle: 'Anomalies',
        type: 'newAnomaly',
        sites: [chain.sites.paris],
        regleId,
        destinataires: [destinataireId],
      },
    );
    expect(res.statusCode, res.body).toBe(403);
  });

  it('checks now through the job queue, and a second check of the same day mails nothing more', async () => {
    const me = { id: owner, auth: ownerAuth };
    const { regleId, destinataireId } = await ruleAndRecipient();
    const saved = await call('POST', 'alertes/save', me, {
      libelle: 'Comptages',
      type: 'countMissing',
      sites: [chain.sites.paris],
      regleId,
      destinataires: [destinataireId],
    });
    const alertId = saved.json<{ id: number }>().id;
    // Yesterday's fiscal day of Paris (as the check sees it now): terminal 1 sold, nothing counted.
    const { rows } = await t.database.pool.query<{ d: string }>(
      `SELECT ((now() AT TIME ZONE 'Europe/Paris')::date - 1)::text AS d`,
    );
    await t.database.pool.query(
      `INSERT INTO daily_terminal_sales (site_id, fiscal_date, terminal_id, tickets, net_cents, net_excl_cents)
       VALUES ($1, $2, 1, 3, 4500, 3750)`,
      [chain.sites.paris, rows[0]!.d],
    );
    const first = await call('POST', `alertes/check?alerteId=${alertId}`, me);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ mails: 1 });
    await waitForMail(mailbox, 1);
    expect(mailbox.received[0]!.subject).toMatch(/^Comptages — missing count at Paris on \d\d\/\d\d\/\d{4}$/);
    expect(mailbox.received[0]!.text).toContain('the cash count is missing for terminal 1');

    const second = await call('POST', `alertes/check?alerteId=${alertId}`, me);
    expect(second.statusCode, second.body).toBe(200);
    await waitForMailQueue(t.database.pool);
    expect(mailbox.received).toHaveLength(1);
  });
});
