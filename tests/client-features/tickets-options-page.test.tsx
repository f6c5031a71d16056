/**
 * /tickets offers only the search criteria the user's profile allows (SPEC.md §3 `optionsTickets`,
 * §9 criteria), against the real server (tickets-options-api.ts), rendered with react-dom in
 * happy-dom, in French: a profile refusing cancellations shows no such checkbox; a profile with
 * `{}` (made before the options) shows all four, as does a session stored before the sign-in
 * answered the allowed criteria.
 */
import { closeAll, PASSWORD } from './tickets-options-api.ts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { TICKET_CRITERIA } from '../../src/contract/tickets.ts';
import { TicketsPage } from '../../src/client/features/tickets/components/tickets-page.tsx';
import { allowedTicketCriteria } from '../../src/client/features/tickets/ticket-search.ts';
import { setLanguage } from '../../src/client/lib/i18n.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session, signIn, signOut } from '../../src/client/lib/session.ts';
import { renderScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

let screen: Screen | undefined;

afterEach(async () => {
  if (screen) unmountScreen(screen);
  screen = undefined;
  await signOut('expired');
});
afterAll(async () => {
  await closeAll();
});

const ALL_LABELS = TICKET_CRITERIA.map((c) => fr[`tickets.criterion.${c}`]);

/** The labels of the criteria checkboxes /tickets shows, once the page is drawn. */
async function criteriaShown(): Promise<string[]> {
  await setLanguage('fr');
  screen = await renderScreen(<TicketsPage />, 'fr', fr);
  // The reference data the selection loads is in before the screen goes (no cancelled call).
  await waitUntil(
    () => document.querySelector('.tk-criteria') !== null && queryClient.isFetching() === 0,
    5_000,
    20,
  );
  return [...document.querySelectorAll('.tk-criteria label')].map((l) => l.textContent ?? '');
}

describe('/tickets criteria and the profile’s ticket options', () => {
  it('shows no cancellations checkbox to a user whose profile refuses that criterion', async () => {
    const user = await signIn('anne', PASSWORD);
    expect(user.criteresTickets).toEqual(['corrections', 'cashed', 'employeeMeals']);
    const shown = await criteriaShown();
    expect(shown).toEqual(ALL_LABELS.filter((l) => l !== fr['tickets.criterion.cancellations']));
    expect(shown).not.toContain('Annulations');
  });

  it('shows every criterion to a user whose profile has no options set', async () => {
    await signIn('bruno', PASSWORD);
    expect(await criteriaShown()).toEqual(ALL_LABELS);
  });

  it('shows every criterion for a session stored before the sign-in sent the allowed ones', async () => {
    const user = await signIn('anne', PASSWORD);
    const { criteresTickets: _dropped, ...older } = user;
    session.user = older;
    expect(allowedTicketCriteria(session.user.criteresTickets)).toEqual([...TICKET_CRITERIA]);
    expect(await criteriaShown()).toEqual(ALL_LABELS);
  });
});
