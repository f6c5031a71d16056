/**
 * /bi (issue #19 "KPI / BI area"): explore one measure by up to two dimensions over the chosen
 * sites and period, against the previous period or the same weekdays a year earlier; a table and
 * a chart; CSV and XLSX exports written by the server. Measures and dimensions that no aggregate
 * holds together are greyed out, as the server refuses them. Saving the view as a favourite is
 * the favourites' business: the route hands in that part (`saveSlot`), given the current choice.
 */
import { type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import type { BiExploreAnswer } from '../../../../contract/bi.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import {
  type SelectionRequest,
  ShowCard,
  useSelectionResult,
} from '../../../selection/components/selection-result.tsx';
import { biQueries, downloadExplore, type ExploreInput } from '../bi-queries.ts';
import { DEFAULT_CHOICE, type ExploreChoice } from '../bi-choices.ts';
import { BiControls } from './bi-controls.tsx';
import { BiResult } from './bi-result.tsx';
import './bi.css';

export interface BiPageProps {
  /** The choice the screen opens on (a favourite's view); the default one otherwise. */
  initialChoice?: ExploreChoice;
  /** What to show below the result for the current choice (the route's "save as a favourite"). */
  saveSlot?: (choice: ExploreChoice) => ReactNode;
}

export function BiPage({ initialChoice = DEFAULT_CHOICE, saveSlot }: BiPageProps) {
  const intl = useIntl();
  const [language] = useLanguage();
  const [choice, setChoice] = useState<ExploreChoice>(initialChoice);
  const [asked, setAsked] = useState<ExploreInput | null>(null);
  const [exporting, setExporting] = useState(false);
  const { result, loading, formError, resultHeading, show } = useSelectionResult<BiExploreAnswer['data']>();

  async function load(request: SelectionRequest) {
    const input: ExploreInput = { ...request, ...choice, language };
    const answer = await queryClient.fetchQuery(biQueries.explore(input));
    setAsked(input);
    return answer.data;
  }

  async function exportAs(format: 'CSV' | 'XLSX') {
    if (!asked) return;
    setExporting(true);
    try {
      const { blob, filename } = await downloadExplore(asked, format);
      saveFile(blob, filename);
      notify.success('exportOk');
    } catch (e) {
      notifyFailure(e);
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="gr-page bi-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'bi.title' })}</h1>
      <SelectionPanel sitesOnly />
      <BiControls choice={choice} onChange={setChoice} />
      <ShowCard
        label={intl.formatMessage({ id: 'bi.show' })}
        loadingLabel={intl.formatMessage({ id: 'bi.loading' })}
        formError={formError}
        loading={loading}
        onShow={() => void show(load)}
      />
      {result ? (
        <BiResult
          data={result}
          headingRef={resultHeading}
          exporting={exporting}
          onExport={(f) => void exportAs(f)}
        />
      ) : null}
      {saveSlot?.(choice)}
    </div>
  );
}
