// @vitest-environment happy-dom
/**
 * A report over purged days says so (issue #30): the notice above the report names the site, the
 * days, where the detail was archived and the kept totals to the cent, in the user's language;
 * a report with nothing purged shows no notice.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { Dataset } from '../../src/contract/reports.ts';
import { ArchivedNotice } from '../../src/client/features/reports/components/archived-notice.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DATASET: Dataset = {
  className: 'RapportVentes',
  variant: 'Daily',
  title: 'Ventes',
  currency: 'EUR',
  dateDebut: '2026-02-01',
  dateFin: '2026-02-28',
  sites: [{ restaurantId: 7, libelle: 'Lyon Bellecour' }],
  generatedAt: '2026-03-01T10:00:00Z',
  columns: [],
  rows: [],
  totals: {},
};

const ARCHIVED = {
  restaurantId: 7,
  debut: '2026-02-01',
  fin: '2026-02-28',
  archive: 'archives/purge-site7-2026-02-01-2026-02-28.jsonl.gz',
  tickets: 1234,
  netCents: 4_567_891,
  netExclCents: 3_806_576,
  taxCents: 761_315,
};

let root: Root | null = null;
let host: HTMLElement | null = null;

function show(dataset: Dataset, locale: string, messages: Record<string, string>): HTMLElement {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => {
    root!.render(
      <IntlProvider locale={locale} messages={messages}>
        <ArchivedNotice dataset={dataset} />
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

/** Spaces as a reader sees them (Intl puts narrow no-break spaces in French amounts). */
const text = (element: HTMLElement) => (element.textContent ?? '').replace(/[\u202f\u00a0]/g, ' ');

describe('the archived notice of a report', () => {
  it('names the site, the days, the archive and the kept totals to the cent (fr)', () => {
    const shown = text(show({ ...DATASET, archived: [ARCHIVED] }, 'fr', fr));
    expect(shown).toContain('Période archivée');
    expect(shown).toContain('Lyon Bellecour : le détail du 01/02/2026 au 28/02/2026 a été archivé');
    expect(shown).toContain(ARCHIVED.archive);
    expect(shown).toContain('1 234 tickets, 45 678,91 € TTC, 38 065,76 € HT, TVA 7 613,15 €');
  });

  it('says it in English and German too', () => {
    expect(text(show({ ...DATASET, archived: [ARCHIVED] }, 'en', en))).toContain(
      '1,234 tickets, €45,678.91 incl. VAT, €38,065.76 excl. VAT, VAT €7,613.15',
    );
    act(() => root?.unmount());
    host?.remove();
    expect(text(show({ ...DATASET, archived: [ARCHIVED] }, 'de', de))).toContain('Archivierter Zeitraum');
  });

  it('shows nothing when no day of the report was purged', () => {
    expect(show(DATASET, 'fr', fr).textContent).toBe('');
  });
});
