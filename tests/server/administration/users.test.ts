import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UtilisateurSchema } from '../../../src/contract/administration.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { basic, createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PASSWORD = 'Correct-Horse1';
const NEW_PASSWORD = 'Battery-Staple2';

interface AuditRow {
  user_id: number | null;
  action: string;
  kind: string;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  address: string | null;
}

describe('users and my account (bo/infra/getUtilisateur(s), newUtilisateur, saveUtilisateur, removeUtilisateur)', () => {
  let t: TestApp;
  let chain: Chain;
  let adminId: number;
  let admin: Record<string, string>;
  let managerId: number;
  let manager: Record<string, string>;
  let managerProfile: number;
  let adminProfile: number;

  const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers });
  const post = (url: string, payload: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: `/api/${url}`, headers, payload: payload as object });
  const save = (id: number, payload: unknown, headers = admin) =>
    post(`bo/infra/saveUtilisateur?id=${id}`, payload, headers);
  const audit = async (action?: string) =>
    (
      await t.database.pool.query<AuditRow>(
        `SELECT user_id, action, kind, target_id, before, after, address FROM audit_log
          WHERE $1::text IS NULL OR action = $1 ORDER BY id`,
        [action ?? null],
      )
    ).rows;
  const profileOf = async (login: string) =>
    (
      await t.database.pool.query<{ id: number }>('SELECT profile_id AS id FROM users WHERE login = $1', [
        login,
      ])
    ).rows[0]!.id;
  /** Signs in directly (the helper throws on refusal; some tests want the refusal). */
  const connect = (login: string, password: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/bo/connexion?username=${login}`,
      headers: { authorization: basic(login, password), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
  /** Settles the change feed so a later call cannot be served from before the change by chance. */
  const settled = () => t.app.changes.settled();

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    adminId = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ['CONFIGURATION', 'RAPPORTS'],
      allSites: true,
    });
    admin = await t.signIn('admin', PASSWORD);
    managerId = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    manager = await t.signIn('gerant', PASSWORD);
    managerProfile = await profileOf('gerant');
    adminProfile = await profileOf('admin');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('reading', () => {
    it('lists every user with profile, effective sites and rights, never a secret', async () => {
      const res = await get('bo/infra/getUtilisateurs');
      expect(res.statusCode).toBe(200);
      const users = UtilisateurSchema.array().parse(res.json());
      expect(users.map((u) => u.login)).toEqual(['admin', 'gerant']);
      expect(users[1]).toMatchObject({
        id: managerId,
        profile: managerProfile,
        profileTitre: 'profile-gerant',
        active: true,
        sites: [chain.sites.paris],
        droits: ['RAPPORTS'],
      });
      expect(res.body).not.toMatch(/argon2|password|hash/i);
    });

    it('refuses the list to a user without CONFIGURATION', async () => {
      expect((await get('bo/infra/getUtilisateurs', manager)).statusCode).toBe(403);
    });

    it('answers one’s own account, and another’s only to an administrator', async () => {
      const own = await get('bo/infra/getUtilisateur?login=gerant', manager);
      expect(own.statusCode).toBe(200);
      expect(UtilisateurSchema.parse(own.json()).id).toBe(managerId);
      const other = await get('bo/infra/getUtilisateur?login=admin', manager);
      expect(other.statusCode).toBe(403);
      expect(other.json().code).toBe('Forbidden');
      expect((await get('bo/infra/getUtilisateur?login=gerant')).json().id).toBe(managerId);
      const unknown = await get('bo/infra/getUtilisateur?login=personne');
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('creating (newUtilisateur)', () => {
    it('creates a user from our body (extras and password), who can then sign in; audits without secrets', async () => {
      const res = await post(
        `bo/infra/newUtilisateur?login=caissier&email=caissier@example.fr&profileId=${managerProfile}&language=de&couleur=accent&societesIdPlus=${chain.companies.beta}`,
        {
          extras: [{ key: 'code_exploitant', value: 'EXP42', type: 'STRING' }],
          password: NEW_PASSWORD,
          rePasswordKey: NEW_PASSWORD,
        },
      );
      expect(res.statusCode).toBe(200);
      const user = UtilisateurSchema.parse(res.json());
      expect(user).toMatchObject({
        login: 'caissier',
        email: 'caissier@example.fr',
        language: 'de',
        couleur: 'accent',
        codeExploitant: 'EXP42',
        societesPlus: [chain.companies.beta],
        sites: [chain.sites.paris, chain.sites.nantes, chain.sites.lille].sort((a, b) => a - b),
      });
      expect((await connect('caissier', NEW_PASSWORD)).statusCode).toBe(200);
      const [entry] = await audit('user.create');
      expect(entry).toMatchObject({
        user_id: adminId,
        kind: 'user',
        target_id: String(user.id),
        before: null,
        after: { login: 'caissier', email: 'caissier@example.fr', codeExploitant: 'EXP42' },
      });
      expect(entry!.address).toBeTruthy();
      expect(JSON.stringify(entry)).not.toContain(NEW_PASSWORD);
    });

    it('creates a user the SPEC.md §7 way: query fields and a body list of extras', async () => {
      const res = await post(
        `bo/infra/newUtilisateur?login=spec&password=${encodeURIComponent(NEW_PASSWORD)}&rePasswordKey=${encodeURIComponent(NEW_PASSWORD)}&profileId=${managerProfile}`,
        [{ key: 'code_exploitant', value: 'S1' }],
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().codeExploitant).toBe('S1');
    });

    it('creates a user without a password, who cannot sign in until a reset', async () => {
      const res = await post(`bo/infra/newUtilisateur?login=sansmdp&profileId=${managerProfile}`, undefined);
      expect(res.statusCode).toBe(200);
      expect((await connect('sansmdp', '')).statusCode).toBe(401);
    });

    it('refuses bad input with its code and writes nothing', async () => {
      const before = (await audit()).length;
      const q = `profileId=${managerProfile}`;
      const cases: [string, unknown, number, string, Record<string, unknown>?][] = [
        [
          `login=x1&${q}`,
          [
            { key: 'shoe_size', value: '42' },
            { key: 'code_exploitant', value: 'A' },
          ],
          400,
          'UnknownExtra',
          { keys: ['shoe_size'] },
        ],
        [
          `login=x2&${q}`,
          { password: 'short', rePasswordKey: 'short' },
          400,
          'PasswordPolicy',
          { problems: ['tooShort', 'noUpper', 'noDigit', 'noSpecial'] },
        ],
        [`login=x3&${q}`, { password: NEW_PASSWORD, rePasswordKey: PASSWORD }, 400, 'PasswordMismatch'],
        [`login=x4&email=pas-une-adresse&${q}`, undefined, 400, 'InvalidField', { field: 'email' }],
        [`login=x5&couleur=fuchsia&${q}`, undefined, 400, 'InvalidField', { field: 'couleur' }],
        ['login=x6&profileId=99999', undefined, 400, 'InvalidField', { field: 'profileId' }],
        [`login=x7&societesIdMoins=99999&${q}`, undefined, 400, 'InvalidField', { field: 'societesIdMoins' }],
        [`login=gerant&${q}`, undefined, 409, 'LoginTaken'],
      ];
      for (const [query, body, status, code, details] of cases) {
        const res = await post(`bo/infra/newUtilisateur?${query}`, body);
        expect({ query, status: res.statusCode, code: res.json().code }).toEqual({ query, status, code });
        if (details) expect(res.json().details).toEqual(details);
      }
      expect(
        (await get('bo/infra/getUtilisateurs')).json().map((u: { login: string }) => u.login),
      ).not.toContain('x1');
      expect((await audit()).length).toBe(before);
    });

    it('refuses creation to a user without CONFIGURATION', async () => {
      const res = await post(
        `bo/infra/newUtilisateur?login=pirate&profileId=${adminProfile}`,
        undefined,
        manager,
      );
      expect(res.statusCode).toBe(403);
    });
  });

  describe('my account (saveUtilisateur on oneself)', () => {
    it('saves one’s own e-mail, theme, colour and language, audited before → after', async () => {
      const res = await save(
        managerId,
        { email: 'gerant@example.fr', couleur: 'info', language: 'en', theme: 'dark' },
        manager,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        email: 'gerant@example.fr',
        couleur: 'info',
        language: 'en',
        theme: 'dark',
      });
      const entries = await audit('user.save');
      expect(entries.at(-1)).toMatchObject({
        user_id: managerId,
        target_id: String(managerId),
        before: { email: null, couleur: null, language: null, theme: null },
        after: { email: 'gerant@example.fr', couleur: 'info', language: 'en', theme: 'dark' },
      });
    });

    it('reads the form-urlencoded body SPEC.md §7 sends, unchanged fields being no change', async () => {
      const form = new URLSearchParams({
        login: 'gerant',
        email: 'g2@example.fr',
        profileId: String(managerProfile),
        activationKey: '',
        theme: 'dark',
        couleur: 'warning',
        societesIdPlus: '',
        societesIdMoins: '',
        updatePassword: 'false',
        password: '',
        rePasswordKey: '',
      });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/bo/infra/saveUtilisateur?id=${managerId}`,
        headers: { ...manager, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: 'g2@example.fr', couleur: 'warning', login: 'gerant' });
      expect((await audit('user.save')).at(-1)!.after).toEqual({
        email: 'g2@example.fr',
        couleur: 'warning',
      });
    });

    it('refuses a field only an administrator may change, and another user’s account, writing nothing', async () => {
      const before = (await audit()).length;
      const own = await save(managerId, { profileId: adminProfile, email: 'g3@example.fr' }, manager);
      expect(own.statusCode).toBe(403);
      expect(own.json()).toMatchObject({ code: 'Forbidden', details: { fields: ['profileId'] } });
      const other = await save(adminId, { email: 'x@example.fr' }, manager);
      expect(other.statusCode).toBe(403);
      expect((await get('bo/infra/getUtilisateur?login=gerant', manager)).json().email).toBe('g2@example.fr');
      expect((await audit()).length).toBe(before);
    });

    it('refuses an invalid e-mail at its field, and clearing one', async () => {
      const res = await save(managerId, { email: 'gerant@' }, manager);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidField', details: { field: 'email' } });
      const cleared = await save(managerId, { email: ' ' }, manager);
      expect(cleared.json()).toMatchObject({ code: 'InvalidField', details: { field: 'email' } });
    });

    it('takes an empty e-mail for a user who never had one as no change', async () => {
      const { rows } = await t.database.pool.query<{ id: number }>(
        `SELECT id FROM users WHERE login = 'admin'`,
      );
      const res = await save(rows[0]!.id, { email: '', theme: 'light' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: null, theme: 'light' });
    });

    it('changes one’s password with the current one, ending the other sessions but not this one', async () => {
      const elsewhere = await t.signIn('gerant', PASSWORD);
      const wrong = await save(
        managerId,
        {
          updatePassword: true,
          currentPassword: 'Wrong-Pass1',
          password: NEW_PASSWORD,
          rePasswordKey: NEW_PASSWORD,
        },
        manager,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('WrongPassword');
      const policy = await save(
        managerId,
        {
          updatePassword: true,
          currentPassword: PASSWORD,
          password: 'alllowercase',
          rePasswordKey: 'alllowercase',
        },
        manager,
      );
      expect(policy.json()).toMatchObject({
        code: 'PasswordPolicy',
        details: { problems: ['noUpper', 'noDigit', 'noSpecial'] },
      });
      const mismatch = await save(
        managerId,
        {
          updatePassword: true,
          currentPassword: PASSWORD,
          password: NEW_PASSWORD,
          rePasswordKey: `${NEW_PASSWORD}x`,
        },
        manager,
      );
      expect(mismatch.json().code).toBe('PasswordMismatch');
      expect(await audit('user.passwordChange')).toEqual([]);

      const ok = await save(
        managerId,
        {
          updatePassword: true,
          currentPassword: PASSWORD,
          password: NEW_PASSWORD,
          rePasswordKey: NEW_PASSWORD,
        },
        manager,
      );
      expect(ok.statusCode).toBe(200);
      expect((await get('bo/infra/getUtilisateur?login=gerant', elsewhere)).statusCode).toBe(401);
      expect((await get('bo/infra/getUtilisateur?login=gerant', manager)).statusCode).toBe(200);
      expect((await connect('gerant', PASSWORD)).statusCode).toBe(401);
      expect((await connect('gerant', NEW_PASSWORD)).statusCode).toBe(200);
      const [entry] = await audit('user.passwordChange');
      expect(entry).toMatchObject({
        user_id: managerId,
        target_id: String(managerId),
        before: null,
        after: { sessionsEnded: 1 },
      });
      expect(JSON.stringify(entry)).not.toMatch(/Staple|Horse/);
    });
  });

  describe('administrator edits (saveUtilisateur on another user)', () => {
    let targetId: number;
    beforeAll(async () => {
      targetId = await t.createUser({
        login: 'cible',
        password: PASSWORD,
        droits: ['RAPPORTS'],
        allSites: true,
      });
    });

    it('deactivating a user ends their sessions and refuses their sign-in; reactivating lets them back', async () => {
      const target = await t.signIn('cible', PASSWORD);
      expect((await get('bo/infra/getUtilisateur?login=cible', target)).statusCode).toBe(200);
      const res = await save(targetId, { active: false });
      expect(res.statusCode).toBe(200);
      expect(res.json().active).toBe(false);
      expect((await get('bo/infra/getUtilisateur?login=cible', target)).statusCode).toBe(401);
      await settled();
      expect((await get('bo/infra/getUtilisateur?login=cible', target)).statusCode).toBe(401);
      const refused = await connect('cible', PASSWORD);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('badCredentials');
      expect((await audit('user.save')).at(-1)).toMatchObject({
        user_id: adminId,
        target_id: String(targetId),
        before: { active: true },
        after: { active: false },
      });
      expect((await save(targetId, { active: 'true' })).statusCode).toBe(200);
      expect((await connect('cible', PASSWORD)).statusCode).toBe(200);
    });

    it('sets another user’s password without theirs, ending all their sessions', async () => {
      const target = await t.signIn('cible', PASSWORD);
      const res = await save(targetId, {
        updatePassword: true,
        password: NEW_PASSWORD,
        rePasswordKey: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect((await get('bo/infra/getUtilisateur?login=cible', target)).statusCode).toBe(401);
      expect((await connect('cible', NEW_PASSWORD)).statusCode).toBe(200);
      expect((await audit('user.passwordChange')).at(-1)).toMatchObject({
        user_id: adminId,
        target_id: String(targetId),
      });
    });

    it('keeps an activation key out of the answer and the audit log', async () => {
      const res = await save(targetId, { activationKey: 'ACTIVATE-ME-123', theme: 'dark' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('ACTIVATE-ME-123');
      const entry = (await audit('user.save')).at(-1)!;
      expect(entry.after).toEqual({ theme: 'dark' });
      expect(JSON.stringify(entry)).not.toContain('ACTIVATE-ME-123');
      const { rows } = await t.database.pool.query('SELECT activation_key FROM users WHERE id = $1', [
        targetId,
      ]);
      expect(rows).toEqual([{ activation_key: 'ACTIVATE-ME-123' }]);
    });

    it('changes profile, companies and login; a login in use is refused', async () => {
      const res = await save(targetId, {
        login: 'cible2',
        profileId: managerProfile,
        societesIdMoins: [chain.companies.alpha],
        codeExploitant: 'E9',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        login: 'cible2',
        profile: managerProfile,
        societesMoins: [chain.companies.alpha],
        sites: [],
        codeExploitant: 'E9',
      });
      const taken = await save(targetId, { login: 'admin' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('LoginTaken');
    });

    it('the only administrator cannot deactivate or demote themselves (LastAdministrator)', async () => {
      const before = (await audit()).length;
      const off = await save(adminId, { active: false });
      expect(off.statusCode).toBe(409);
      expect(off.json().code).toBe('LastAdministrator');
      const demoted = await save(adminId, { profileId: managerProfile });
      expect(demoted.json().code).toBe('LastAdministrator');
      const removed = await get(`bo/infra/removeUtilisateur?id=${adminId}`);
      expect(removed.json().code).toBe('LastAdministrator');
      expect((await audit()).length).toBe(before);
      expect((await get('bo/infra/getUtilisateur?login=admin')).json()).toMatchObject({
        active: true,
        profile: adminProfile,
      });
    });

    it('with a second administrator, still nobody deactivates, demotes or removes themselves (SelfChange)', async () => {
      const second = await post(`bo/infra/newUtilisateur?login=admin2&profileId=${adminProfile}`, {
        password: NEW_PASSWORD,
        rePasswordKey: NEW_PASSWORD,
      });
      expect(second.statusCode).toBe(200);
      expect((await save(adminId, { active: false })).json().code).toBe('SelfChange');
      expect((await save(adminId, { profileId: managerProfile })).json().code).toBe('SelfChange');
      expect((await get(`bo/infra/removeUtilisateur?id=${adminId}`)).json().code).toBe('SelfChange');
      // Another administrator may be demoted while one is left.
      const demoted = await save(second.json().id, { profileId: managerProfile });
      expect(demoted.statusCode).toBe(200);
      expect(demoted.json().droits).toEqual(['RAPPORTS']);
    });
  });

  describe('removing (removeUtilisateur)', () => {
    it('removes a user with their sessions and favourites, keeping their report editions; audits their fields', async () => {
      const id = await t.createUser({
        login: 'partant',
        password: PASSWORD,
        droits: ['RAPPORTS'],
        allSites: true,
      });
      const partant = await t.signIn('partant', PASSWORD);
      const fav = await post(
        `bo/favoris/save?id=${id}`,
        {
          libelle: 'Mes ventes',
          typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
          lSites: [chain.sites.paris],
        },
        partant,
      );
      expect(fav.statusCode).toBe(200);
      const edition = await t.database.pool.query<{ id: number }>(
        `INSERT INTO report_editions (user_id, login, class_name, variant, format, language, date_debut, date_fin, request, status)
         VALUES ($1, 'partant', 'RapportVentes', 'Daily', 'PDF', 'fr', '2026-03-01', '2026-03-02', '{}', 'OK') RETURNING id`,
        [id],
      );
      const res = await get(`bo/infra/removeUtilisateur?id=${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id });
      expect((await get('bo/infra/getUtilisateur?login=partant', partant)).statusCode).toBe(401);
      const left = await t.database.pool.query('SELECT 1 FROM favourites WHERE user_id = $1', [id]);
      expect(left.rows).toEqual([]);
      // The chain's record of the report stays, without its author's row but with their login.
      const kept = await t.database.pool.query('SELECT user_id, login FROM report_editions WHERE id = $1', [
        edition.rows[0]!.id,
      ]);
      expect(kept.rows).toEqual([{ user_id: null, login: 'partant' }]);
      expect((await audit('user.remove')).at(-1)).toMatchObject({
        user_id: adminId,
        target_id: String(id),
        before: { login: 'partant' },
        after: null,
      });
      expect((await get(`bo/infra/removeUtilisateur?id=${id}`)).statusCode).toBe(404);
    });

    it('is a write: no HEAD twin, and a repeated Idempotency-Key replays the first answer', async () => {
      const id = await t.createUser({ login: 'rejoue', password: PASSWORD, droits: [], allSites: false });
      const head = await t.app.inject({
        method: 'HEAD',
        url: `/api/bo/infra/removeUtilisateur?id=${id}`,
        headers: admin,
      });
      expect(head.statusCode).toBe(404);
      const key = '0b8a4c52-6a83-4e0e-9a55-3f6f0c3b1a11';
      const headers = { ...admin, 'idempotency-key': key };
      const first = await get(`bo/infra/removeUtilisateur?id=${id}`, headers);
      const again = await get(`bo/infra/removeUtilisateur?id=${id}`, headers);
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await audit('user.remove')).filter((e) => e.target_id === String(id))).toHaveLength(1);
    });

    it('refuses removal to a user without CONFIGURATION', async () => {
      expect((await get(`bo/infra/removeUtilisateur?id=${adminId}`, manager)).statusCode).toBe(403);
    });
  });

  it('publishes the users’ routes in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(res.json().paths);
    for (const p of [
      'getUtilisateurs',
      'getUtilisateur',
      'newUtilisateur',
      'saveUtilisateur',
      'removeUtilisateur',
    ]) {
      expect(paths).toContain(`/api/bo/infra/${p}`);
    }
    const save = res.json().paths['/api/bo/infra/saveUtilisateur'].post;
    expect(Object.keys(save.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });
});

describe('two administrators demoting each other at the same moment', () => {
  let t: TestApp;
  afterAll(async () => {
    await t.close();
  });

  it('lets one demotion through and refuses the other (LastAdministrator): the chain keeps an administrator', async () => {
    t = await createTestApp();
    const aId = await t.createUser({
      login: 'chefA',
      password: PASSWORD,
      droits: ['CONFIGURATION'],
      allSites: true,
    });
    const bId = await t.createUser({
      login: 'chefB',
      password: PASSWORD,
      droits: ['CONFIGURATION'],
      allSites: true,
    });
    await t.createUser({ login: 'employe', password: PASSWORD, droits: [] });
    const { rows } = await t.database.pool.query<{ id: number }>(
      `SELECT profile_id AS id FROM users WHERE login = 'employe'`,
    );
    const plain = rows[0]!.id;
    const a = await t.signIn('chefA', PASSWORD);
    const b = await t.signIn('chefB', PASSWORD);
    const demote = (id: number, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bo/infra/saveUtilisateur?id=${id}`,
        headers,
        payload: { profileId: plain },
      });
    // Hold the administrators' lock so both requests pass the rights guard and wait on it together.
    const holder = await t.database.pool.connect();
    await holder.query(`SELECT pg_advisory_lock(hashtext('comptoir.administrators'))`);
    const pending = Promise.all([demote(bId, a), demote(aId, b)]);
    for (let waiting = 0; waiting < 2; await new Promise((r) => setTimeout(r, 20))) {
      const { rows: locks } = await holder.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
      );
      waiting = locks[0]!.n;
    }
    await holder.query(`SELECT pg_advisory_unlock(hashtext('comptoir.administrators'))`);
    holder.release();
    const answers = await pending;
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('LastAdministrator');
    const left = await t.database.pool.query(
      `SELECT u.login FROM users u JOIN profiles p ON p.id = u.profile_id WHERE 'CONFIGURATION' = ANY(p.droits)`,
    );
    expect(left.rows).toHaveLength(1);
  });
});
