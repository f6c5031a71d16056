/**
 * The escalations of issue #32 C.2, each refused: a CONFIGURATION holder limited to one site gave
 * their own profile every right and all sites, created a user with the Administrateur profile,
 * demoted the Administrateur profile and removed user 1. The rule (administration/admin-scope.ts):
 * nobody grants a right, a site or a profile they do not hold; a profile's site scope limits which
 * users and profiles its holder administers; only an all-sites administrator changes the
 * Administrateur profile. What stays allowed is checked beside each refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../../src/contract/rights.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PASSWORD = 'Escalade-2026!';

describe('administration within what one holds (issue #32 C.2)', () => {
  let t: TestApp;
  let chain: Chain;
  let rootId: number;
  let root: AuthHeaders;
  let limitedId: number;
  let limited: AuthHeaders;
  let adminProfile: number;
  let limitedProfile: number;

  const profileOf = async (id: number) =>
    (await t.database.pool.query<{ profile_id: number }>('SELECT profile_id FROM users WHERE id = $1', [id]))
      .rows[0]!.profile_id;
  const call = (headers: AuthHeaders, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/${url}`, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    rootId = await t.createUser({ login: 'root', password: PASSWORD, droits: RIGHTS, allSites: true });
    root = await t.signIn('root', PASSWORD);
    adminProfile = await profileOf(rootId);
    limitedId = await t.createUser({
      login: 'limite',
      password: PASSWORD,
      droits: ['CONFIGURATION', 'RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    limited = await t.signIn('limite', PASSWORD);
    limitedProfile = await profileOf(limitedId);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The answer must be 403 Forbidden; and nothing changed in `check`. */
  const refused = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'Forbidden' });
  };

  it('refuses giving one’s own profile every right or every site', async () => {
    const own = { titre: `profile-limite`, restaurantIds: [chain.sites.paris] };
    refused(
      await call(limited, 'POST', `bo/infra/saveProfile?id=${limitedProfile}`, { ...own, droits: RIGHTS }),
    );
    refused(
      await call(limited, 'POST', `bo/infra/saveProfile?id=${limitedProfile}`, {
        ...own,
        droits: ['CONFIGURATION', 'RAPPORTS'],
        allSites: true,
      }),
    );
    refused(
      await call(limited, 'POST', `bo/infra/saveProfile?id=${limitedProfile}`, {
        ...own,
        droits: ['CONFIGURATION', 'RAPPORTS'],
        restaurantIds: [chain.sites.paris, chain.sites.lyon],
      }),
    );
    refused(
      await call(limited, 'POST', `bo/infra/saveProfile?id=${limitedProfile}`, {
        ...own,
        droits: ['CONFIGURATION', 'RAPPORTS'],
        societesIdPlus: [chain.companies.beta],
      }),
    );
    const { rows } = await t.database.pool.query(
      'SELECT droits, all_sites, restaurant_ids FROM profiles WHERE id = $1',
      [limitedProfile],
    );
    expect(rows[0]).toEqual({
      droits: ['CONFIGURATION', 'RAPPORTS'],
      all_sites: false,
      restaurant_ids: [chain.sites.paris],
    });
  });

  it('refuses a new profile with a right or a site one does not hold, allows one within', async () => {
    refused(await call(limited, 'POST', 'bo/infra/newProfile', { titre: 'Compta', droits: ['TICKETS'] }));
    refused(
      await call(limited, 'POST', 'bo/infra/newProfile', {
        titre: 'Tous',
        droits: ['RAPPORTS'],
        allSites: true,
      }),
    );
    refused(
      await call(limited, 'POST', 'bo/infra/newProfile', {
        titre: 'Lyon',
        droits: ['RAPPORTS'],
        restaurantIds: [chain.sites.lyon],
      }),
    );
    const ok = await call(limited, 'POST', 'bo/infra/newProfile', {
      titre: 'Vendeurs Paris',
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const user = await call(
      limited,
      'POST',
      `bo/infra/newUtilisateur?login=vendeur&profileId=${ok.json<{ id: number }>().id}`,
      { password: PASSWORD, rePasswordKey: PASSWORD },
    );
    expect(user.statusCode, user.body).toBe(200);
  });

  it('refuses creating a user with the Administrateur profile, or giving it to one', async () => {
    refused(
      await call(limited, 'POST', `bo/infra/newUtilisateur?login=complice&profileId=${adminProfile}`, {
        password: PASSWORD,
        rePasswordKey: PASSWORD,
      }),
    );
    expect((await t.database.pool.query("SELECT 1 FROM users WHERE login = 'complice'")).rows).toHaveLength(
      0,
    );
    const vendeur = (
      await t.database.pool.query<{ id: number }>("SELECT id FROM users WHERE login = 'vendeur'")
    ).rows[0]!.id;
    refused(
      await call(limited, 'POST', `bo/infra/saveUtilisateur?id=${vendeur}`, { profileId: adminProfile }),
    );
  });

  it('refuses demoting or removing the Administrateur profile; an all-sites administrator may change it', async () => {
    refused(
      await call(limited, 'POST', `bo/infra/saveProfile?id=${adminProfile}`, {
        titre: 'Administrateur',
        droits: ['RAPPORTS'],
        allSites: true,
      }),
    );
    refused(await call(limited, 'GET', `bo/infra/removeProfil?id=${adminProfile}`));
    const { rows } = await t.database.pool.query<{ droits: string[] }>(
      'SELECT droits FROM profiles WHERE id = $1',
      [adminProfile],
    );
    expect(rows[0]!.droits).toEqual([...RIGHTS]);
    const byRoot = await call(root, 'POST', `bo/infra/saveProfile?id=${adminProfile}`, {
      titre: 'Administrateur',
      droits: RIGHTS,
      allSites: true,
    });
    expect(byRoot.statusCode, byRoot.body).toBe(200);
  });

  it('refuses removing, deactivating or renaming a user who sees sites outside one’s scope (user 1)', async () => {
    refused(await call(limited, 'GET', `bo/infra/removeUtilisateur?id=${rootId}`));
    refused(await call(limited, 'POST', `bo/infra/saveUtilisateur?id=${rootId}`, { active: false }));
    refused(
      await call(limited, 'POST', `bo/infra/saveUtilisateur?id=${rootId}`, { email: 'pirate@example.com' }),
    );
    const { rows } = await t.database.pool.query('SELECT active, email FROM users WHERE id = $1', [rootId]);
    expect(rows[0]).toEqual({ active: true, email: null });
    // A user of the administrator's own site stays theirs to manage.
    const vendeur = (
      await t.database.pool.query<{ id: number }>("SELECT id FROM users WHERE login = 'vendeur'")
    ).rows[0]!.id;
    const saved = await call(limited, 'POST', `bo/infra/saveUtilisateur?id=${vendeur}`, {
      email: 'vendeur@example.com',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const removed = await call(limited, 'GET', `bo/infra/removeUtilisateur?id=${vendeur}`);
    expect(removed.statusCode, removed.body).toBe(200);
  });
});
