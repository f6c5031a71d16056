import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useSnapshot } from 'valtio';
import { HomePage } from '../../features/home/components/home-page.tsx';
import { MessagesBanner } from '../../features/messages/components/messages-banner.tsx';
import { messageQueries } from '../../features/messages/message-queries.ts';
import { i18nState } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { optionalString } from '../../lib/route-params.ts';
import { session } from '../../lib/session.ts';

/** The counting screen's mail dialog, loaded only when a reminder is asked for. */
const MailDialog = lazy(() =>
  import('../../features/counting/components/mail-dialog.tsx').then((m) => ({ default: m.MailDialog })),
);

/** `text` when it is a real calendar date `YYYY-MM-DD`, else undefined (no zod here: decision 0003). */
function wireDate(text: string | undefined): string | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text ? text : undefined;
}

/**
 * /home (SPEC.md §2, issue #19): the user's messages from the administration (issue #18: shown on
 * sign-in, which lands here, and on /home), then the dashboard's widgets for the selected sites
 * and the fiscal date of `?date=YYYY-MM-DD` (SPEC.md §7 datePerso; today when absent). The loader
 * starts reading the messages without waiting for them: the page paints at once (from the
 * persisted cache, decision 0021) and the banner appears when they arrive. A reminder for a safe
 * not counted opens the counting screen's mail dialog (bo/home/envoieMailManquant).
 */
export const Route = createFileRoute('/_authed/home')({
  validateSearch: (search: Record<string, unknown>): { date?: string } => {
    const date = wireDate(optionalString(search, 'date'));
    return date ? { date } : {};
  },
  loader: () => {
    const user = session.user;
    if (user) void queryClient.prefetchQuery(messageQueries.mine(user.id, i18nState.language));
  },
  component: Home,
});

type MissingSafe = { kind: 'missing'; site: number; libelle: string; dateFiscale: string };

function Home() {
  const { date } = Route.useSearch();
  const navigate = useNavigate({ from: '/home' });
  const { user } = useSnapshot(session);
  const [reminder, setReminder] = useState<MissingSafe | null>(null);
  return (
    <>
      <MessagesBanner />
      <HomePage
        datePerso={date}
        onDatePersoChange={(wire) => {
          // A date still being typed is null: keep the last good one until the text is a date.
          if (wire) void navigate({ search: { date: wire }, replace: true });
        }}
        onRemindMissingSafeCount={(site, dateFiscale) =>
          setReminder({ kind: 'missing', site: site.restaurantId, libelle: site.libelle, dateFiscale })
        }
      />
      {reminder && user ? (
        <Suspense fallback={null}>
          <MailDialog userId={user.id} request={reminder} onClose={() => setReminder(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
