/**
 * The API of rules, recipients and subscriptions (issue #28) on a real PostgreSQL: a RAPPORTS
 * user sees and changes only their own rows, an administrator every row; every change is in the
 * audit log; what the contract refuses is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

let t: TestApp;
let chain: Chain;
const users = { admin: 0, alice: 0, bob: 0, cashier: 0 };
const auth: Record<keyof typeof users, AuthHeaders> = { admin: {}, alice: {}, bob: {}, cashier: {} };

beforeAll(async () => {
  t = await createTestApp();
  chain = await seedChain(t.database.pool);
  users.admin = await t.createUser({
    login: 'admin',
    password: 'Pw-admin-secret-1',
    droits: ['CONFIGURATION', 'RAPPORTS'],
    allSites: true,
  });
  users.alice = await t.createUser({
    login: 'alice',
    password: 'Pw-alice-secret-1',
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon],
  });
  users.bob = await t.createUser({
    login: 'bob',
    password: 'Pw-bob-secret-1',
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris],
  });
  users.cashier = await t.createUser({
    login: 'cashier',
    password: 'Pw-cashier-secret-1',
    droits: ['TICKETS'],
    allSites: true,
  });
  for (const name of Object.keys(users) as (keyof typeof users)[])
    auth[name] = await t.signIn(name, `Pw-${name}-secret-1`);
});
afterAll(async () => t.close());

/** A call as `who` to `path` (under /api/bo/recurrences) with the caller's `id`. */
async function call(who: keyof typeof users, method: 'GET' | 'POST', path: string, payload?: object) {
  const sep = path.includes('?') ? '&' : '?';
  return t.app.inject({
    method,
    url: `/api/bo/recurrences/${path}${sep}id=${users[who]}`,
    headers: auth[who],
    ...(payload ? { payload } : {}),
  });
}

/** Alice's rule, recipient and subscription, created through the API. */
async function aliceSubscription() {
  const rule = await call('alice', 'POST', 'regles/save', {
    libelle: 'Chaque matin',
    type: 'DAILY',
    heure: 6,
    minute: 0,
  });
  expect(rule.statusCode, rule.body).toBe(200);
  const recipient = await call('alice', 'POST', 'destinataires/save', {
    email: 'compta@example.com',
    langue: 'en',
  });
  expect(recipient.statusCode, recipient.body).toBe(200);
  const sub = await call('alice', 'POST', 'abonnements/save', {
    libelle: 'Ventes de la veille',
    rapport: { lSites: [chain.sites.paris, chain.sites.lyon, chain.sites.nantes], periode: 'D-1' },
    formats: ['PDF', 'XLSX'],
    regleId: rule.json().id,
    destinataires: [recipient.json().id],
  });
  expect(sub.statusCode, sub.body).toBe(200);
  return { rule: rule.json(), recipient: recipient.json(), sub: sub.json() };
}

describe('rules, recipients and subscriptions', () => {
  it('a RAPPORTS user creates their own; the sites outside their scope are dropped', async () => {
    const { rule, recipient, sub } = await aliceSubscription();
    expect(rule).toMatchObject({
      libelle: 'Chaque matin',
      type: 'DAILY',
      heure: 6,
      minute: 0,
      proprietaireId: users.alice,
    });
    expect(recipient).toMatchObject({
      email: 'compta@example.com',
      adresse: 'compta@example.com',
      langue: 'en',
    });
    expect(sub).toMatchObject({
      proprietaireId: users.alice,
      proprietaire: 'alice',
      suspendu: false,
      formats: ['PDF', 'XLSX'],
      destinataires: [recipient.id],
      desabonnes: [],
      siDonnees: true,
      dernierEnvoi: null,
    });
    // Nantes is not in alice's scope.
    expect(sub.rapport.lSites).toEqual([chain.sites.paris, chain.sites.lyon]);
  });

  it('another RAPPORTS user neither sees nor changes them (404, as a row that does not exist)', async () => {
    const { rule, recipient, sub } = await aliceSubscription();
    for (const list of ['regles', 'destinataires', 'abonnements']) {
      const res = await call('bob', 'GET', list);
      expect(res.statusCode).toBe(200);
      expect(JSON.stringify(res.json())).not.toContain(`"proprietaireId":${users.alice}`);
    }
    const changed = await call('bob', 'POST', 'abonnements/save', {
      id: sub.id,
      libelle: 'pris',
      rapport: {},
      formats: ['CSV'],
      regleId: rule.id,
      destinataires: [recipient.id],
    });
    expect(changed.statusCode).toBe(404);
    expect((await call('bob', 'POST', `abonnements/remove?abonnementId=${sub.id}`)).statusCode).toBe(404);
    expect((await call('bob', 'POST', `regles/remove?regleId=${rule.id}`)).statusCode).toBe(404);
    expect(
      (await call('bob', 'POST', `destinataires/remove?destinataireId=${recipient.id}`)).statusCode,
    ).toBe(404);
    expect((await call('bob', 'GET', `abonnements/envois?abonnementId=${sub.id}`)).statusCode).toBe(404);
    // Nor can bob use alice's rule or recipient in a subscription of his own.
    const borrowed = await call('bob', 'POST', 'abonnements/save', {
      libelle: 'emprunt',
      rapport: {},
      formats: ['CSV'],
      regleId: rule.id,
      destinataires: [recipient.id],
    });
    expect(borrowed.statusCode).toBe(404);
  });

  it('an administrator sees and changes every row', async () => {
    const { rule, recipient, sub } = await aliceSubscription();
    const list = await call('admin', 'GET', 'abonnements');
    expect(list.json().abonnements.map((s: { id: number }) => s.id)).toContain(sub.id);
    const saved = await call('admin', 'POST', 'abonnements/save', {
      id: sub.id,
      libelle: 'Renommé par l’administrateur',
      rapport: sub.rapport,
      formats: ['CSV'],
      regleId: rule.id,
      destinataires: [recipient.id],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The owner stays alice: the subscription still runs with her rights.
    expect(saved.json()).toMatchObject({
      libelle: 'Renommé par l’administrateur',
      formats: ['CSV'],
      proprietaireId: users.alice,
    });
    expect((await call('admin', 'POST', `abonnements/remove?abonnementId=${sub.id}`)).statusCode).toBe(200);
    expect((await call('alice', 'GET', `abonnements/envois?abonnementId=${sub.id}`)).statusCode).toBe(404);
  });

  it('a user changes the sites and class of their own; only an administrator gives one to another owner, audited', async () => {
    const { rule, recipient, sub } = await aliceSubscription();
    const body = {
      id: sub.id,
      libelle: sub.libelle,
      rapport: { ...sub.rapport, rapportClassName: 'RapportFamilles', lSites: [chain.sites.lyon] },
      formats: sub.formats,
      regleId: rule.id,
      destinataires: [recipient.id],
    };
    const changed = await call('alice', 'POST', 'abonnements/save', body);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().rapport).toMatchObject({
      rapportClassName: 'RapportFamilles',
      lSites: [chain.sites.lyon],
    });
    // Alice cannot give it away, even to herself through another id.
    const refused = await call('alice', 'POST', 'abonnements/save', { ...body, proprietaireId: users.bob });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'Forbidden' });
    expect(
      (await call('alice', 'POST', 'abonnements/save', { ...body, proprietaireId: users.alice })).statusCode,
    ).toBe(200);
    // The administrator gives it to Bob, whose scope is Paris only: Lyon is dropped (none left: 400).
    const outOfScope = await call('admin', 'POST', 'abonnements/save', {
      ...body,
      proprietaireId: users.bob,
    });
    expect(outOfScope.statusCode).toBe(400);
    expect(outOfScope.json()).toMatchObject({ code: 'NoSitesSelected' });
    const given = await call('admin', 'POST', 'abonnements/save', {
      ...body,
      rapport: { ...body.rapport, lSites: [chain.sites.paris, chain.sites.lyon] },
      proprietaireId: users.bob,
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toMatchObject({ proprietaireId: users.bob, proprietaire: 'bob' });
    expect(given.json().rapport.lSites).toEqual([chain.sites.paris]);
    expect(
      (await call('bob', 'GET', 'abonnements')).json().abonnements.map((s: { id: number }) => s.id),
    ).toContain(sub.id);
    expect(
      (await call('admin', 'POST', 'abonnements/save', { ...body, proprietaireId: 999_999 })).statusCode,
    ).toBe(404);
    const { rows } = await t.database.pool.query<{
      user_id: number;
      before: { proprietaireId: number };
      after: { proprietaireId: number };
    }>(
      `SELECT user_id, before, after FROM audit_log WHERE action = 'subscription.save' AND target_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(sub.id)],
    );
    expect(rows[0]).toMatchObject({
      user_id: users.admin,
      before: { proprietaireId: users.alice },
      after: { proprietaireId: users.bob },
    });
  });

  it('every change is in the audit log, with who made it', async () => {
    const { rule, sub } = await aliceSubscription();
    await call('alice', 'POST', `abonnements/remove?abonnementId=${sub.id}`);
    const { rows } = await t.database.pool.query<{ action: string; user_id: number; target_id: string }>(
      `SELECT action, user_id, target_id FROM audit_log WHERE action LIKE 'subscription.%' OR action LIKE 'rule.%' ORDER BY id`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'rule.create', user_id: users.alice, target_id: String(rule.id) },
        { action: 'subscription.create', user_id: users.alice, target_id: String(sub.id) },
        { action: 'subscription.remove', user_id: users.alice, target_id: String(sub.id) },
      ]),
    );
  });

  it('a rule in use cannot be removed (409 InUse); a free one can', async () => {
    const { rule, sub } = await aliceSubscription();
    const refused = await call('alice', 'POST', `regles/remove?regleId=${rule.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'InUse', details: { abonnements: [sub.id] } });
    await call('alice', 'POST', `abonnements/remove?abonnementId=${sub.id}`);
    expect((await call('alice', 'POST', `regles/remove?regleId=${rule.id}`)).statusCode).toBe(200);
  });

  it('checks what it is given: an e-mail address, a weekly day, only oneself as a user recipient', async () => {
    const badMail = await call('alice', 'POST', 'destinataires/save', {
      email: 'pas une adresse',
      langue: 'fr',
    });
    expect(badMail.statusCode).toBe(400);
    const both = await call('alice', 'POST', 'destinataires/save', {
      email: 'a@example.com',
      utilisateurId: users.alice,
    });
    expect(both.statusCode).toBe(400);
    const weekly = await call('alice', 'POST', 'regles/save', {
      libelle: 'w',
      type: 'WEEKLY',
      jours: [],
      heure: 6,
    });
    expect(weekly.statusCode).toBe(400);
    const other = await call('alice', 'POST', 'destinataires/save', {
      utilisateurId: users.bob,
      langue: 'fr',
    });
    expect(other.statusCode).toBe(403);
    const self = await call('alice', 'POST', 'destinataires/save', {
      utilisateurId: users.alice,
      langue: 'de',
    });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ utilisateurId: users.alice, libelle: 'alice', langue: 'de' });
  });

  it('a user without RAPPORTS or CONFIGURATION is refused (403)', async () => {
    expect((await call('cashier', 'GET', 'abonnements')).statusCode).toBe(403);
  });
});
