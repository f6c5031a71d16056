/**
 * Messages from the administration (issue #18 `/config/messages`, SPEC.md §7 `messages/all`)
 * through the real app and PostgreSQL: who sees a message (by site, by profile, everyone), when
 * (its dates, in the time zone of the user's sites), in which language, dismissals, the
 * administration's checks and its audit log rows, and who may call what.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AdminMessage,
  AdminMessageSchema,
  type MessageInput,
} from '../../src/contract/administration.ts';
import { messagesForUser } from '../../src/server/messages/user-messages.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

/** A calendar date `days` from today in Paris, `YYYY-MM-DD`. */
function parisDay(days: number): string {
  return currentFiscalDate(new Date(Date.now() + days * 86_400_000), 'Europe/Paris', '00:00');
}

describe('messages from the administration', () => {
  let t: TestApp;
  let chain: Chain;
  let admin: Record<string, string>;
  let adminId: number;
  let paris: Record<string, string>;
  let parisId: number;
  let lyon: Record<string, string>;
  let lyonId: number;
  let homeless: Record<string, string>;

  const today = () => parisDay(0);
  const message = (fields: Partial<MessageInput> = {}): MessageInput => ({
    texts: { fr: 'Inventaire dimanche' },
    severity: 'info',
    fromDate: today(),
    toDate: today(),
    ...fields,
  });
  const create = (body: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: '/api/bo/infra/newMessage', headers, payload: body as object });
  const created = async (body: MessageInput): Promise<AdminMessage> => {
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(200);
    return AdminMessageSchema.parse(res.json());
  };
  const save = (id: number, body: unknown, headers = admin) =>
    t.app.inject({
      method: 'POST',
      url: `/api/bo/infra/saveMessage?id=${id}`,
      headers,
      payload: body as object,
    });
  const remove = (id: number, headers: Record<string, string> = admin) =>
    t.app.inject({ method: 'GET', url: `/api/bo/infra/removeMessage?id=${id}`, headers });
  const mine = async (headers: Record<string, string>, query = ''): Promise<AdminMessage[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/messages/all${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return AdminMessageSchema.array().parse(res.json());
  };
  const dismiss = (id: number, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/messages/dismiss?id=${id}`, headers });
  const profileOf = async (userId: number): Promise<number> =>
    (
      await t.database.pool.query<{ profile_id: number }>('SELECT profile_id FROM users WHERE id = $1', [
        userId,
      ])
    ).rows[0]!.profile_id;
  const auditRows = async (targetId: number) =>
    (
      await t.database.pool.query(
        `SELECT user_id, action, kind, target_id, before, after, address FROM audit_log
          WHERE kind = 'message' AND target_id = $1 ORDER BY id`,
        [String(targetId)],
      )
    ).rows;

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    adminId = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ['CONFIGURATION'],
      allSites: true,
    });
    parisId = await t.createUser({
      login: 'paris',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
      language: 'en',
    });
    lyonId = await t.createUser({
      login: 'lyon',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.lyon],
      language: 'de',
    });
    await t.createUser({ login: 'homeless', password: PASSWORD, droits: [] });
    admin = await t.signIn('admin', PASSWORD);
    paris = await t.signIn('paris', PASSWORD);
    lyon = await t.signIn('lyon', PASSWORD);
    homeless = await t.signIn('homeless', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.database.pool.query('DELETE FROM admin_messages');
  });

  it('a message targeted at a site shows to a user of that site and not to a user of another', async () => {
    const m = await created(message({ restaurantIds: [chain.sites.paris] }));
    expect(m).toMatchObject({ restaurantIds: [chain.sites.paris], profileIds: [], severity: 'info' });
    expect((await mine(paris)).map((x) => x.id)).toEqual([m.id]);
    expect(await mine(lyon)).toEqual([]);
    expect(await mine(homeless)).toEqual([]);
    // The administrator sees every site, Paris included.
    expect((await mine(admin)).map((x) => x.id)).toEqual([m.id]);
  });

  it('a message targeted at a profile shows to the users holding it, whatever their sites', async () => {
    const m = await created(message({ profileIds: [await profileOf(lyonId)] }));
    expect((await mine(lyon)).map((x) => x.id)).toEqual([m.id]);
    expect(await mine(paris)).toEqual([]);
    expect(await mine(admin)).toEqual([]);
  });

  it('a message with sites and profiles shows to users of either', async () => {
    const m = await created(
      message({ restaurantIds: [chain.sites.paris], profileIds: [await profileOf(lyonId)] }),
    );
    expect((await mine(paris)).map((x) => x.id)).toEqual([m.id]);
    expect((await mine(lyon)).map((x) => x.id)).toEqual([m.id]);
    expect(await mine(homeless)).toEqual([]);
  });

  it('a message without targets shows to everyone, a user without sites included', async () => {
    const m = await created(message());
    for (const headers of [admin, paris, lyon, homeless]) {
      expect((await mine(headers)).map((x) => x.id)).toEqual([m.id]);
    }
  });

  it('shows a message from its first to its last day, both included, and not outside them', async () => {
    const running = await created(message({ fromDate: parisDay(-3), toDate: parisDay(2) }));
    const lastDay = await created(message({ fromDate: parisDay(-1), toDate: today() }));
    await created(message({ fromDate: parisDay(-5), toDate: parisDay(-1) }));
    await created(message({ fromDate: parisDay(1), toDate: parisDay(4) }));
    expect((await mine(paris)).map((x) => x.id).sort()).toEqual([running.id, lastDay.id].sort());
  });

  it("counts today in the time zone of the user's sites", async () => {
    // 11:30 UTC on 15 June: 13:30 that day in Paris, 01:30 the next day in Kiritimati (UTC+14).
    const now = new Date('2026-06-15T11:30:00Z');
    await t.database.pool.query(`UPDATE sites SET time_zone = 'Pacific/Kiritimati' WHERE id = $1`, [
      chain.sites.lyon,
    ]);
    try {
      const m = await created(message({ fromDate: '2026-06-16', toDate: '2026-06-16' }));
      const read = (userId: number, siteIds: number[]) =>
        messagesForUser(t.database.pool, { userId, siteIds }, 'fr', now);
      expect((await read(lyonId, [chain.sites.lyon])).map((x) => x.id)).toEqual([m.id]);
      expect(await read(parisId, [chain.sites.paris])).toEqual([]);
      // No site: Europe/Paris.
      expect(await read(parisId, [])).toEqual([]);
    } finally {
      await t.database.pool.query(`UPDATE sites SET time_zone = 'Europe/Paris' WHERE id = $1`, [
        chain.sites.lyon,
      ]);
    }
  });

  it("gives the text in the asked language, else the user's, else French, else the first given", async () => {
    const both = await created(message({ texts: { fr: 'Bonjour', en: 'Hello' } }));
    const german = await created(message({ texts: { de: 'Guten Tag', en: 'Good day' } }));
    const textOf = (list: AdminMessage[], id: number) => list.find((x) => x.id === id)?.text;
    const parisList = await mine(paris); // English
    expect(textOf(parisList, both.id)).toBe('Hello');
    expect(textOf(parisList, german.id)).toBe('Good day');
    const lyonList = await mine(lyon); // German
    expect(textOf(lyonList, both.id)).toBe('Bonjour');
    expect(textOf(lyonList, german.id)).toBe('Guten Tag');
    const asked = await mine(paris, '?language=fr');
    expect(textOf(asked, both.id)).toBe('Bonjour');
    expect(textOf(asked, german.id)).toBe('Good day');
    // Every text travels too, for the administration's form.
    expect(german.texts).toEqual({ de: 'Guten Tag', en: 'Good day' });
  });

  it('shows the most severe first, then the newest', async () => {
    const oldInfo = await created(message({ severity: 'info' }));
    const error = await created(message({ severity: 'error' }));
    const newInfo = await created(message({ severity: 'info' }));
    const warning = await created(message({ severity: 'warning' }));
    expect((await mine(paris)).map((x) => x.id)).toEqual([error.id, warning.id, newInfo.id, oldInfo.id]);
  });

  it('a dismissed message is not shown to that user again, and still to others', async () => {
    const m = await created(message());
    const res = await dismiss(m.id, paris);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: m.id });
    expect(await mine(paris)).toEqual([]);
    // A new session (sign-in again) does not bring it back.
    expect(await mine(await t.signIn('paris', PASSWORD))).toEqual([]);
    expect((await mine(lyon)).map((x) => x.id)).toEqual([m.id]);
    // Twice is the same as once.
    expect((await dismiss(m.id, paris)).statusCode).toBe(200);
  });

  it("refuses to dismiss a message that is not the user's, or does not exist, as NotFound", async () => {
    const m = await created(message({ restaurantIds: [chain.sites.paris] }));
    for (const id of [m.id, m.id + 1000]) {
      const res = await dismiss(id, lyon);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NotFound' });
    }
    expect((await mine(paris)).map((x) => x.id)).toEqual([m.id]);
  });

  it('refuses a message without a text, with dates in the wrong order or unknown targets, and keeps nothing', async () => {
    const cases: [unknown, string, unknown?][] = [
      [message({ texts: {} }), 'texts'],
      [message({ texts: { fr: '   ', en: '' } }), 'texts'],
      [message({ fromDate: parisDay(2), toDate: parisDay(1) }), 'toDate'],
      [message({ fromDate: '2026-02-30' }), 'fromDate'],
      [message({ restaurantIds: [chain.sites.paris, 99_999] }), 'restaurantIds', [99_999]],
      [message({ profileIds: [88_888] }), 'profileIds', [88_888]],
    ];
    for (const [body, field, ids] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidField', details: { field, ...(ids ? { ids } : {}) } });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/bo/infra/getMessages', headers: admin });
    expect(list.json()).toEqual([]);
    const audit = await t.database.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE kind = 'message'
      AND action = 'message.create' AND after->>'fromDate' = '2026-02-30'`);
    expect(audit.rows[0].n).toBe(0);
  });

  it('refuses a body that breaks the contract (a bad date, an unknown severity) with 400', async () => {
    expect((await create(message({ fromDate: '15/06/2026' }))).statusCode).toBe(400);
    expect((await create({ ...message(), severity: 'panic' })).statusCode).toBe(400);
  });

  it('lists every message for the administration, newest first, trimmed texts and targets without repeats', async () => {
    const first = await created(
      message({ texts: { fr: '  Premier  ', de: ' ' }, fromDate: parisDay(-30), toDate: parisDay(-20) }),
    );
    const second = await created(message({ restaurantIds: [chain.sites.lyon, chain.sites.lyon] }));
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/bo/infra/getMessages?language=fr',
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const list = AdminMessageSchema.array().parse(res.json());
    expect(list.map((x) => x.id)).toEqual([second.id, first.id]);
    expect(list[1]).toMatchObject({ texts: { fr: 'Premier' }, text: 'Premier' });
    expect(list[0]?.restaurantIds).toEqual([chain.sites.lyon]);
  });

  it('saves a message and records it in the audit log, before and after, with the address', async () => {
    const m = await created(message({ restaurantIds: [chain.sites.paris] }));
    const res = await save(
      m.id,
      message({
        texts: { fr: 'Inventaire lundi' },
        severity: 'warning',
        profileIds: [await profileOf(lyonId)],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(AdminMessageSchema.parse(res.json())).toMatchObject({
      id: m.id,
      texts: { fr: 'Inventaire lundi' },
      severity: 'warning',
      restaurantIds: [],
    });
    expect(await mine(paris)).toEqual([]);
    expect((await mine(lyon)).map((x) => x.text)).toEqual(['Inventaire lundi']);
    const rows = await auditRows(m.id);
    expect(rows.map((r) => r.action)).toEqual(['message.create', 'message.save']);
    expect(rows[0]).toMatchObject({
      user_id: adminId,
      before: null,
      after: { texts: { fr: 'Inventaire dimanche' } },
    });
    expect(rows[1]).toMatchObject({
      user_id: adminId,
      before: { severity: 'info', restaurantIds: [chain.sites.paris] },
      after: { severity: 'warning', restaurantIds: [], texts: { fr: 'Inventaire lundi' } },
    });
    expect(rows[1].address).toBe('127.0.0.1');
  });

  it('a refused save changes nothing and writes no audit row', async () => {
    const m = await created(message());
    const res = await save(m.id, message({ texts: {} }));
    expect(res.json()).toMatchObject({ code: 'InvalidField', details: { field: 'texts' } });
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(['message.create']);
    expect((await mine(paris)).map((x) => x.text)).toEqual(['Inventaire dimanche']);
    expect((await save(m.id + 1000, message())).statusCode).toBe(404);
  });

  it('removes a message (a GET that writes: no HEAD, Idempotency-Key honoured) and records it', async () => {
    const m = await created(message());
    expect(
      (await t.app.inject({ method: 'HEAD', url: `/api/bo/infra/removeMessage?id=${m.id}`, headers: admin }))
        .statusCode,
    ).toBe(404);
    await dismiss(m.id, paris);
    const key = { 'idempotency-key': randomUUID() };
    const res = await remove(m.id, { ...admin, ...key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: m.id });
    // The same call again answers the first answer; without the key it is gone.
    const again = await remove(m.id, { ...admin, ...key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await remove(m.id)).json()).toMatchObject({ code: 'NotFound' });
    expect(await mine(lyon)).toEqual([]);
    const rows = await auditRows(m.id);
    expect(rows.map((r) => r.action)).toEqual(['message.create', 'message.remove']);
    expect(rows[1]).toMatchObject({ before: { texts: { fr: 'Inventaire dimanche' } }, after: null });
  });

  it('leaves the administration to CONFIGURATION and messages/all to signed-in users', async () => {
    const m = await created(message());
    const calls = [
      { method: 'GET' as const, url: '/api/bo/infra/getMessages' },
      { method: 'POST' as const, url: '/api/bo/infra/newMessage', payload: message() },
      { method: 'POST' as const, url: `/api/bo/infra/saveMessage?id=${m.id}`, payload: message() },
      { method: 'GET' as const, url: `/api/bo/infra/removeMessage?id=${m.id}` },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: paris });
      expect(res.statusCode, call.url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden' });
    }
    const anonymous = { 'x-requested-with': 'XMLHttpRequest' };
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/messages/all', headers: anonymous })).statusCode,
    ).toBe(401);
    expect((await dismiss(m.id, anonymous)).statusCode).toBe(401);
    expect((await mine(paris)).map((x) => x.id)).toEqual([m.id]);
  });
});
