import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAnswerSchema } from '../../../src/contract/administration.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const PASSWORD = 'Correct-Horse1';

describe('the audit log (bo/infra/getAudit)', () => {
  let t: TestApp;
  let adminId: number;
  let admin: Record<string, string>;
  let deputyId: number;
  let profileId: number;

  const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers });
  const post = (url: string, payload: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: `/api/${url}`, headers, payload: payload as object });
  const read = async (query = '') => {
    const res = await get(`bo/infra/getAudit${query}`);
    expect(res.statusCode).toBe(200);
    return AuditAnswerSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    adminId = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ['CONFIGURATION', 'COMPTAGE'],
      allSites: true,
    });
    admin = await t.signIn('admin', PASSWORD);
    deputyId = await t.createUser({
      login: 'adjoint',
      password: PASSWORD,
      // The profile the deputy creates holds COMPTAGE: one grants only what one holds (issue #32 C.2).
      droits: ['CONFIGURATION', 'COMPTAGE'],
      allSites: true,
    });
    const deputy = await t.signIn('adjoint', PASSWORD);
    // Three changes: a profile by the deputy, a user by the administrator, then the deputy removed.
    const profile = await post('bo/infra/newProfile', { titre: 'Caisse', droits: ['COMPTAGE'] }, deputy);
    expect(profile.statusCode).toBe(200);
    profileId = profile.json().id;
    const user = await post(`bo/infra/newUtilisateur?login=caissier&profileId=${profileId}`, {
      password: PASSWORD,
      rePasswordKey: PASSWORD,
    });
    expect(user.statusCode).toBe(200);
    expect((await get(`bo/infra/removeUtilisateur?id=${deputyId}`)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the changes newest first with author, target, before → after and address', async () => {
    const { entries, total } = await read();
    expect(total).toBe(3);
    expect(entries.map((e) => e.action)).toEqual(['user.remove', 'user.create', 'profile.create']);
    expect(entries[0]).toMatchObject({
      userId: adminId,
      login: 'admin',
      kind: 'user',
      targetId: String(deputyId),
      before: { login: 'adjoint' },
      after: null,
    });
    expect(entries[0]!.address).toBeTruthy();
    expect(entries[1]!.after).toMatchObject({ login: 'caissier', profile: profileId });
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it('still names an author removed since', async () => {
    const { entries } = await read('?kind=profile');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'profile.create', userId: deputyId, login: 'adjoint' });
  });

  it('filters by author and kind, pages with limit and offset', async () => {
    expect((await read(`?userId=${adminId}`)).entries.map((e) => e.action)).toEqual([
      'user.remove',
      'user.create',
    ]);
    expect((await read(`?userId=${adminId}&kind=profile`)).total).toBe(0);
    const page = await read('?limit=1&offset=1');
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => e.action)).toEqual(['user.create']);
  });

  it('filters by period, days counted in the chain’s zone (Europe/Paris)', async () => {
    // 23:30 UTC on 15 January is 00:30 on 16 January in Paris.
    await t.database.pool.query(
      `INSERT INTO audit_log (at, user_id, action, kind, target_id) VALUES ('2026-01-15T23:30:00Z', $1, 'group.save', 'group', '7')`,
      [adminId],
    );
    expect((await read('?dateDebut=2026-01-16&dateFin=2026-01-16')).entries.map((e) => e.action)).toEqual([
      'group.save',
    ]);
    expect((await read('?dateDebut=2026-01-01&dateFin=2026-01-15')).total).toBe(0);
    expect((await read('?dateFin=2026-01-31')).total).toBe(1);
    const backwards = await get('bo/infra/getAudit?dateDebut=2026-01-16&dateFin=2026-01-15');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ code: 'InvalidField', details: { field: 'dateFin' } });
  });

  it('is refused without CONFIGURATION, and the log itself refuses updates and deletes', async () => {
    await t.createUser({ login: 'gerant', password: PASSWORD, droits: ['RAPPORTS'] });
    const manager = await t.signIn('gerant', PASSWORD);
    expect((await get('bo/infra/getAudit', manager)).statusCode).toBe(403);
    await expect(t.database.pool.query(`UPDATE audit_log SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(t.database.pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('is published in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    expect(paths).toContain('/api/bo/infra/getAudit');
  });
});
