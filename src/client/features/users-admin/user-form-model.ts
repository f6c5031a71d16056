/**
 * The user form of /config/users as data, without React: what the form holds (a draft), the
 * checks made before any call (SPEC.md §5: login and e-mail required, e-mail valid, password
 * policy, passwords match), the requests built from it (newUtilisateur for a new user,
 * saveUtilisateur for an existing one) and the server's refusals turned into problems at their
 * field or for the whole form. Problems are message ids (with values) of the catalogues, never
 * server text.
 */
import { LANGUAGES, type SaveUtilisateurBody, type Utilisateur } from '../../../contract/administration.ts';
import { passwordProblems } from '../../../contract/password.ts';
import type { Language } from '../../../contract/reports.ts';
import { ApiFailure } from '../../lib/http.ts';
import type { NewUserRequest } from './users-admin-queries.ts';

/** What the user form holds while it is typed in. Ids are company (société) ids. */
export interface UserDraft {
  login: string;
  email: string;
  profileId: number | null;
  language: Language;
  codeExploitant: string;
  societesPlus: number[];
  societesMoins: number[];
  /** New user: set a password now (else a reset link is mailed); existing user: change it. */
  setPassword: boolean;
  password: string;
  confirmation: string;
}

/** Fields of the form that can carry an error. */
export type UserField =
  | 'login'
  | 'email'
  | 'profileId'
  | 'language'
  | 'codeExploitant'
  | 'password'
  | 'confirmation';

/** A message of the catalogues and its values. */
export interface Problem {
  id: string;
  values?: Record<string, string | number>;
}

/** What a submit was refused for: per field, and for the whole form (a persistent error). */
export interface UserFormProblems {
  fields: Partial<Record<UserField, Problem>>;
  form: Problem | null;
}

export const NO_PROBLEMS: UserFormProblems = { fields: {}, form: null };

/** The draft of a new user: the first profile, the interface language, no company change, a reset link. */
export function newUserDraft(profileId: number | null, language: Language): UserDraft {
  return {
    login: '',
    email: '',
    profileId,
    language,
    codeExploitant: '',
    societesPlus: [],
    societesMoins: [],
    setPassword: false,
    password: '',
    confirmation: '',
  };
}

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

/** The draft of an existing user, as the server answered it; no password change. */
export function userDraftOf(user: Utilisateur, fallbackLanguage: Language): UserDraft {
  return {
    login: user.login,
    email: user.email ?? '',
    profileId: user.profile,
    language: isLanguage(user.language) ? user.language : fallbackLanguage,
    codeExploitant: user.codeExploitant ?? '',
    societesPlus: [...user.societesPlus],
    societesMoins: [...user.societesMoins],
    setPassword: false,
    password: '',
    confirmation: '',
  };
}

/**
 * A company's place in the user's scope: added (societesPlus), removed (societesMoins) or as the
 * profile says. One company is never both: choosing one side takes it off the other.
 */
export function withCompany(
  draft: UserDraft,
  companyId: number,
  side: 'plus' | 'minus' | 'profile',
): UserDraft {
  const plus = draft.societesPlus.filter((id) => id !== companyId);
  const minus = draft.societesMoins.filter((id) => id !== companyId);
  if (side === 'plus') plus.push(companyId);
  if (side === 'minus') minus.push(companyId);
  return { ...draft, societesPlus: plus, societesMoins: minus };
}

/** Same check as a browser's `type=email`: something@domain, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The problem of a password breaking the policy: one message naming every missing rule. */
function policyProblem(problems: readonly string[], name: (p: string) => string): Problem {
  return { id: 'usersAdmin.error.PasswordPolicy', values: { problems: problems.map(name).join(', ') } };
}

/**
 * The checks made before any call. `name` translates a message id (for the password rules named
 * in one message). Empty `fields` and null `form` mean the draft can be sent.
 */
export function checkUserDraft(draft: UserDraft, name: (id: string) => string): UserFormProblems {
  const fields: UserFormProblems['fields'] = {};
  if (draft.login.trim() === '') fields.login = { id: 'usersAdmin.error.required' };
  if (draft.email.trim() === '') fields.email = { id: 'usersAdmin.error.required' };
  else if (!EMAIL.test(draft.email.trim())) fields.email = { id: 'usersAdmin.error.email' };
  if (draft.profileId === null) fields.profileId = { id: 'usersAdmin.error.required' };
  if (draft.setPassword) {
    const problems = passwordProblems(draft.password);
    if (problems.length > 0) fields.password = policyProblem(problems, (p) => name(`password.${p}`));
    if (draft.confirmation !== draft.password)
      fields.confirmation = { id: 'usersAdmin.error.PasswordMismatch' };
  }
  return { fields, form: null };
}

/** True when `problems` holds nothing. */
export function hasProblems(problems: UserFormProblems): boolean {
  return problems.form !== null || Object.keys(problems.fields).length > 0;
}

/** newUtilisateur's request from a checked draft. Company lists go comma-separated in the query. */
export function newUserRequest(draft: UserDraft): NewUserRequest {
  return {
    query: {
      login: draft.login.trim(),
      email: draft.email.trim(),
      profileId: draft.profileId ?? 0,
      language: draft.language,
      ...(draft.societesPlus.length ? { societesIdPlus: draft.societesPlus.join(',') } : {}),
      ...(draft.societesMoins.length ? { societesIdMoins: draft.societesMoins.join(',') } : {}),
    },
    codeExploitant: draft.codeExploitant,
    password: draft.setPassword ? { password: draft.password, rePasswordKey: draft.confirmation } : null,
  };
}

/** saveUtilisateur's body from a checked draft: every field, the password only when changed. */
export function saveUserBody(draft: UserDraft): SaveUtilisateurBody {
  return {
    login: draft.login.trim(),
    email: draft.email.trim(),
    profileId: draft.profileId ?? 0,
    language: draft.language,
    codeExploitant: draft.codeExploitant.trim(),
    societesIdPlus: draft.societesPlus,
    societesIdMoins: draft.societesMoins,
    ...(draft.setPassword
      ? { updatePassword: true, password: draft.password, rePasswordKey: draft.confirmation }
      : {}),
  };
}

/** The form's field for a wire field named by InvalidField's `details.field`. */
const WIRE_FIELDS: Record<string, UserField> = {
  login: 'login',
  email: 'email',
  profileId: 'profileId',
  profile: 'profileId',
  language: 'language',
  codeExploitant: 'codeExploitant',
  code_exploitant: 'codeExploitant',
  password: 'password',
  rePasswordKey: 'confirmation',
};

/** Refusals of administration shown with this screen's own words (catalogue `usersAdmin.error.<code>`). */
const OWN_CODES = new Set(['LastAdministrator', 'SelfChange', 'InUse', 'UnknownExtra', 'LoginTaken']);

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The problem for a refusal that belongs to no field (kept on screen until the next submit). */
export function formProblem(error: unknown): Problem {
  if (!(error instanceof ApiFailure)) return { id: 'app.unexpectedError' };
  if (OWN_CODES.has(error.code)) {
    const names = [...listOf(error.details?.users), ...listOf(error.details?.keys)];
    return { id: `usersAdmin.error.${error.code}`, values: { names: names.join(', ') } };
  }
  return { id: `error.${error.code}` };
}

/**
 * A server's refusal of a save as problems: at the field it names (LoginTaken at the login,
 * PasswordPolicy at the password with the missing rules, PasswordMismatch at the confirmation,
 * InvalidField at `details.field`, UnknownExtra at the operator code), else for the form.
 */
export function refusalProblems(error: unknown, name: (id: string) => string): UserFormProblems {
  if (!(error instanceof ApiFailure)) return { fields: {}, form: formProblem(error) };
  const { code, details } = error;
  if (code === 'LoginTaken') return { fields: { login: { id: 'usersAdmin.error.LoginTaken' } }, form: null };
  if (code === 'PasswordPolicy') {
    const problems = listOf(details?.problems);
    return {
      fields: { password: policyProblem(problems, (p) => name(`password.${p}`)) },
      form: null,
    };
  }
  if (code === 'PasswordMismatch')
    return { fields: { confirmation: { id: 'usersAdmin.error.PasswordMismatch' } }, form: null };
  if (code === 'UnknownExtra') return { fields: { codeExploitant: formProblem(error) }, form: null };
  const field = code === 'InvalidField' ? WIRE_FIELDS[String(details?.field)] : undefined;
  if (field) return { fields: { [field]: { id: 'usersAdmin.error.InvalidField' } }, form: null };
  return { fields: {}, form: formProblem(error) };
}
