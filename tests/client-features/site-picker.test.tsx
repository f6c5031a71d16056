// @vitest-environment happy-dom
/**
 * The site picker rendered with react-dom in happy-dom on reference data already in the query
 * cache (as loadReferenceData leaves it): hidden sites never show, "none chosen" says it means all
 * sites, and picking writes the selection.
 */
import 'fake-indexeddb/auto';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { Site } from '../../src/contract/api.ts';
import { SitePicker } from '../../src/client/selection/components/site-pickers.tsx';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';
import { renderScreen, seedReferenceData, signInAs, testSite, unmountScreen } from './support.tsx';

const site = (restaurantId: number, libelle: string, code: string | null): Site =>
  testSite(restaurantId, libelle, { extras: { code_implant: code } });

let container: HTMLDivElement;
let root: Root;

beforeEach(async () => {
  resetSelection();
  signInAs();
  seedReferenceData([
    site(1, 'Lyon Bellecour', 'LY01'),
    site(2, 'NON REMPLI', null),
    site(3, 'Annecy Lac', 'AN01'),
  ]);
  ({ container, root } = await renderScreen(<SitePicker />, 'fr', fr));
});

afterEach(() => {
  unmountScreen({ container, root });
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

  it('builds its list of sites only while open (decision 0026), and keeps the search across folding', async () => {
    const trigger = () => container.querySelector<HTMLButtonElement>('.sel-picker__trigger')!;
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
    expect(container.querySelector('[role="listbox"], [role="option"], input')).toBeNull();
    await act(async () => trigger().click());
    expect(container.querySelectorAll('[role="option"]')).toHaveLength(2);
    const search = container.querySelector<HTMLInputElement>('.sel-search__input')!;
    await act(async () => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(search, 'lyon');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(container.querySelectorAll('[role="option"]')).toHaveLength(1);
    await act(async () => trigger().click());
    expect(container.querySelector('[role="option"]')).toBeNull();
    await act(async () => trigger().click());
    expect(container.querySelector<HTMLInputElement>('.sel-search__input')?.value).toBe('lyon');
    expect(container.querySelectorAll('[role="option"]')).toHaveLength(1);
  });
});
