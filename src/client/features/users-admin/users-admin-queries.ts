/**
 * Calls of /config/users and /config/profils (src/contract/administration.ts, SPEC.md §7
 * "Administration"): the reads through TanStack Query with one key factory, the writes as plain
 * functions (so tests can call them against the real server) and mutation hooks that refresh the
 * lists by the factory's prefix. Every write sends a fresh Idempotency-Key: a repeat after a lost
 * answer (double press, flaky network) creates or removes once.
 *
 * Failures reach callers as ApiFailure (lib/http.ts) with the server's code; the forms turn the
 * codes into field errors (user-form-model.ts, profile-form-model.ts), the success notification
 * is SPEC.md §8's SuccessMod for a change, `success.userCreated` / `profileCreated` for a creation.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import {
  DroitSchema,
  type NewUtilisateurQuery,
  type ProfileInput,
  ProfileSchema,
  type Profile,
  ReinitAnswerSchema,
  type SaveUtilisateurBody,
  SocieteSchema,
  UtilisateurSchema,
  type Utilisateur,
} from '../../../contract/administration.ts';
import type { Language } from '../../../contract/reports.ts';
import { getJson, http, type SearchParams, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { notify } from '../../lib/notifications.ts';
import { queryClient } from '../../lib/query-client.ts';

const UtilisateursAnswerSchema = z.array(UtilisateurSchema);
const ProfilesAnswerSchema = z.array(ProfileSchema);
const SocietesAnswerSchema = z.array(SocieteSchema);
const DroitsAnswerSchema = z.array(DroitSchema);
const RemovedAnswerSchema = z.object({ id: z.number().int() });

/** Administration lists change only through this screen (or another administrator): a minute is fresh. */
const STALE_MS = 60_000;

/** Query-key factory and options of the administration reads (DESIGN.md §8: no inline keys). */
export const usersAdminQueries = {
  /** Prefix of every key of this feature: invalidated after each write. */
  all: () => ['usersAdmin'] as const,
  /** GET bo/infra/getUtilisateurs — every user, with effective sites and profile title. */
  users: () =>
    queryOptions({
      queryKey: [...usersAdminQueries.all(), 'users'] as const,
      queryFn: () => getJson('bo/infra/getUtilisateurs', UtilisateursAnswerSchema),
      staleTime: STALE_MS,
    }),
  /** GET bo/infra/getProfils — every profile with how many users hold it. */
  profiles: () =>
    queryOptions({
      queryKey: [...usersAdminQueries.all(), 'profiles'] as const,
      queryFn: () => getJson('bo/infra/getProfils', ProfilesAnswerSchema),
      staleTime: STALE_MS,
    }),
  /** GET bo/infra/getSocietes — companies with their sites (the site and company pickers). */
  companies: () =>
    queryOptions({
      queryKey: [...usersAdminQueries.all(), 'companies'] as const,
      queryFn: () => getJson('bo/infra/getSocietes', SocietesAnswerSchema),
      staleTime: STALE_MS,
    }),
  /** GET bo/infra/getDroits?language — the rights, labelled and described in `language`. */
  rights: (language: Language) =>
    queryOptions({
      queryKey: [...usersAdminQueries.all(), 'rights', language] as const,
      queryFn: () => getJson('bo/infra/getDroits', DroitsAnswerSchema, { language }),
      staleTime: 30 * 60_000,
    }),
};

/** A write: `method` on `path` with `searchParams` and an optional JSON body, a fresh Idempotency-Key. */
async function write(
  method: 'get' | 'post',
  path: string,
  searchParams: SearchParams,
  json?: unknown,
): Promise<unknown> {
  try {
    return await http(path, {
      method,
      searchParams: toSearchParams(searchParams),
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      ...(json === undefined ? {} : { json }),
    }).json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** What the create form sends: newUtilisateur's query, the operator code and the optional password. */
export interface NewUserRequest {
  query: NewUtilisateurQuery;
  codeExploitant: string;
  /** Password and its confirmation, or null to let the user set one through a reset link. */
  password: { password: string; rePasswordKey: string } | null;
}

/**
 * POST bo/infra/newUtilisateur: the query fields, the password in the body (never in a URL) with
 * the extras list (`code_exploitant`, SPEC.md §3). Resolves to the created user.
 * @throws ApiFailure LoginTaken 409, PasswordPolicy / PasswordMismatch / InvalidField / UnknownExtra 400…
 */
export async function createUser({ query, codeExploitant, password }: NewUserRequest): Promise<Utilisateur> {
  const extras = codeExploitant.trim()
    ? [{ key: 'code_exploitant', value: codeExploitant.trim(), type: 'STRING' as const }]
    : [];
  const { password: _p, rePasswordKey: _r, ...fields } = query;
  // `as`: the contract's coerced fields take `unknown` as input; newUserRequest puts only text and numbers there.
  const answer = await write('post', 'bo/infra/newUtilisateur', fields as SearchParams, {
    extras,
    ...(password ?? {}),
  });
  return UtilisateurSchema.parse(answer);
}

/**
 * POST bo/infra/saveUtilisateur?id with a JSON body (deactivate: `{ active: false }`).
 * @throws ApiFailure LoginTaken, LastAdministrator, SelfChange 409; PasswordPolicy, InvalidField 400…
 */
export async function saveUser(id: number, body: SaveUtilisateurBody): Promise<Utilisateur> {
  return UtilisateurSchema.parse(await write('post', 'bo/infra/saveUtilisateur', { id }, body));
}

/** GET bo/infra/removeUtilisateur?id. @throws ApiFailure LastAdministrator, SelfChange 409, NotFound 404. */
export async function removeUser(id: number): Promise<void> {
  RemovedAnswerSchema.parse(await write('get', 'bo/infra/removeUtilisateur', { id }));
}

/** GET reinit/sendReinitMail?user — mails `login` a link to set a password. @throws ApiFailure userNull, ErreurEnvoiMail. */
export async function sendResetLink(login: string): Promise<void> {
  ReinitAnswerSchema.parse(await write('get', 'reinit/sendReinitMail', { user: login }));
}

/** POST bo/infra/newProfile. @throws ApiFailure UnknownRight, InvalidField 400. */
export async function createProfile(input: ProfileInput): Promise<Profile> {
  return ProfileSchema.parse(await write('post', 'bo/infra/newProfile', {}, input));
}

/** POST bo/infra/saveProfile?id. @throws ApiFailure UnknownRight, LastAdministrator, NotFound. */
export async function saveProfile(id: number, input: ProfileInput): Promise<Profile> {
  return ProfileSchema.parse(await write('post', 'bo/infra/saveProfile', { id }, input));
}

/** GET bo/infra/removeProfil?id. @throws ApiFailure InUse 409 with `details.users` (logins), NotFound. */
export async function removeProfile(id: number): Promise<void> {
  RemovedAnswerSchema.parse(await write('get', 'bo/infra/removeProfil', { id }));
}

function refresh(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: usersAdminQueries.all() });
}

/** The success a write tells: a code of the catalogues' `success.*` and its values. */
export interface WriteSuccess {
  code: string;
  values?: Record<string, string | number>;
}

/** SPEC.md §8's SuccessMod: what a change or a removal tells. */
const SAVED: WriteSuccess = { code: 'SuccessMod' };

/**
 * A write of this feature as a mutation: its success told (5 s; by default SPEC.md §8's
 * SuccessMod; a creation says what it created, issue #32 D.12) and fresh lists on success.
 * Failures are left to the caller (`mutateAsync`), which shows them at the field or in the form,
 * so what was typed stays.
 */
export function useUsersAdminMutation<A, R>(
  run: (args: A) => Promise<R>,
  success: (result: R) => WriteSuccess = () => SAVED,
) {
  return useMutation({
    mutationFn: run,
    onSuccess: async (result) => {
      const told = success(result);
      notify.success(told.code, told.values);
      await refresh();
    },
  });
}
