/**
 * /anomalies against the real server (anomalies-api.ts), rendered with react-dom in happy-dom, in
 * French: on arrival it shows the planted cases most severe first, each explained in a sentence
 * with its figures, and its drill-down opens /tickets on that seller, site, period and criterion,
 * where the search runs at once and finds the seller's cancellations.
 */
import { closeAll, PASSWORD } from './anomalies-api.ts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { AnomalyAnswerSchema } from '../../src/contract/anomalies.ts';
import { AnomaliesPage } from '../../src/client/features/anomalies/components/anomalies-page.tsx';
import { TicketsPage } from '../../src/client/features/tickets/components/tickets-page.tsx';
import { getJson } from '../../src/client/lib/http.ts';
import { setLanguage } from '../../src/client/lib/i18n.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session, signIn, signOut } from '../../src/client/lib/session.ts';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';
import { PERIOD } from '../server/anomalies-fixture.ts';
import { renderRoutedScreen, type Screen, unmountScreen, waitUntil } from './support.tsx';

let screen: Screen | undefined;

afterEach(async () => {
  if (screen) unmountScreen(screen);
  screen = undefined;
  await signOut('expired');
  resetSelection();
});
afterAll(async () => {
  await closeAll();
});

/** /tickets opened by the drill-down of the planted seller's cancellations. */
function TicketsLinked() {
  return <TicketsPage link={{ site: 1, vendeur: 'V03', ...PERIOD, critere: 'cancellations' }} />;
}

const items = () => [...document.querySelectorAll<HTMLLIElement>('.an-item')];

describe('/anomalies', () => {
  it('shows the planted cases on arrival, most severe first, each explained with its figures', async () => {
    await signIn('zoe', PASSWORD);
    await setLanguage('fr');
    selection.period = { kind: 'custom', debut: '02/03/2026', fin: '29/03/2026' };
    const routed = await renderRoutedScreen(
      { '/anomalies': AnomaliesPage, '/tickets': () => <p>tickets</p> },
      '/anomalies',
      'fr',
      fr,
    );
    screen = routed;
    await waitUntil(() => items().length > 0, 10_000, 50);

    const heading = document.querySelector('#an-result-heading')?.textContent;
    expect(heading).toBe('5 anomalies du 02/03/2026 au 29/03/2026');
    const titles = items().map((li) => li.querySelector('h3')?.textContent);
    expect(titles).toContain('Chloé Durand (vendeur, Paris Bastille) : annulations');
    expect(titles).toContain('Caisse 3 (caisse, Paris Bastille) : écarts de caisse');

    const chloe = items().find((li) =>
      li.textContent?.includes('Chloé Durand (vendeur, Paris Bastille) : annulations'),
    )!;
    expect(chloe.textContent).toMatch(
      /\d,\d annulations pour 100 tickets, contre \d,\d pour les autres vendeurs du site et \d,\d sur ses 8 semaines précédentes\./,
    );
    expect(chloe.textContent).toContain('560 tickets sur la période');
    const link = chloe.querySelector('a')!;
    expect(link.textContent).toBe('Voir les tickets de Chloé Durand');
    const href = new URL(link.getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/tickets');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      site: '1',
      vendeur: 'V03',
      dateDebut: PERIOD.dateDebut,
      dateFin: PERIOD.dateFin,
      critere: 'cancellations',
    });
    const cash = items().find((li) => li.textContent?.includes('écarts de caisse'))!;
    expect(cash.textContent).toMatch(/Écart de caisse moyen de [\d\s  ]+,\d\d\s€ par comptage/);
    expect(
      new URL(cash.querySelector('a')!.getAttribute('href')!, 'http://x').searchParams.get('caisse'),
    ).toBe('3');

    link.click();
    await waitUntil(() => routed.router.state.location.pathname === '/tickets', 5_000, 20);
  });

  it('opens /tickets from the drill-down on that seller, site, period and criterion, and searches at once', async () => {
    const user = await signIn('zoe', PASSWORD);
    await setLanguage('fr');
    const answer = await getJson('bo/bi/anomalies', AnomalyAnswerSchema, { id: user.id, ...PERIOD });
    const planted = answer.anomalies.find((a) => a.key === 'V03' && a.measure === 'cancellations')!;
    screen = await renderRoutedScreen({ '/tickets': TicketsLinked }, '/tickets', 'fr', fr);
    await waitUntil(
      () => document.querySelector('.tk-results') !== null && queryClient.isFetching() === 0,
      10_000,
      50,
    );
    expect(selection.restaurantIds).toEqual([1]);
    expect(selection.sellers).toEqual(['1:V03']);
    expect(selection.period).toEqual({ kind: 'custom', debut: '02/03/2026', fin: '29/03/2026' });
    expect(document.querySelector('.tk-results')?.textContent).toContain(`${planted.events} tickets`);
    expect(session.user?.id).toBe(user.id);
  });
});
