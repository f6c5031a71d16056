/**
 * LIMITATION_SITE on the server (issue #32 B, SPEC.md §5 "only one site may be chosen in
 * multi-site mode where limited"): a profile holding it gets 400 multiSitesTooMuch from the report
 * and ticket calls that would read more than one site (several named, or none named over a scope
 * of several), and its answers for one site; the chain's administrator is created without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../src/contract/rights.ts';
import { ensureAdministrator } from '../../src/server/auth/users.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { loadChain } from '../reports/chain.ts';

const PASSWORD = 'Un-Seul-Site-2026!';
const RANGE = 'dateDebut=2026-11-02&dateFin=2026-11-03';

describe('LIMITATION_SITE', () => {
  let t: TestApp;
  let adminDroits: string[];
  const users: Record<'limited' | 'free', { id: number; headers: AuthHeaders }> = {} as never;

  beforeAll(async () => {
    t = await createTestApp();
    // The administrator first: it is created only on a database without users.
    await ensureAdministrator(t.database, { adminLogin: 'admin', adminPassword: PASSWORD });
    const { rows } = await t.database.pool.query<{ droits: string[] }>(
      `SELECT p.droits FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.login = 'admin'`,
    );
    adminDroits = rows[0]!.droits;
    await loadChain(t.database);
    for (const [name, droits] of [
      ['limited', ['RAPPORTS', 'TICKETS', 'LIMITATION_SITE']],
      ['free', ['RAPPORTS', 'TICKETS']],
    ] as const) {
      const id = await t.createUser({ login: name, password: PASSWORD, droits, restaurantIds: [1, 2] });
      users[name] = { id, headers: await t.signIn(name, PASSWORD) };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (who: 'limited' | 'free', url: string) =>
    t.app.inject({ url: `/api/${url.replace('ID', String(users[who].id))}`, headers: users[who].headers });
  const report = (sites: string, format = 'JSON') =>
    `bo/getReport?id=ID&rapportClassName=RapportVentes&typeRapport=Daily&format=${format}&${RANGE}${sites}`;
  const tickets = (sites: string) => `bo/tickets/search?id=ID&${RANGE}${sites}`;

  it('refuses more than one site, or none over a scope of several, with 400 multiSitesTooMuch', async () => {
    for (const url of [
      report('&sites[]=1&sites[]=2'),
      report(''),
      report('&sites[]=1&sites[]=2', 'CSV'),
      tickets('&sites[]=1&sites[]=2'),
      tickets('&sites=1,2'),
      tickets(''),
    ]) {
      const res = await get('limited', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'multiSitesTooMuch' });
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/bo/getReport',
      headers: users.limited.headers,
      payload: {
        id: users.limited.id,
        rapportClassName: 'RapportVentes',
        typeRapport: 'Daily',
        format: 'JSON',
        dateDebut: '2026-11-02',
        dateFin: '2026-11-03',
        sites: [1, 2],
      },
    });
    expect(post.statusCode, post.body).toBe(400);
    expect(post.json()).toMatchObject({ code: 'multiSitesTooMuch' });
  });

  it('answers one site at a time, and several to a profile without it', async () => {
    for (const url of [report('&sites[]=1'), tickets('&sites[]=2')]) {
      const res = await get('limited', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    for (const url of [report('&sites[]=1&sites[]=2'), report(''), tickets('&sites[]=1&sites[]=2')]) {
      const res = await get('free', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
  });

  it('is not in the profile of the chain’s administrator, who holds every other right', () => {
    expect(adminDroits).not.toContain('LIMITATION_SITE');
    expect([...adminDroits].sort()).toEqual(RIGHTS.filter((r) => r !== 'LIMITATION_SITE').sort());
  });
});
