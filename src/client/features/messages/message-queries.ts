/**
 * Calls of the messages from the administration (src/contract/administration.ts): the
 * administration's list and the signed-in user's messages through TanStack Query (one key
 * factory), the profiles a message may target, and the writes as mutation hooks that refresh
 * the lists. Saves and deletes answer SPEC.md §8's `SuccessMod`; a dismissal leaves the banner at
 * once and is told only when it fails.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type AdminMessage,
  AdminMessageSchema,
  type MessageInput,
  ProfileSchema,
} from '../../../contract/administration.ts';
import { getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { queryClient } from '../../lib/query-client.ts';

const MessageListSchema = z.array(AdminMessageSchema);

/** What a message's targets need of a profile: its id and title. */
const ProfileChoiceSchema = ProfileSchema.pick({ id: true, titre: true });
export type ProfileChoice = z.infer<typeof ProfileChoiceSchema>;
/** GET bo/infra/getProfils answers the list, bare or as `{ profils }`; either is read. */
const ProfilesAnswerSchema = z.union([
  z.array(ProfileChoiceSchema),
  z.object({ profils: z.array(ProfileChoiceSchema) }).transform((a) => a.profils),
]);

export const messageQueries = {
  all: () => ['messages'] as const,
  /** GET bo/infra/getMessages — every message, newest first, `text` in `language` (CONFIGURATION). */
  admin: (language: string) =>
    queryOptions({
      queryKey: [...messageQueries.all(), 'admin', language] as const,
      queryFn: () => getJson('bo/infra/getMessages', MessageListSchema, { language }),
      staleTime: 30_000,
    }),
  /** GET messages/all — the signed-in user's messages today, in `language`. Refreshed every 15 minutes. */
  mine: (userId: number, language: string) =>
    queryOptions({
      queryKey: [...messageQueries.all(), 'mine', userId, language] as const,
      queryFn: () => getJson('messages/all', MessageListSchema, { language }),
      staleTime: 60_000,
      refetchInterval: 15 * 60_000,
    }),
  /** GET bo/infra/getProfils — the profiles a message may target, by title. */
  profiles: () =>
    queryOptions({
      queryKey: [...messageQueries.all(), 'profiles'] as const,
      queryFn: () => getJson('bo/infra/getProfils', ProfilesAnswerSchema),
      select: (profiles: ProfileChoice[]) =>
        [...profiles].sort((a, b) => a.titre.localeCompare(b.titre, undefined, { sensitivity: 'base' })),
      staleTime: 60_000,
    }),
};

/**
 * POST bo/infra/newMessage (no `id`) or saveMessage?id.
 * @throws ApiFailure (InvalidField with details.field, NotFound, Forbidden, Network Error…).
 */
export async function saveMessage({
  id,
  input,
}: {
  id: number | null;
  input: MessageInput;
}): Promise<AdminMessage> {
  try {
    const path = id === null ? 'bo/infra/newMessage' : 'bo/infra/saveMessage';
    const searchParams = toSearchParams(id === null ? {} : { id });
    return AdminMessageSchema.parse(await http.post(path, { searchParams, json: input }).json<unknown>());
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** GET bo/infra/removeMessage?id. @throws ApiFailure (NotFound, Network Error…). */
export async function removeMessage(id: number): Promise<void> {
  try {
    await http.get('bo/infra/removeMessage', { searchParams: toSearchParams({ id }) }).json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** POST messages/dismiss?id. @throws ApiFailure (NotFound, Network Error…). */
export async function dismissMessage(id: number): Promise<void> {
  try {
    await http.post('messages/dismiss', { searchParams: toSearchParams({ id }) }).json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}

function refreshMessages(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: messageQueries.all() });
}

/**
 * Creates or replaces a message; notifies `messageCreated` for a new one, else `SuccessMod`
 * (issue #32 D.12: a creation says it was created), and refreshes the lists. The caller shows a
 * failure in its form (use `mutateAsync`), so what was typed stays.
 */
export function useSaveMessageMutation() {
  return useMutation({
    mutationFn: saveMessage,
    onSuccess: async (_saved, { id }) => {
      notify.success(id === null ? 'messageCreated' : 'SuccessMod');
      await refreshMessages();
    },
  });
}

/**
 * Deletes a message; notifies `SuccessMod` and refreshes the lists, whatever the outcome. The
 * caller shows a failure (the confirmation dialog keeps it, ui/removal-dialog.tsx).
 */
export function useRemoveMessageMutation() {
  return useMutation({
    mutationFn: removeMessage,
    onSuccess: () => notify.success('SuccessMod'),
    onSettled: refreshMessages,
  });
}

/**
 * Dismisses one of the user's messages: it leaves every cached list of theirs at once; on failure
 * the failure is told and the list read again (the message comes back).
 */
export function useDismissMessageMutation() {
  return useMutation({
    mutationFn: dismissMessage,
    onMutate: (id: number) => {
      queryClient.setQueriesData<AdminMessage[]>({ queryKey: [...messageQueries.all(), 'mine'] }, (list) =>
        list?.filter((m) => m.id !== id),
      );
    },
    onError: async (error) => {
      notifyFailure(error);
      await queryClient.invalidateQueries({ queryKey: [...messageQueries.all(), 'mine'] });
    },
  });
}
