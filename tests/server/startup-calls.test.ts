/**
 * The guided start-up's calls (issue #30, decision record 0041): on a new installation without
 * the demo chain the administrator is led to the wizard; `GET bo/miseEnRoute` refuses with the
 * missing steps until a company and a site exist, the administrator replaced their password and a
 * test mail was sent (to the `.eml` outbox without SMTP_URL), then answers SuccessMiseEnRoute and
 * writes it to the audit log; every call needs ACCES_BASE.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../src/contract/rights.ts';
import { StartupStateSchema } from '../../src/contract/startup.ts';
import { MAIL_QUOTAS } from '../../src/server/mail/mail-quota.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { waitForMailQueue } from '../helpers/smtp.ts';

const PASSWORD = 'Genere-Mot2passe';
/** One Idempotency-Key (a UUID) per write the tests repeat or send once. */
const KEYS = {
  'k-403': randomUUID(),
  'k-early': randomUUID(),
  'k-mail': randomUUID(),
  'k-end': randomUUID(),
};
const OWN_PASSWORD = 'Mon-Propre-Mot2passe';
let dataDir: string;
let t: TestApp;
let admin: { id: number; headers: AuthHeaders };
let configurer: { id: number; headers: AuthHeaders };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-startup-'));
  t = await createTestApp({ config: { dataDir, smtpUrl: undefined, demo: false } });
  const adminId = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: RIGHTS.filter((r) => r !== 'LIMITATION_SITE'),
    allSites: true,
  });
  const configurerId = await t.createUser({
    login: 'config',
    password: PASSWORD,
    droits: ['CONFIGURATION'],
    allSites: true,
  });
  admin = { id: adminId, headers: await t.signIn('admin', PASSWORD) };
  configurer = { id: configurerId, headers: await t.signIn('config', PASSWORD) };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function get(url: string, headers: AuthHeaders, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/${url}`, headers: { ...headers, ...extra } });
}
function post(url: string, payload: object, headers: AuthHeaders, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: `/api/${url}`, payload, headers: { ...headers, ...extra } });
}
async function state() {
  const res = await get(`bo/miseEnRoute/etat?id=${admin.id}`, admin.headers);
  expect(res.statusCode).toBe(200);
  return StartupStateSchema.parse(res.json());
}
async function auditActions(action: string): Promise<{ user_id: number | null; after: unknown }[]> {
  const { rows } = await t.database.pool.query<{ user_id: number | null; after: unknown }>(
    'SELECT user_id, after FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );
  return rows;
}

describe('the start-up of a new installation', () => {
  it('refuses every start-up call to a user without ACCES_BASE (403), and writes nothing', async () => {
    const h = configurer.headers;
    expect((await get(`bo/miseEnRoute/etat?id=${configurer.id}`, h)).statusCode).toBe(403);
    expect(
      (await get(`bo/miseEnRoute?id=${configurer.id}`, h, { 'idempotency-key': KEYS['k-403'] })).statusCode,
    ).toBe(403);
    const mail = await post(`bo/miseEnRoute/mailTest?id=${configurer.id}`, { email: 'x@example.com' }, h);
    expect(mail.statusCode).toBe(403);
    expect(await auditActions('startup.testMail')).toEqual([]);
    expect(await auditActions('startup.complete')).toEqual([]);
  });

  it('refuses another user’s id (403)', async () => {
    expect((await get(`bo/miseEnRoute/etat?id=${configurer.id}`, admin.headers)).statusCode).toBe(403);
  });

  it('leads the administrator to the wizard on a new installation: nothing done yet', async () => {
    expect(await state()).toEqual({
      complete: false,
      completeLe: null,
      guider: true,
      etapes: { societe: false, motDePasse: false, mail: false },
      societes: 0,
      sites: 0,
      mail: 'outbox',
      mailEnvoyeA: null,
    });
  });

  it('refuses to end the start-up while steps are missing (409 with the steps), writing nothing', async () => {
    const res = await get(`bo/miseEnRoute?id=${admin.id}`, admin.headers, {
      'idempotency-key': KEYS['k-early'],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'MiseEnRouteIncomplete',
      details: { missing: ['societe', 'motDePasse', 'mail'] },
    });
    expect(await auditActions('startup.complete')).toEqual([]);
  });

  it('counts the first company and site made with the administration’s calls', async () => {
    const company = await post('bo/infra/newSociete', { raisonSociale: 'Première SAS' }, admin.headers);
    expect(company.statusCode).toBe(200);
    expect((await state()).etapes.societe).toBe(false); // a company without a site is not enough
    const site = await post(
      'bo/infra/newSite',
      {
        libelle: 'Lyon',
        societeId: company.json<{ id: number }>().id,
        currency: 'EUR',
        timeZone: 'Europe/Paris',
        dayStart: '05:00',
      },
      admin.headers,
    );
    expect(site.statusCode).toBe(200);
    expect(await state()).toMatchObject({ etapes: { societe: true }, societes: 1, sites: 1 });
  });

  it('counts the administrator’s own password change, not another user’s', async () => {
    const changed = await post(
      `bo/infra/saveUtilisateur?id=${configurer.id}`,
      {
        updatePassword: true,
        currentPassword: PASSWORD,
        password: OWN_PASSWORD,
        rePasswordKey: OWN_PASSWORD,
      },
      configurer.headers,
    );
    expect(changed.statusCode).toBe(200);
    expect((await state()).etapes.motDePasse).toBe(false);
    const own = await post(
      `bo/infra/saveUtilisateur?id=${admin.id}`,
      {
        updatePassword: true,
        currentPassword: PASSWORD,
        password: OWN_PASSWORD,
        rePasswordKey: OWN_PASSWORD,
      },
      admin.headers,
    );
    expect(own.statusCode).toBe(200);
    expect((await state()).etapes.motDePasse).toBe(true);
  });

  it('sends the test mail through the mail queue into the .eml outbox, once per Idempotency-Key, audit-logged', async () => {
    const bad = await post(
      `bo/miseEnRoute/mailTest?id=${admin.id}`,
      { email: 'not an address' },
      admin.headers,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BadRequest');
    const send = () =>
      post(`bo/miseEnRoute/mailTest?id=${admin.id}`, { email: 'chef@example.com' }, admin.headers, {
        'idempotency-key': KEYS['k-mail'],
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ code: 'MailEnvoye', recipients: ['chef@example.com'], mode: 'outbox' });
    expect((await send()).json()).toEqual(first.json());
    await waitForMailQueue(t.database.pool);
    const outbox = path.join(dataDir, 'mail-outbox');
    const files = (await readdir(outbox)).filter((n) => n.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(path.join(outbox, files[0]!)));
    expect(mail.to).toMatchObject({ value: [{ address: 'chef@example.com' }] });
    expect(mail.subject).toContain('e-mail de test');
    expect(await auditActions('startup.testMail')).toEqual([
      { user_id: admin.id, after: { to: 'chef@example.com' } },
    ]);
    expect(await state()).toMatchObject({ etapes: { mail: true }, mailEnvoyeA: 'chef@example.com' });
  });

  it('ends with SuccessMiseEnRoute once every step is done, audit-logged, and stops leading to the wizard', async () => {
    const end = () =>
      get(`bo/miseEnRoute?id=${admin.id}`, admin.headers, { 'idempotency-key': KEYS['k-end'] });
    const res = await end();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'SuccessMiseEnRoute' });
    expect((await end()).json()).toEqual(res.json()); // a repeat answers the first answer
    const entries = await auditActions('startup.complete');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.user_id).toBe(admin.id);
    const after = await state();
    expect(after).toMatchObject({ complete: true, guider: false, completeLe: res.json().completeLe });
  });

  it('refuses a test mail past the address’s hourly quota with ErreurEnvoiMail, queuing and recording nothing', async () => {
    const send = () =>
      post(`bo/miseEnRoute/mailTest?id=${admin.id}`, { email: 'flood@example.com' }, admin.headers, {
        'idempotency-key': randomUUID(),
      });
    for (let i = 0; i < MAIL_QUOTAS['mail-recipient'].max; i++) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ErreurEnvoiMail' });
    const sent = (await auditActions('startup.testMail')).filter((e) =>
      JSON.stringify(e.after).includes('flood'),
    );
    expect(sent).toHaveLength(MAIL_QUOTAS['mail-recipient'].max);
  });

  it('has no HEAD twin for GET bo/miseEnRoute (a HEAD would act too)', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: `/api/bo/miseEnRoute?id=${admin.id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).not.toBe(200);
    expect(await auditActions('startup.complete')).toHaveLength(1);
  });
});

describe('the start-up with the demo chain', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await createTestApp({ config: { demo: true } });
  }, 60_000);
  afterAll(async () => {
    await demo?.close();
  });

  it('leads nobody to the wizard (COMPTOIR_DEMO=1), though it can be opened', async () => {
    const id = await demo.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ['ACCES_BASE'],
      allSites: true,
    });
    const headers = await demo.signIn('admin', PASSWORD);
    const res = await demo.app.inject({ method: 'GET', url: `/api/bo/miseEnRoute/etat?id=${id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ complete: false, guider: false });
  });
});
