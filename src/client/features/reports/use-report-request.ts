/**
 * The requests of /rapports: "generate" downloads the report file with a visible progress
 * (bo/getReport, then the browser's save), "show" asks the same report as JSON and keeps the
 * dataset shown on screen. Both first check the choice and tell the user what is missing: an
 * invalid period or hours under the form, a missing report or site or a too long period as the
 * server would say it (SPEC.md §8). Failures arrive translated through the notification area.
 */
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { Dataset, Language, ReportClassInfo, ReportVariant } from '../../../contract/reports.ts';
import { ApiFailure, download, type SearchParams } from '../../lib/http.ts';
import { useLanguage } from '../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { queryClient } from '../../lib/query-client.ts';
import { buildReportParams, precheckReport } from '../../lib/report-request.ts';
import { saveFile } from '../../lib/save-file.ts';
import { session } from '../../lib/session.ts';
import { resolvePeriodChoice, validateHours } from '../../selection/period.ts';
import { type DownloadFormat, selection } from '../../selection/selection-state.ts';
import { pruneTerminalsAndSellers } from '../../selection/site-scope.ts';
import { useSiteScope } from '../../selection/use-reference-data.ts';
import { type ReportPath, reportQueries } from './report-queries.ts';

/** The report as chosen on the page when a request starts (the period, sites and hours come from the selection). */
export interface ReportRequestChoice {
  edition: ReportClassInfo | undefined;
  variant: ReportVariant;
  format: DownloadFormat;
  /** Sort column offered by the class, or null. */
  sortKey: string | null;
  descending: boolean;
  /** Grouping offered by the class, or null. */
  groupBy: string | null;
  /** Filter dimension offered by the class, or null; `filterValues` are the values it keeps. */
  filtre: string | null;
  filterValues: readonly string[];
  /** bo/getReport `operation` offered by the class (VENTE by default). */
  operation: string;
}

/** A checked request: where it goes (bo/getReport, or bo/getReportSite in single-site mode) and its query. */
interface CheckedRequest {
  path: ReportPath;
  params: SearchParams;
}

/**
 * Parameters of bo/getReport for `choice` and the selection's period, sites, terminals, sellers and
 * hours; or the message id to show under the form (invalid period or hours); or nothing, after
 * notifying what the server would refuse (no report, no site, a too long period: SPEC.md §8).
 */
function checkReportRequest(
  choice: ReportRequestChoice,
  context: { userId: number | null; language: Language; siteIds: readonly number[]; oneSite: boolean },
): CheckedRequest | { formErrorId: string } | { refused: true } {
  const fiscalDates = selection.datesMultiples ? [...selection.dates].sort() : [];
  const period: ReturnType<typeof resolvePeriodChoice> = selection.datesMultiples
    ? fiscalDates.length > 0
      ? { ok: true, range: { dateDebut: fiscalDates[0]!, dateFin: fiscalDates.at(-1)! } }
      : { ok: false, errors: {} }
    : resolvePeriodChoice(selection.period);
  if (!period.ok)
    return { formErrorId: selection.datesMultiples ? 'reports.dates.none' : 'reports.fixPeriod' };
  if (
    selection.trancheHoraire &&
    Object.keys(validateHours(selection.heureDebut, selection.heureFin)).length > 0
  ) {
    return { formErrorId: 'reports.fixHours' };
  }
  const { edition } = choice;
  const failed = precheckReport({
    className: edition?.className ?? null,
    siteIds: context.siteIds,
    range: period.range,
    maxDays: edition?.maxDays ?? null,
    fiscalDates,
    oneSite: context.oneSite,
  });
  if (failed || !edition || context.userId === null) {
    notify.error(failed?.code ?? 'NoReportInState', failed?.values);
    return { refused: true };
  }
  const kept = pruneTerminalsAndSellers(selection, context.siteIds);
  const params = buildReportParams({
    userId: context.userId,
    className: edition.className,
    typeRapport: choice.variant,
    format: choice.format,
    language: context.language,
    range: period.range,
    siteIds: context.siteIds,
    // Only those of the sites the report is about (one site, in single-site mode).
    terminalKeys: kept.terminals,
    sellerKeys: kept.sellers,
    trancheHoraire: selection.trancheHoraire,
    heureDebut: selection.heureDebut,
    heureFin: selection.heureFin,
    sortKey: choice.sortKey,
    sortDescending: choice.descending,
    groupBy: choice.groupBy,
    filter: choice.filtre ? { filtre: choice.filtre, values: choice.filterValues } : null,
    fiscalDates,
    operation: choice.operation,
    trainingMode: selection.trainingMode,
  });
  // The single-site variant names its one site as restaurantId (SPEC.md §7).
  if (selection.singleSite && context.siteIds.length === 1) {
    const { sites: _sites, ...rest } = params;
    return { path: 'bo/getReportSite', params: { ...rest, restaurantId: context.siteIds[0] } };
  }
  return { path: 'bo/getReport', params };
}

/** True for a failure of the network itself (no answer, time limit, a gateway with no server). */
function isNetworkFailure(e: unknown): boolean {
  return e instanceof ApiFailure && e.code === 'Network Error';
}

/**
 * State of the page's two requests. `generate(choice)` and `preview(choice)` run them; `dataset`
 * is the result shown on screen (`clearDataset` drops it when the choice changes) and gets the
 * focus through `previewHeading` when it appears: on a phone it is below the fold, and a screen
 * reader user hears its title. `networkFailed` tells the last request failed for the network
 * (the page then offers its offline copies); `showCopy` shows a kept copy's dataset, with
 * `copyStoredAt` the time of that copy (null for a dataset the server just answered).
 */
export function useReportRequest() {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const scope = useSiteScope({ singleSiteMode: true });
  const [progress, setProgress] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [networkFailed, setNetworkFailed] = useState(false);
  const [copyStoredAt, setCopyStoredAt] = useState<number | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (dataset) previewHeading.current?.focus();
  }, [dataset]);

  /** The request for `choice`, or null after telling the user what is missing. */
  function prepare(choice: ReportRequestChoice): CheckedRequest | null {
    setFormError(null);
    const checked = checkReportRequest(choice, {
      userId: user?.id ?? null,
      language,
      siteIds: scope.effective,
      oneSite: scope.single,
    });
    if ('formErrorId' in checked) setFormError(intl.formatMessage({ id: checked.formErrorId }));
    return 'params' in checked ? checked : null;
  }

  async function generate(choice: ReportRequestChoice) {
    const request = prepare(choice);
    if (!request) return;
    setProgress(null);
    setDownloading(true);
    try {
      const { blob, filename } = await download(request.path, request.params, setProgress);
      saveFile(blob, filename);
      setNetworkFailed(false);
      notify.success('exportOk');
    } catch (e) {
      setNetworkFailed(isNetworkFailure(e));
      notifyFailure(e);
    } finally {
      setDownloading(false);
    }
  }

  async function preview(choice: ReportRequestChoice) {
    const request = prepare(choice);
    if (!request) return;
    const query = reportQueries.preview(request.params, request.path);
    setPreviewing(true);
    try {
      // Always asks the server again: "show" after a change of data must show the new figures.
      await queryClient.invalidateQueries({ queryKey: query.queryKey });
      setDataset(await queryClient.fetchQuery(query));
      setCopyStoredAt(null);
      setNetworkFailed(false);
    } catch (e) {
      setDataset(null);
      setNetworkFailed(isNetworkFailure(e));
      notifyFailure(e);
    } finally {
      setPreviewing(false);
    }
  }

  return {
    progress,
    downloading,
    previewing,
    busy: downloading || previewing,
    dataset,
    clearDataset: () => setDataset(null),
    networkFailed,
    copyStoredAt,
    showCopy: (copy: Dataset, storedAt: number) => {
      setCopyStoredAt(storedAt);
      setDataset(copy);
    },
    formError,
    previewHeading,
    generate,
    preview,
  };
}

/** The requests' state as {@link useReportRequest} gives it. */
export type ReportRequestState = ReturnType<typeof useReportRequest>;
