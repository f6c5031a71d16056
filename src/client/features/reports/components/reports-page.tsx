/**
 * /rapports (SPEC.md §2): choose a report class (bo/rapport/metrics), sites and a period, a format
 * (PDF, CSV, XLSX), optionally a sort column, a grouping and a filter on product family, VAT rate
 * or payment method that the class offers (bo/getResultsChoices; values from bo/getGroupements),
 * then either download the file with a visible progress bar or show the dataset
 * on screen (format=JSON). The operation (VENTE by default), separate days instead of a period,
 * single-site mode and training mode are chosen here too (SPEC.md §3, §5–§7; issue #32 B). Errors arrive translated through the notification area (SPEC.md §8).
 */
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { ReportVariant } from '../../../../contract/reports.ts';
import { useSnapshot } from 'valtio';
import { session } from '../../../lib/session.ts';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import type { DownloadFormat } from '../../../selection/selection-state.ts';
import { selection } from '../../../selection/selection-state.ts';
import { useReportClass, useReportShaping } from '../use-report-choice.ts';
import { type ReportRequestChoice, useReportRequest } from '../use-report-request.ts';
import { OfflineCopiesCard, useOnline } from './offline-copies-card.tsx';
import { ReportChoiceCard } from './report-choice-card.tsx';
import { ReportModesCard, TrainingBanner } from './report-modes.tsx';
import { ReportOutputCard, ReportPreview } from './report-output.tsx';
import { SeparateDays } from './separate-days.tsx';
import './reports.css';

/** The report the page has resolved (class, its title, variant, format), as a slot receives it. */
export interface ResolvedReport {
  className: string;
  localisedTitle: string;
  typeRapport: ReportVariant;
  format: DownloadFormat;
}

export interface ReportsPageProps {
  /**
   * What the route shows between the report card and the selection (the favourites bar): given
   * the resolved report (null while none is known) and a callback for when it changed the
   * selection, which drops a dataset shown for the former one.
   */
  favourites?: (chosen: ResolvedReport | null, onApplied: () => void) => ReactNode;
}

/** The /rapports screen; the route puts the favourites bar in its `favourites` slot. */
export function ReportsPage({ favourites }: ReportsPageProps = {}) {
  const intl = useIntl();
  const request = useReportRequest();
  const report = useReportClass();
  const shaping = useReportShaping(report.edition, request.clearDataset);
  const { edition, variant, format } = report;
  const { user } = useSnapshot(session);
  const { sites } = useReferenceData();
  // With no network the copies this device keeps are what the manager can open (issue #20 item 9).
  const offline = !useOnline() || request.networkFailed;
  const choice: ReportRequestChoice = {
    edition,
    variant,
    format,
    sortKey: shaping.sortKey,
    descending: shaping.shaping.descending,
    groupBy: shaping.groupBy,
    filtre: shaping.filtre,
    filterValues: shaping.shaping.filterValues,
    operation: shaping.operation,
  };
  const sel = useSnapshot(selection);
  const resolved = edition
    ? { className: edition.className, localisedTitle: edition.localisedTitle, typeRapport: variant, format }
    : null;

  return (
    <div className="rep-page">
      <h1 className="rep-title">{intl.formatMessage({ id: 'reports.title' })}</h1>
      <TrainingBanner onLeave={request.clearDataset} />
      <ReportChoiceCard report={report} shaping={shaping} onClassChange={request.clearDataset} />

      {favourites?.(resolved, request.clearDataset)}

      <SelectionPanel singleSiteMode periodBefore={<SeparateDays />} hidePeriodDates={sel.datesMultiples} />

      <ReportModesCard onChange={request.clearDataset} />

      <ReportOutputCard
        edition={edition}
        formats={report.formats}
        format={format}
        request={request}
        onGenerate={() => void request.generate(choice)}
        onShow={() => void request.preview(choice)}
      />

      {offline && user ? (
        <OfflineCopiesCard
          login={user.login}
          editions={report.editions}
          sites={sites}
          onOpen={request.showCopy}
        />
      ) : null}

      {request.dataset ? (
        <ReportPreview
          dataset={request.dataset}
          headingRef={request.previewHeading}
          copyStoredAt={request.copyStoredAt}
        />
      ) : null}
    </div>
  );
}
