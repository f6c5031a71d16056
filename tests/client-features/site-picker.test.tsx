// @vitest-environment happy-dom
/**
 * The site picker rendered with react-dom in happy-dom on reference data already in the query
 * cache (as loadReferenceData leaves it): hidden sites never show, "none chosen" says it means all
 * sites, and picking writes the selection.
 */
import 'fake-indexeddb/auto';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { Site } from '../../src/contract/api.ts';
import { SitePicker } from '../../src/client/features/selection/components/site-pickers.tsx';
import { referenceQueries } from '../../src/client/features/selection/reference-queries.ts';
import {
  referenceLoad,
  resetSelection,
  selection,
} from '../../src/client/features/selection/selection-state.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session } from '../../src/client/lib/session.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function site(restaurantId: number, libelle: string, code: string | null): Site {
  return {
    restaurantId,
    libelle,
    societeId: 1,
    currency: 'EUR',
    timeZone: 'Europe/Paris',
    caisses: [],
    vendeurs: [],
    groupe: ['TOUS'],
    extras: { code_implant: code },
  };
}

let container: HTMLDivElement;
let root: Root;

beforeEach(async () => {
  resetSelection();
  session.user = {
    id: 5,
    login: 'gerant',
    droits: ['RAPPORTS'],
    currency: 'EUR',
    role: '',
    token: 't',
    codeExploitant: null,
    language: 'fr',
  };
  queryClient.setQueryData(referenceQueries.sites().queryKey, [
    site(1, 'Lyon Bellecour', 'LY01'),
    site(2, 'NON REMPLI', null),
    site(3, 'Annecy Lac', 'AN01'),
  ]);
  queryClient.setQueryData(referenceQueries.groups().queryKey, []);
  queryClient.setQueryData(referenceQueries.terminals().queryKey, []);
  queryClient.setQueryData(referenceQueries.sellers().queryKey, []);
  Object.assign(referenceLoad, { loading: false, loaded: true, failedCode: null });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root.render(
      <QueryClientProvider client={queryClient}>
        <IntlProvider locale="fr" messages={fr}>
          <SitePicker />
        </IntlProvider>
      </QueryClientProvider>,
    );
  });
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  queryClient.clear();
});

describe('site picker', () => {
  it('says that no site chosen means all the user sites, NON REMPLI not counted', () => {
    expect(container.querySelector('.sel-picker__summary')?.textContent).toBe(
      'Aucun site choisi : tous vos sites (2)',
    );
  });

  it('lists the visible sites only and writes the chosen one to the selection', async () => {
    await act(async () => {
      container.querySelector<HTMLButtonElement>('.sel-picker__trigger')?.click();
    });
    const options = [...container.querySelectorAll('[role="option"]')];
    expect(options.map((o) => o.querySelector('.sel-option__label')?.textContent)).toEqual([
      'Annecy Lac',
      'Lyon Bellecour',
    ]);
    await act(async () => {
      (options[1] as HTMLElement).click();
    });
    expect(selection.restaurantIds).toEqual([1]);
    expect(container.querySelector('.sel-picker__summary')?.textContent).toBe('Lyon Bellecour');
  });
});
