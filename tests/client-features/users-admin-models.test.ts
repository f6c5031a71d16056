/**
 * The data side of /config/users and /config/profils (no React, no server): the checks made
 * before a call (SPEC.md §5), the requests built from a form, the server's refusals placed at
 * their field, the list's search and filters, and a company never both added and removed.
 */
import { describe, expect, it } from 'vitest';
import { type Profile, ProfileInputSchema, type Utilisateur } from '../../src/contract/administration.ts';
import { ApiFailure } from '../../src/client/lib/http.ts';
import {
  checkProfileDraft,
  criterionRow,
  newProfileDraft,
  profileDraftOf,
  profileInput,
  profileRefusal,
} from '../../src/client/features/users-admin/profile-form-model.ts';
import {
  checkUserDraft,
  hasProblems,
  newUserDraft,
  newUserRequest,
  refusalProblems,
  saveUserBody,
  userDraftOf,
  withCompany,
} from '../../src/client/features/users-admin/user-form-model.ts';
import { filterUsers, NO_FILTER, siteNames } from '../../src/client/features/users-admin/user-list-model.ts';

const name = (id: string) => `<${id.split('.').at(-1)}>`;

function user(fields: Partial<Utilisateur>): Utilisateur {
  return {
    id: 1,
    login: 'x',
    email: null,
    profile: 1,
    profileTitre: 'Gérant',
    active: true,
    theme: null,
    couleur: null,
    societesPlus: [],
    societesMoins: [],
    role: '',
    country: null,
    language: null,
    codeExploitant: null,
    sites: [],
    droits: [],
    createdAt: '2026-11-26T08:00:00Z',
    ...fields,
  };
}

describe('user form', () => {
  it('refuses an empty login, an invalid e-mail and a weak password before any call, naming what the password lacks', () => {
    const draft = {
      ...newUserDraft(3, 'fr'),
      email: 'marie@',
      setPassword: true,
      password: 'abcdefgh',
      confirmation: 'abcdefgX',
    };
    const problems = checkUserDraft(draft, name);
    expect(problems.fields).toEqual({
      login: { id: 'usersAdmin.error.required' },
      email: { id: 'usersAdmin.error.email' },
      password: {
        id: 'usersAdmin.error.PasswordPolicy',
        values: { problems: '<tooShort>, <noUpper>, <noDigit>, <noSpecial>' },
      },
      confirmation: { id: 'usersAdmin.error.PasswordMismatch' },
    });
    const good = {
      ...draft,
      login: 'marie',
      email: 'marie@example.com',
      password: 'Comptoir-2026!',
      confirmation: 'Comptoir-2026!',
    };
    expect(hasProblems(checkUserDraft(good, name))).toBe(false);
  });

  it('without "set a password now", no password is checked nor sent (the invitation link sets it)', () => {
    const draft = {
      ...newUserDraft(3, 'de'),
      login: ' marie ',
      email: 'marie@example.com',
      codeExploitant: 'EX-7',
      password: 'x',
    };
    expect(hasProblems(checkUserDraft(draft, name))).toBe(false);
    expect(newUserRequest(withCompany(withCompany(draft, 4, 'plus'), 9, 'minus'))).toEqual({
      query: {
        login: 'marie',
        email: 'marie@example.com',
        profileId: 3,
        language: 'de',
        societesIdPlus: '4',
        societesIdMoins: '9',
      },
      codeExploitant: 'EX-7',
      password: null,
    });
  });

  it('saves every field of an existing user, and the password only when it is changed', () => {
    const existing = user({
      login: 'paul',
      email: 'paul@example.com',
      language: 'en',
      societesPlus: [2],
      codeExploitant: 'E1',
    });
    const draft = userDraftOf(existing, 'fr');
    expect(saveUserBody(draft)).toEqual({
      login: 'paul',
      email: 'paul@example.com',
      profileId: 1,
      language: 'en',
      codeExploitant: 'E1',
      societesIdPlus: [2],
      societesIdMoins: [],
    });
    expect(saveUserBody({ ...draft, setPassword: true, password: 'P', confirmation: 'P' })).toMatchObject({
      updatePassword: true,
      password: 'P',
      rePasswordKey: 'P',
    });
  });

  it('keeps a company on one side only: adding it takes it off the removed ones', () => {
    const draft = withCompany({ ...newUserDraft(1, 'fr'), societesMoins: [5, 6] }, 5, 'plus');
    expect([draft.societesPlus, draft.societesMoins]).toEqual([[5], [6]]);
    expect(withCompany(draft, 5, 'profile').societesPlus).toEqual([]);
  });

  it("places the server's refusals at their field, and the others for the whole form", () => {
    const fail = (code: string, details?: Record<string, unknown>) => new ApiFailure(code, 400, details);
    expect(refusalProblems(fail('LoginTaken'), name).fields).toEqual({
      login: { id: 'usersAdmin.error.LoginTaken' },
    });
    expect(
      refusalProblems(fail('PasswordPolicy', { problems: ['noDigit'] }), name).fields.password?.values,
    ).toEqual({ problems: '<noDigit>' });
    expect(refusalProblems(fail('InvalidField', { field: 'email' }), name).fields).toEqual({
      email: { id: 'usersAdmin.error.InvalidField' },
    });
    expect(
      refusalProblems(fail('UnknownExtra', { keys: ['couleur_fav'] }), name).fields.codeExploitant,
    ).toEqual({
      id: 'usersAdmin.error.UnknownExtra',
      values: { names: 'couleur_fav' },
    });
    expect(refusalProblems(fail('LastAdministrator'), name)).toEqual({
      fields: {},
      form: { id: 'usersAdmin.error.LastAdministrator', values: { names: '' } },
    });
    expect(refusalProblems(new ApiFailure('Network Error', null), name).form).toEqual({
      id: 'error.Network Error',
    });
  });
});

describe('user list', () => {
  const users = [
    user({ id: 1, login: 'zoé', email: 'zoe@alpha.fr', profile: 1, sites: [10, 11] }),
    user({ id: 2, login: 'Élodie', email: 'elodie@beta.fr', profile: 2, active: false, sites: [12] }),
    user({ id: 3, login: 'admin', email: null, profile: 2, sites: [10, 11, 12] }),
  ];
  it('finds users by login or e-mail without case or accents, sorted by login', () => {
    expect(filterUsers(users, { ...NO_FILTER, search: 'elo' }).map((u) => u.id)).toEqual([2]);
    expect(filterUsers(users, { ...NO_FILTER, search: 'ALPHA' }).map((u) => u.id)).toEqual([1]);
    expect(filterUsers(users, NO_FILTER).map((u) => u.login)).toEqual(['admin', 'Élodie', 'zoé']);
  });
  it('filters by profile, by a site the user reaches, and by active', () => {
    expect(filterUsers(users, { ...NO_FILTER, profileId: 2 }).map((u) => u.id)).toEqual([3, 2]);
    expect(filterUsers(users, { ...NO_FILTER, restaurantId: 11 }).map((u) => u.id)).toEqual([3, 1]);
    expect(filterUsers(users, { ...NO_FILTER, active: false }).map((u) => u.id)).toEqual([2]);
  });
  it('names sites in name order, leaving out those it does not know', () => {
    const sites = [
      { restaurantId: 11, libelle: 'Lyon', societeId: 1 },
      { restaurantId: 10, libelle: 'Paris', societeId: 1 },
    ];
    expect(siteNames([10, 11, 99], sites)).toEqual(['Lyon', 'Paris']);
  });
});

describe('profile form', () => {
  const profile: Profile = {
    id: 4,
    titre: 'Comptable',
    droits: ['RAPPORTS'],
    criteres: { region: 'Nord' },
    allSites: false,
    restaurantIds: [10],
    raisonsSociales: [],
    societesPlus: [2],
    societesMoins: [],
    optionsTickets: { cancellations: true, corrections: false },
    profileCaisse: false,
    users: 3,
  };

  it('sends what the form shows, valid for the contract, empty criteria rows dropped', () => {
    const draft = profileDraftOf(profile);
    draft.criteres.push(criterionRow());
    const input = profileInput(draft);
    expect(input).toEqual({
      titre: 'Comptable',
      droits: ['RAPPORTS'],
      allSites: false,
      restaurantIds: [10],
      societesIdPlus: [2],
      societesIdMoins: [],
      optionsTicket: { cancellations: true, corrections: false, cashed: false, employeeMeals: false },
      criteres: { region: 'Nord' },
      profileCaisse: false,
    });
    expect(ProfileInputSchema.safeParse(input).success).toBe(true);
    expect(profileInput({ ...draft, scope: 'all' })).toMatchObject({
      allSites: true,
      restaurantIds: [],
      societesIdPlus: [],
    });
  });

  it('refuses an empty title, no site at all, and two criteria with one key', () => {
    const draft = { ...newProfileDraft(), criteres: [criterionRow('zone', 'a'), criterionRow(' zone', 'b')] };
    expect(checkProfileDraft(draft).fields).toEqual({
      titre: { id: 'profilesAdmin.error.required' },
      scope: { id: 'profilesAdmin.error.noSite' },
      criteres: { id: 'profilesAdmin.error.criterionTwice' },
    });
    expect(checkProfileDraft({ ...draft, titre: 'T', scope: 'all', criteres: [] }).fields).toEqual({});
  });

  it('names the users holding a profile that cannot be removed, and rights the server does not know', () => {
    expect(profileRefusal(new ApiFailure('InUse', 409, { users: ['marie', 'paul'] })).form).toEqual({
      id: 'profilesAdmin.error.InUse',
      values: { names: 'marie, paul' },
    });
    expect(profileRefusal(new ApiFailure('SelfChange', 409)).form).toEqual({
      id: 'profilesAdmin.error.SelfChange',
    });
    expect(
      profileRefusal(new ApiFailure('UnknownRight', 400, { rights: ['X'] })).fields.droits?.values,
    ).toEqual({ names: 'X' });
  });
});
