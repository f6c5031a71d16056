/**
 * The lower half of /rapports: the "Output" card (format, the form's error, "generate" and "show"
 * with their progress bars) and the dataset shown on screen.
 */
import { Label } from 'react-aria-components/Label';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import type { Ref } from 'react';
import { useIntl } from 'react-intl';
import type { Dataset, ReportClassInfo } from '../../../../contract/reports.ts';
import { formatDate } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { DOWNLOAD_FORMATS, type DownloadFormat, selection } from '../../../selection/selection-state.ts';
import type { ReportRequestState } from '../use-report-request.ts';
import { ArchivedNotice } from './archived-notice.tsx';
import { DatasetTable, DatasetTotals } from './dataset-table.tsx';
import { copyTime } from './offline-copies-card.tsx';
import { ReportChart } from './report-chart.tsx';

function isDownloadFormat(value: string): value is DownloadFormat {
  return (DOWNLOAD_FORMATS as readonly string[]).includes(value);
}

/**
 * The format among `formats` (the chosen one is `format`), the form's error, the two buttons
 * (disabled while a request runs or no class is chosen; "show" also when the class has no JSON)
 * and a progress bar while downloading or computing. The error, buttons and progress form an
 * action bar that a phone keeps at the bottom of the screen, so "generate" is never screens away.
 */
export function ReportOutputCard(props: {
  edition: ReportClassInfo | undefined;
  formats: readonly DownloadFormat[];
  format: DownloadFormat;
  request: ReportRequestState;
  onGenerate: () => void;
  onShow: () => void;
}) {
  const intl = useIntl();
  const { edition, format, request } = props;
  return (
    <Card className="rep-actions" labelledBy="rep-output-heading">
      <CardTitle id="rep-output-heading">{intl.formatMessage({ id: 'reports.output' })}</CardTitle>
      <RadioGroup
        className="rep-formats"
        orientation="horizontal"
        value={format}
        onChange={(v) => {
          if (isDownloadFormat(v)) selection.report.format = v;
        }}
      >
        <Label className="ui-field__label">{intl.formatMessage({ id: 'reports.format' })}</Label>
        <div className="rep-formats__options">
          {props.formats.map((f) => (
            <Radio key={f} value={f} className="rep-format">
              {intl.formatMessage({ id: `reports.format.${f}` })}
            </Radio>
          ))}
        </div>
      </RadioGroup>
      {/* On a phone the bar stays at the bottom of the screen (reports.css, issue #20 item 14). */}
      <div className="rep-actionbar">
        {request.formError ? (
          <p className="rep-form-error" role="alert">
            {request.formError}
          </p>
        ) : null}
        <div className="rep-buttons">
          <Button variant="primary" onPress={props.onGenerate} isDisabled={request.busy || !edition}>
            {intl.formatMessage({ id: 'reports.generate' })}
          </Button>
          <Button
            onPress={props.onShow}
            isDisabled={request.busy || !edition || !edition.formats.includes('JSON')}
          >
            {intl.formatMessage({ id: 'reports.show' })}
          </Button>
        </div>
        {request.downloading ? (
          <ProgressBar
            className="rep-progress"
            label={intl.formatMessage({ id: 'reports.downloading' }, { format })}
            value={request.progress}
          />
        ) : null}
        {request.previewing ? (
          <ProgressBar
            className="rep-progress"
            label={intl.formatMessage({ id: 'reports.computing' })}
            value={null}
          />
        ) : null}
      </div>
    </Card>
  );
}

/**
 * The dataset shown on screen: its title (which `headingRef` focuses), period and sites, totals,
 * chart and table; for a dataset opened from an offline copy, the time of that copy
 * (`copyStoredAt`, epoch milliseconds).
 */
export function ReportPreview({
  dataset,
  headingRef,
  copyStoredAt = null,
}: {
  dataset: Dataset;
  headingRef: Ref<HTMLHeadingElement>;
  copyStoredAt?: number | null;
}) {
  const intl = useIntl();
  return (
    <Card className="rep-preview" labelledBy="rep-preview-heading">
      <CardTitle id="rep-preview-heading" focusRef={headingRef}>
        {dataset.title}
      </CardTitle>
      <p className="rep-muted">
        {intl.formatMessage(
          { id: 'reports.preview.caption' },
          {
            start: formatDate(dataset.dateDebut),
            end: formatDate(dataset.dateFin),
            sites: dataset.sites.length,
          },
        )}
      </p>
      {copyStoredAt === null ? null : (
        <p className="rep-copy-note">
          {intl.formatMessage({ id: 'reports.copies.shown' }, copyTime(copyStoredAt))}
        </p>
      )}
      <ArchivedNotice dataset={dataset} />
      <DatasetTotals dataset={dataset} />
      {dataset.variant === 'Graph' ? <ReportChart dataset={dataset} /> : null}
      <DatasetTable dataset={dataset} />
    </Card>
  );
}
