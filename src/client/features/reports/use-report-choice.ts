/**
 * What /rapports has chosen, resolved against what the server offers: the report class among
 * those of bo/rapport/metrics, its variant and format, and its sort, grouping and filter among
 * those of bo/getResultsChoices (values from bo/getGroupements). The choices live in the selection
 * store (a favourite saves and restores them); a choice the class does not offer reads as unset.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { ReportClassInfo, ReportVariant } from '../../../contract/reports.ts';
import { ApiFailure } from '../../lib/http.ts';
import { useLanguage } from '../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { describeFilterValue } from '../../lib/report-filter-values.ts';
import { session } from '../../lib/session.ts';
import { resolvePeriodChoice } from '../../selection/period.ts';
import {
  DOWNLOAD_FORMATS,
  type DownloadFormat,
  NO_SHAPING,
  type ReportShaping,
  selection,
} from '../../selection/selection-state.ts';
import { reportQueries } from './report-queries.ts';

/**
 * Dimensions offered as filters on this screen, when the class offers them: what the selection
 * pickers above do not already choose (sites, terminals, sellers, period).
 */
const FILTER_DIMENSIONS = ['FAMILLE', 'TVA', 'PAIEMENT'] as const;

/**
 * The report classes the user may run and the chosen one (the first when none is chosen yet),
 * with the formats it offers and the chosen format and variant (its first ones when the chosen
 * ones are not offered). A failure to load the list is notified (SPEC.md §8 ErrorGettingAllReport;
 * a lost network says so in its own words).
 */
export function useReportClass() {
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const sel = useSnapshot(selection);
  const metrics = useQuery({ ...reportQueries.metrics(user?.id ?? 0, language), enabled: user !== null });
  const editions = metrics.data ?? [];
  useEffect(() => {
    if (metrics.errorUpdatedAt === 0) return;
    const e = metrics.error;
    if (e instanceof ApiFailure && e.code === 'Network Error') notifyFailure(e);
    else notify.error('ErrorGettingAllReport');
  }, [metrics.errorUpdatedAt, metrics.error]);
  const edition: ReportClassInfo | undefined =
    editions.find((e) => e.className === sel.report.className) ?? editions[0];
  const formats = DOWNLOAD_FORMATS.filter((f) => !edition || edition.formats.includes(f));
  const format: DownloadFormat = formats.includes(sel.report.format)
    ? sel.report.format
    : (formats[0] ?? 'PDF');
  const variant: ReportVariant =
    edition && !edition.variants.includes(sel.report.typeRapport)
      ? (edition.variants[0] ?? 'Daily')
      : sel.report.typeRapport;
  return { metrics, editions, edition, formats, format, variant };
}

/** The chosen class as {@link useReportClass} resolves it. */
export type ReportClassChoice = ReturnType<typeof useReportClass>;

/**
 * The sort, grouping and filter of class `edition` (bo/getResultsChoices), as far as the class
 * offers them, and `shape`, which changes them in the selection store then calls `onChange` (the
 * page drops a result shown for the former choice). The filter values offered are those present
 * in the chosen period's data (bo/getGroupements), followed by values kept (by a favourite, or
 * before the period changed) that the period does not have: listed, still ticked, so the user sees
 * why the report may come back empty and can untick them.
 */
export function useReportShaping(edition: ReportClassInfo | undefined, onChange: () => void) {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  const sel = useSnapshot(selection);
  const userId = user?.id ?? 0;
  const choices = useQuery({
    ...reportQueries.choices(userId, edition?.className ?? '', language),
    enabled: user !== null && edition !== undefined,
  });
  const shaping = sel.shaping.className === (edition?.className ?? null) ? sel.shaping : NO_SHAPING;
  const tris = choices.data?.tris ?? [];
  const regroupements = choices.data?.regroupements ?? [];
  const sortKey = tris.some((c) => c.value === shaping.sortKey) ? shaping.sortKey : null;
  const groupBy = regroupements.some((c) => c.value === shaping.groupBy) ? shaping.groupBy : null;
  const filtres = (choices.data?.filtres ?? []).filter((c) =>
    (FILTER_DIMENSIONS as readonly string[]).includes(c.value),
  );
  const filtre = filtres.some((c) => c.value === shaping.filtre) ? shaping.filtre : null;
  // The class's operations (SPEC.md §3: VENTE by default); the chosen one when the class has it.
  const operations = choices.data?.operations ?? [];
  const operation = operations.some((o) => o.value === sel.operation)
    ? sel.operation
    : (operations.find((o) => o.value === 'VENTE')?.value ?? operations[0]?.value ?? 'VENTE');
  const periodChoice = resolvePeriodChoice(sel.period);
  const groupements = useQuery({
    ...reportQueries.groupements(
      userId,
      edition?.className ?? '',
      filtre ?? '',
      periodChoice.ok ? periodChoice.range : { dateDebut: '', dateFin: '' },
      language,
    ),
    enabled: user !== null && edition !== undefined && filtre !== null && periodChoice.ok,
  });
  const presentValues = groupements.data?.groupements ?? [];
  const filterOptions = [
    ...presentValues,
    ...shaping.filterValues
      .filter((v) => !presentValues.some((g) => g.value === v))
      .map((v) => ({
        value: v,
        label: intl.formatMessage(
          { id: 'reports.filterAbsent' },
          { value: describeFilterValue(intl, filtre ?? '', v) },
        ),
      })),
  ];
  const shape = (change: Partial<ReportShaping>) => {
    selection.shaping = {
      ...shaping,
      filterValues: [...shaping.filterValues],
      ...change,
      className: edition?.className ?? null,
    };
    onChange();
  };
  return {
    shaping,
    tris,
    regroupements,
    sortKey,
    groupBy,
    filtres,
    filtre,
    operations,
    operation,
    periodOk: periodChoice.ok,
    groupements,
    filterOptions,
    shape,
  };
}

/** The shaping of the chosen class as {@link useReportShaping} resolves it. */
export type ReportShapingChoice = ReturnType<typeof useReportShaping>;
