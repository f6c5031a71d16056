/**
 * Calls of my account (SPEC.md §2 `/account`, §7 GET bo/infra/getUtilisateur?login and
 * POST bo/infra/saveUtilisateur?id; shapes in contract/administration.ts): my own user read
 * through TanStack Query (one key factory), and the save, which answers the saved user.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  type SaveUtilisateurBody,
  type Utilisateur,
  UtilisateurSchema,
} from '../../../contract/administration.ts';
import { getJson, http, toApiFailure } from '../../lib/http.ts';
import { queryClient } from '../../lib/query-client.ts';

export const accountQueries = {
  all: () => ['account'] as const,
  /** GET bo/infra/getUtilisateur?login — the signed-in user's own record (never a password or key). */
  mine: (login: string) =>
    queryOptions({
      queryKey: [...accountQueries.all(), login] as const,
      queryFn: () => getJson('bo/infra/getUtilisateur', UtilisateurSchema, { login }),
      staleTime: 60_000,
    }),
};

/**
 * POST bo/infra/saveUtilisateur?id=<own id> with the fields a user may change about themselves
 * (e-mail, language, colour; the password with `updatePassword` and `currentPassword`), then
 * puts the answer in the cache.
 * @throws ApiFailure `WrongPassword`, `PasswordPolicy` (`details.problems`), `PasswordMismatch`,
 *   `InvalidField` (`details.field`), `Network Error`…
 */
export async function saveMyAccount(
  userId: number,
  login: string,
  body: SaveUtilisateurBody,
): Promise<Utilisateur> {
  let answer: unknown;
  try {
    answer = await http
      .post('bo/infra/saveUtilisateur', { searchParams: { id: userId }, json: body })
      .json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
  const saved = UtilisateurSchema.parse(answer);
  queryClient.setQueryData(accountQueries.mine(login).queryKey, saved);
  return saved;
}
