/**
 * The profile form of /config/profils as data, without React: the draft (title, rights, site
 * scope, ticket options, criteria as key/value rows, terminal profile), the checks made before
 * any call (title required, criteria keys filled and distinct, chosen sites when the scope is
 * "chosen sites"), the body of newProfile / saveProfile, and the server's refusals as problems
 * (message ids of the catalogues).
 */
import { type Profile, type ProfileInput, TICKET_OPTIONS } from '../../../contract/administration.ts';
import { ApiFailure } from '../../lib/http.ts';
import type { Problem } from './user-form-model.ts';

/** One criterion as typed: key and value; rows may be added before they are filled. */
export interface CriterionRow {
  /** Stable React key of the row (not sent). */
  rowId: number;
  key: string;
  value: string;
}

/** What the profile form holds while it is typed in. */
export interface ProfileDraft {
  titre: string;
  droits: string[];
  /** `all`: every site, present and future; `chosen`: the sites and companies below. */
  scope: 'all' | 'chosen';
  restaurantIds: number[];
  societesPlus: number[];
  societesMoins: number[];
  optionsTickets: string[];
  criteres: CriterionRow[];
  profileCaisse: boolean;
}

export type ProfileField = 'titre' | 'droits' | 'scope' | 'criteres';

export interface ProfileFormProblems {
  fields: Partial<Record<ProfileField, Problem>>;
  form: Problem | null;
}

let nextRowId = 1;

/** A new criterion row (empty unless given). */
export function criterionRow(key = '', value = ''): CriterionRow {
  return { rowId: nextRowId++, key, value };
}

/** The draft of a new profile: no right, chosen sites (none yet), every ticket option off. */
export function newProfileDraft(): ProfileDraft {
  return {
    titre: '',
    droits: [],
    scope: 'chosen',
    restaurantIds: [],
    societesPlus: [],
    societesMoins: [],
    optionsTickets: [],
    criteres: [],
    profileCaisse: false,
  };
}

/** The draft of an existing profile as the server answered it. */
export function profileDraftOf(profile: Profile): ProfileDraft {
  return {
    titre: profile.titre,
    droits: [...profile.droits],
    scope: profile.allSites ? 'all' : 'chosen',
    restaurantIds: [...profile.restaurantIds],
    societesPlus: [...profile.societesPlus],
    societesMoins: [...profile.societesMoins],
    optionsTickets: Object.entries(profile.optionsTickets)
      .filter(([, on]) => on)
      .map(([option]) => option),
    criteres: Object.entries(profile.criteres).map(([k, v]) =>
      criterionRow(k, typeof v === 'string' ? v : JSON.stringify(v)),
    ),
    profileCaisse: profile.profileCaisse,
  };
}

/** The checks made before any call; empty `fields` means the draft can be sent. */
export function checkProfileDraft(draft: ProfileDraft): ProfileFormProblems {
  const fields: ProfileFormProblems['fields'] = {};
  if (draft.titre.trim() === '') fields.titre = { id: 'profilesAdmin.error.required' };
  if (draft.scope === 'chosen' && draft.restaurantIds.length === 0 && draft.societesPlus.length === 0)
    fields.scope = { id: 'profilesAdmin.error.noSite' };
  const keys = draft.criteres.map((c) => c.key.trim());
  if (draft.criteres.some((c) => c.key.trim() === '' && c.value.trim() !== ''))
    fields.criteres = { id: 'profilesAdmin.error.criterionKey' };
  else if (new Set(keys.filter((k) => k !== '')).size !== keys.filter((k) => k !== '').length)
    fields.criteres = { id: 'profilesAdmin.error.criterionTwice' };
  return { fields, form: null };
}

/** The body of newProfile / saveProfile; empty criteria rows are dropped. */
export function profileInput(draft: ProfileDraft): ProfileInput {
  const chosen = draft.scope === 'chosen';
  return {
    titre: draft.titre.trim(),
    droits: [...draft.droits],
    allSites: !chosen,
    restaurantIds: chosen ? [...draft.restaurantIds] : [],
    societesIdPlus: chosen ? [...draft.societesPlus] : [],
    societesIdMoins: chosen ? [...draft.societesMoins] : [],
    optionsTicket: Object.fromEntries(TICKET_OPTIONS.map((o) => [o, draft.optionsTickets.includes(o)])),
    criteres: Object.fromEntries(
      draft.criteres.filter((c) => c.key.trim() !== '').map((c) => [c.key.trim(), c.value.trim()]),
    ),
    profileCaisse: draft.profileCaisse,
  };
}

function listOf(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : '';
}

/**
 * A refusal of a save or a removal as problems: UnknownRight at the rights (naming them),
 * InvalidField at its field, InUse naming the users, LastAdministrator and SelfChange (taking
 * CONFIGURATION from one's own profile) for the form.
 */
export function profileRefusal(error: unknown): ProfileFormProblems {
  if (!(error instanceof ApiFailure)) return { fields: {}, form: { id: 'app.unexpectedError' } };
  const { code, details } = error;
  if (code === 'UnknownRight')
    return {
      fields: {
        droits: { id: 'profilesAdmin.error.UnknownRight', values: { names: listOf(details?.rights) } },
      },
      form: null,
    };
  if (code === 'InvalidField' && details?.field === 'titre')
    return { fields: { titre: { id: 'profilesAdmin.error.InvalidField' } }, form: null };
  if (code === 'InvalidField' && details?.field === 'criteres')
    return { fields: { criteres: { id: 'profilesAdmin.error.InvalidField' } }, form: null };
  if (code === 'InUse')
    return {
      fields: {},
      form: { id: 'profilesAdmin.error.InUse', values: { names: listOf(details?.users) } },
    };
  if (code === 'LastAdministrator' || code === 'SelfChange')
    return { fields: {}, form: { id: `profilesAdmin.error.${code}` } };
  return { fields: {}, form: { id: `error.${code}` } };
}
