// @vitest-environment happy-dom
/**
 * /fec's card of the files the FEC recurrences kept (fec-files.tsx), rendered with react-dom in
 * happy-dom from a bo/fec/files answer: a file that leaves out a company's sites not kept in euros
 * says which, under its recurrence (decision 0037), in fr, en and de; a file of a company all in
 * euros, or kept before the sites left out were recorded (null), says nothing of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { FecFile } from '../../src/contract/fec-recurrences.ts';
import { FecFiles } from '../../src/client/features/fec/components/fec-files.tsx';
import { fecRecurrenceQueries } from '../../src/client/features/fec/fec-queries.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { type RoutedScreen, renderRoutedScreen, unmountScreen } from './support.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const file = (id: number, sitesExclus: FecFile['sitesExclus']): FecFile => ({
  id,
  recurrenceId: 1,
  libelle: `FEC mensuel ${id}`,
  dateDebut: '2026-11-01',
  dateFin: '2026-11-30',
  nom: `552100554FEC2026113${id}.txt`,
  octets: 1234,
  cree: '2026-12-01T05:00:00.000Z',
  sitesExclus,
  run: null,
});

let screen: RoutedScreen | undefined;
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
});

describe('the FEC files card', () => {
  it.each([
    ['fr', fr, 'Sans les sites hors euro\u00a0: London Soho (GBP), Zürich (CHF)'],
    ['en', en, 'Without the sites not in euros: London Soho (GBP), Zürich (CHF)'],
    ['de', de, 'Ohne die Standorte außerhalb des Euro: London Soho (GBP), Zürich (CHF)'],
  ])('names the sites a file leaves out under its recurrence (%s)', async (locale, messages, excluded) => {
    queryClient.setQueryData(fecRecurrenceQueries.files(7, 2).queryKey, {
      fichiers: [
        file(1, [
          { id: 3, libelle: 'London Soho', devise: 'GBP' },
          { id: 4, libelle: 'Zürich', devise: 'CHF' },
        ]),
        file(2, []),
        file(3, null),
      ],
    });
    screen = await renderRoutedScreen(
      { '/fec': () => <FecFiles userId={7} societe={2} />, '/fec/recurrencesfec': () => null },
      '/fec',
      locale,
      messages,
    );
    const cells = [...screen.container.querySelectorAll('tbody tr')].map(
      (row) => row.querySelectorAll('td')[0]?.textContent,
    );
    expect(cells).toEqual([`FEC mensuel 1${excluded}`, 'FEC mensuel 2', 'FEC mensuel 3']);
  });
});
