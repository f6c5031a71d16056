/**
 * Calls of the favourites (src/contract/favourites.ts): the list through TanStack Query (one key
 * factory, DESIGN.md §8) and the two writes as mutation hooks that refresh the list. Writes
 * answer the translated notifications of SPEC.md §8: `SuccessMod` on success; on failure the
 * server's own code when it tells the user something they can act on (network down, no site of
 * the favourite left), `savedError` otherwise.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type Favourite,
  type FavouriteSaveBody,
  FavouriteSchema,
  FavouritesAnswerSchema,
} from '../../../contract/favourites.ts';
import { ApiFailure, getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

export const favouriteQueries = {
  all: () => ['favourites'] as const,
  /** GET bo/favoris?id — the user's favourites, sorted by name by the server. */
  list: (userId: number) =>
    queryOptions({
      queryKey: [...favouriteQueries.all(), userId, 'list'] as const,
      queryFn: () => getJson('bo/favoris', FavouritesAnswerSchema, { id: userId }),
      select: (answer) => answer.favoris,
      staleTime: 60_000,
    }),
};

function signedInUserId(): number {
  const user = session.user;
  if (!user) throw new ApiFailure('NoConnectedUser', null);
  return user.id;
}

/**
 * POST bo/favoris/save?id: creates the favourite (no `id`) or replaces it (with `id`).
 * @throws ApiFailure (BadRequest, NoSitesSelected, NotFound, Network Error…).
 */
export async function saveFavourite(body: FavouriteSaveBody): Promise<Favourite> {
  const id = signedInUserId();
  try {
    const answer = await http
      .post('bo/favoris/save', { searchParams: toSearchParams({ id }), json: body })
      .json<unknown>();
    return FavouriteSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** GET bo/favoris/remove?id&favoriId. @throws ApiFailure (NotFound, Network Error…). */
export async function removeFavourite(favoriId: number): Promise<void> {
  const id = signedInUserId();
  try {
    await http.get('bo/favoris/remove', { searchParams: toSearchParams({ id, favoriId }) }).json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** Codes the user can act on, shown as such; every other failure of a write reads `savedError`. */
const TELLING_CODES = new Set(['Network Error', 'NoSitesSelected', 'NotFound', 'TooManyRequests']);

/** The error code a failed favourite write is told with (message id `error.<code>`). */
export function favouriteFailureCode(error: unknown): string {
  return error instanceof ApiFailure && TELLING_CODES.has(error.code) ? error.code : 'savedError';
}

/** The notification for a failed favourite write (SPEC.md §8). */
export function notifyFavouriteFailure(error: unknown): void {
  if (favouriteFailureCode(error) === 'savedError') notify.error('savedError');
  else notifyFailure(error);
}

function refreshList(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: favouriteQueries.all() });
}

/** Saves a favourite; notifies success or failure and refreshes the list. Use `mutateAsync` to keep a form open on error. */
export function useSaveFavouriteMutation() {
  return useMutation({
    mutationFn: saveFavourite,
    onSuccess: async () => {
      notify.success('SuccessMod');
      await refreshList();
    },
    onError: notifyFavouriteFailure,
  });
}

/** Deletes a favourite; notifies success or failure and refreshes the list. */
export function useRemoveFavouriteMutation() {
  return useMutation({
    mutationFn: removeFavourite,
    onSuccess: async () => {
      notify.success('SuccessMod');
      await refreshList();
    },
    onError: async (error) => {
      notifyFavouriteFailure(error);
      // Deleted elsewhere (another tab, device): show the list as it is now.
      if (error instanceof ApiFailure && error.code === 'NotFound') await refreshList();
    },
  });
}
