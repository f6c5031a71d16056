/**
 * Issue #32 C.2, second half: companies, sites, groups and messages are administered within the
 * administrator's site scope too (administration/admin-scope.ts). A CONFIGURATION holder limited
 * to Paris (company Alpha runs Paris and Lyon) may change Paris, group Paris and address Paris;
 * not create or change companies, create a site they would not reach, change Lyon, move a site to
 * another company, change a group gathering other sites, or address everybody or Lyon. Each
 * refusal is 403 Forbidden and leaves the tables as they were; an all-sites administrator and an
 * administrator holding all of Alpha do what the limited one may not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../../src/contract/rights.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PASSWORD = 'Structure-2026!';

describe('companies, sites, groups and messages within what one holds (issue #32 C.2)', () => {
  let t: TestApp;
  let chain: Chain;
  let root: AuthHeaders;
  let limited: AuthHeaders;
  let alphaAdmin: AuthHeaders;

  const call = (headers: AuthHeaders, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/${url}`, headers, ...(payload ? { payload } : {}) });
  const count = async (table: string) =>
    (await t.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  const refused = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'Forbidden' });
  };
  const ok = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(200);
    return JSON.parse(res.body) as { id: number };
  };
  const site = (libelle: string, societeId: number) => ({
    libelle,
    societeId,
    currency: 'EUR',
    timeZone: 'Europe/Paris',
    dayStart: '05:00',
  });
  const message = (targets: { restaurantIds?: number[]; profileIds?: number[] }) => ({
    texts: { fr: 'Inventaire dimanche' },
    severity: 'info',
    fromDate: '2026-12-01',
    toDate: '2026-12-31',
    ...targets,
  });

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    await t.createUser({ login: 'root', password: PASSWORD, droits: RIGHTS, allSites: true });
    root = await t.signIn('root', PASSWORD);
    await t.createUser({
      login: 'limite',
      password: PASSWORD,
      droits: ['CONFIGURATION', 'RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    limited = await t.signIn('limite', PASSWORD);
    await t.createUser({
      login: 'alpha',
      password: PASSWORD,
      droits: ['CONFIGURATION', 'RAPPORTS'],
      societesPlus: [chain.companies.alpha],
    });
    alphaAdmin = await t.signIn('alpha', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('leaves creating and removing companies to an all-sites administrator, changing one to who holds all its sites', async () => {
    const companies = await count('companies');
    refused(await call(limited, 'POST', 'bo/infra/newSociete', { raisonSociale: 'Pirate SAS' }));
    refused(await call(alphaAdmin, 'POST', 'bo/infra/newSociete', { raisonSociale: 'Pirate SAS' }));
    expect(await count('companies')).toBe(companies);
    refused(
      await call(limited, 'POST', `bo/infra/saveSociete?id=${chain.companies.alpha}`, {
        raisonSociale: 'Alpha piratée',
      }),
    );
    const { rows } = await t.database.pool.query('SELECT raison_sociale FROM companies WHERE id = $1', [
      chain.companies.alpha,
    ]);
    expect(rows[0]).toEqual({ raison_sociale: 'Alpha SAS' });
    ok(
      await call(alphaAdmin, 'POST', `bo/infra/saveSociete?id=${chain.companies.alpha}`, {
        raisonSociale: 'Alpha SAS',
        enseigne: 'Alpha',
        siret: '12345678900011',
      }),
    );
    const gamma = ok(await call(root, 'POST', 'bo/infra/newSociete', { raisonSociale: 'Gamma SAS' }));
    refused(await call(alphaAdmin, 'GET', `bo/infra/removeSociete?id=${gamma.id}`));
    ok(await call(root, 'GET', `bo/infra/removeSociete?id=${gamma.id}`));
  });

  it('refuses a new site its creator would not reach, and changing or moving a site outside the scope', async () => {
    const sites = await count('sites');
    refused(await call(limited, 'POST', 'bo/infra/newSite', site('Marseille', chain.companies.alpha)));
    refused(await call(alphaAdmin, 'POST', 'bo/infra/newSite', site('Nice', chain.companies.beta)));
    expect(await count('sites')).toBe(sites);
    ok(await call(alphaAdmin, 'POST', 'bo/infra/newSite', site('Marseille', chain.companies.alpha)));

    refused(
      await call(
        limited,
        'POST',
        `bo/infra/saveSite?id=${chain.sites.lyon}`,
        site('Lyon 2', chain.companies.alpha),
      ),
    );
    refused(
      await call(
        limited,
        'POST',
        `bo/infra/saveSite?id=${chain.sites.paris}`,
        site('Paris', chain.companies.beta),
      ),
    );
    refused(
      await call(
        alphaAdmin,
        'POST',
        `bo/infra/saveSite?id=${chain.sites.paris}`,
        site('Paris', chain.companies.beta),
      ),
    );
    const { rows } = await t.database.pool.query(
      'SELECT libelle, company_id FROM sites WHERE id = ANY($1) ORDER BY id',
      [[chain.sites.paris, chain.sites.lyon]],
    );
    expect(rows).toEqual([
      { libelle: 'Paris', company_id: chain.companies.alpha },
      { libelle: 'Lyon', company_id: chain.companies.alpha },
    ]);
    ok(
      await call(
        limited,
        'POST',
        `bo/infra/saveSite?id=${chain.sites.paris}`,
        site('Paris', chain.companies.alpha),
      ),
    );
  });

  it('refuses a group gathering sites outside the scope, and changing or removing one', async () => {
    const groups = await count('groups');
    refused(
      await call(limited, 'POST', 'bo/infra/newRegroupement', {
        raisonSociale: 'Rhône',
        restaurantIds: [chain.sites.paris, chain.sites.lyon],
      }),
    );
    refused(
      await call(limited, 'POST', 'bo/infra/newRegroupement', {
        raisonSociale: 'Alpha entière',
        societesIdPlus: [chain.companies.alpha],
      }),
    );
    expect(await count('groups')).toBe(groups);
    refused(
      await call(limited, 'POST', `bo/infra/saveRegroupement?id=${chain.groups.nord}`, {
        raisonSociale: 'Nord',
        restaurantIds: [chain.sites.paris],
      }),
    );
    refused(await call(limited, 'GET', `bo/infra/removeRegroupement?id=${chain.groups.nord}`));
    const nord = await t.database.pool.query(
      'SELECT site_id FROM group_sites WHERE group_id = $1 ORDER BY site_id',
      [chain.groups.nord],
    );
    expect(nord.rows.map((r) => r.site_id)).toEqual(
      [chain.sites.paris, chain.sites.lille].sort((a, b) => a - b),
    );

    const own = ok(
      await call(limited, 'POST', 'bo/infra/newRegroupement', {
        raisonSociale: 'Paris seul',
        restaurantIds: [chain.sites.paris],
      }),
    );
    ok(
      await call(limited, 'POST', `bo/infra/saveRegroupement?id=${own.id}`, {
        raisonSociale: 'Paris centre',
        restaurantIds: [chain.sites.paris],
      }),
    );
    ok(await call(limited, 'GET', `bo/infra/removeRegroupement?id=${own.id}`));
  });

  it('refuses a message for everybody, for another site or for a profile one does not administer', async () => {
    const rootProfile = (
      await t.database.pool.query<{ profile_id: number }>("SELECT profile_id FROM users WHERE login = 'root'")
    ).rows[0]!.profile_id;
    const messages = await count('admin_messages');
    refused(await call(limited, 'POST', 'bo/infra/newMessage', message({})));
    refused(
      await call(limited, 'POST', 'bo/infra/newMessage', message({ restaurantIds: [chain.sites.lyon] })),
    );
    refused(await call(limited, 'POST', 'bo/infra/newMessage', message({ profileIds: [rootProfile] })));
    expect(await count('admin_messages')).toBe(messages);

    const lyons = ok(
      await call(root, 'POST', 'bo/infra/newMessage', message({ restaurantIds: [chain.sites.lyon] })),
    );
    refused(
      await call(
        limited,
        'POST',
        `bo/infra/saveMessage?id=${lyons.id}`,
        message({ restaurantIds: [chain.sites.paris] }),
      ),
    );
    refused(await call(limited, 'GET', `bo/infra/removeMessage?id=${lyons.id}`));
    const { rows } = await t.database.pool.query('SELECT site_ids FROM admin_messages WHERE id = $1', [
      lyons.id,
    ]);
    expect(rows[0]).toEqual({ site_ids: [chain.sites.lyon] });

    const own = ok(
      await call(limited, 'POST', 'bo/infra/newMessage', message({ restaurantIds: [chain.sites.paris] })),
    );
    ok(await call(limited, 'GET', `bo/infra/removeMessage?id=${own.id}`));
    ok(await call(root, 'POST', 'bo/infra/newMessage', message({})));
  });
});
