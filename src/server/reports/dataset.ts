/**
 * Pieces every report class uses to build its {@link Dataset}: the common header (class,
 * variant, translated title, currency, period, sites, generated-at) and translated columns.
 */
import type { ColumnType, Dataset, DatasetColumn } from '../../contract/reports.ts';
import { message } from '../i18n.ts';
import type { ReportClass, ReportRequest } from './types.ts';

/** Everything of a dataset but its columns, rows and totals. */
export type DatasetHeader = Omit<Dataset, 'columns' | 'rows' | 'totals'>;

/** The common header of `cls`'s dataset for `request`, title in the request's language. */
export function datasetHeader(
  cls: Pick<ReportClass, 'className' | 'titleId'>,
  request: ReportRequest,
): DatasetHeader {
  return {
    className: cls.className,
    variant: request.variant,
    title: message(request.language, cls.titleId),
    currency: request.currency,
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    sites: request.sites.map((s) => ({ restaurantId: s.id, libelle: s.libelle })),
    generatedAt: request.generatedAt.toISOString(),
  };
}

/**
 * Columns with labels from the `report.column.<key>` messages of `request.language`.
 * @param specs `[key, type]` pairs in display order.
 */
export function translatedColumns(
  request: Pick<ReportRequest, 'language'>,
  specs: ReadonlyArray<readonly [key: string, type: ColumnType]>,
): DatasetColumn[] {
  return specs.map(([key, type]) => ({
    key,
    type,
    label: message(request.language, `report.column.${key}`),
  }));
}
