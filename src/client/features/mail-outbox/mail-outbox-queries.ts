/**
 * Calls of /config/mails (issue #28): GET bo/mails/outbox (the `.eml` outbox, newest first, and
 * where mails go now) and GET bo/mails/outbox/message (one mail; the server audit-logs each open,
 * so a mail is fetched when opened, not before).
 */
import { queryOptions } from '@tanstack/react-query';
import { OutboxListAnswerSchema, OutboxMessageAnswerSchema } from '../../../contract/mail-outbox.ts';
import { getJson } from '../../lib/http.ts';
import { session } from '../../lib/session.ts';

/** Query-key factory of /config/mails, keyed by the signed-in user. */
export const mailOutboxQueries = {
  all: () => ['mail-outbox', session.user?.id ?? null] as const,
  /** The list of the outbox. */
  list: () =>
    queryOptions({
      queryKey: [...mailOutboxQueries.all(), 'list'] as const,
      queryFn: () => getJson('bo/mails/outbox', OutboxListAnswerSchema, { id: session.user?.id }),
      staleTime: 5_000,
    }),
  /** Only where mails go now (`mode`), for the notices of the screens that send mail. */
  mode: () =>
    queryOptions({
      queryKey: [...mailOutboxQueries.all(), 'mode'] as const,
      queryFn: async () =>
        (await getJson('bo/mails/outbox', OutboxListAnswerSchema, { id: session.user?.id, limit: 0 })).mode,
      staleTime: 60_000,
    }),
  /** One mail by file name (kept while the screen is open: one audit entry per open). */
  message: (name: string) =>
    queryOptions({
      queryKey: [...mailOutboxQueries.all(), 'message', name] as const,
      queryFn: () =>
        getJson('bo/mails/outbox/message', OutboxMessageAnswerSchema, { id: session.user?.id, name }),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
