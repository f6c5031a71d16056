/**
 * /bi (issue #19 "KPI / BI area"): explore one measure by up to two dimensions over the chosen
 * sites and period, against the previous period or the same weekdays a year earlier; a table and
 * a chart; CSV and XLSX exports written by the server; views saved on this device. Measures and
 * dimensions that no aggregate holds together are greyed out, as the server refuses them.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { BiExploreAnswer } from '../../../../contract/bi.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { session } from '../../../lib/session.ts';
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
import { BiSavedViews } from './bi-saved-views.tsx';
import './bi.css';

export function BiPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const [choice, setChoice] = useState<ExploreChoice>(DEFAULT_CHOICE);
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
      {user ? (
        <BiSavedViews
          userId={user.id}
          choice={choice}
          onOpen={(v) =>
            setChoice({
              measure: v.measure,
              dimension1: v.dimension1,
              dimension2: v.dimension2,
              comparison: v.comparison,
            })
          }
        />
      ) : null}
    </div>
  );
}
