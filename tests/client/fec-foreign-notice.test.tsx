// @vitest-environment happy-dom
/**
 * /fec names the company's sites not kept in euros (issue #29, decision 0037 § "Sites not in
 * euros"): the notice gives each site with its currency and the reason, in fr, en and de, and its
 * box asks to leave them out; a company all in euros shows nothing.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import { FecForeignNotice } from '../../src/client/features/fec/components/fec-foreign-notice.tsx';
import type { FecForeignSite } from '../../src/contract/fec.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SITES: FecForeignSite[] = [
  { id: 3, libelle: 'London Soho', devise: 'GBP' },
  { id: 9, libelle: 'Genève Rive', devise: 'CHF' },
];

let root: Root | null = null;
let host: HTMLElement | null = null;

function show(
  sites: readonly FecForeignSite[],
  locale: string,
  messages: Record<string, string>,
  onExclude: (v: boolean) => void = () => {},
): HTMLElement {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => {
    root!.render(
      <IntlProvider locale={locale} messages={messages}>
        <FecForeignNotice sites={sites} exclude={false} onExclude={onExclude} />
      </IntlProvider>,
    );
  });
  return host;
}

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  host = null;
});

describe("/fec's notice of the sites not in euros", () => {
  it('names each site and its currency and says why, in fr, en and de', () => {
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['fr', fr, 'ne sont pas tenus en euros', 'Laisser de côté les sites hors euro'],
      ['en', en, 'are not kept in euros', 'Leave out the sites not in euros'],
      ['de', de, 'nicht in Euro geführt', 'Standorte außerhalb des Euro auslassen'],
    ];
    for (const [locale, messages, why, box] of cases) {
      const element = show(SITES, locale, messages);
      const status = element.querySelector('[role="status"]');
      expect(status?.textContent, locale).toContain('London Soho (GBP), Genève Rive (CHF)');
      expect(status?.textContent, locale).toContain(why);
      expect(element.textContent, locale).toContain(box);
      act(() => root?.unmount());
      host?.remove();
      root = null;
      host = null;
    }
  });

  it('asks to leave them out when the box is ticked', () => {
    const asked: boolean[] = [];
    const element = show(SITES, 'en', en, (v) => asked.push(v));
    const input = element.querySelector('input[type="checkbox"]') as HTMLInputElement;
    act(() => input.click());
    expect(asked).toEqual([true]);
  });

  it('shows nothing for a company all in euros', () => {
    expect(show([], 'fr', fr).textContent).toBe('');
  });
});
