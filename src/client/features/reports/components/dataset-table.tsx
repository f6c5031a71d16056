/**
 * A report dataset (DESIGN.md §6) on screen: one column per dataset column, money in the dataset's
 * currency, dates DD/MM/YYYY, numbers in the interface's language, and a totals row.
 */
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { ColumnType, Dataset } from '../../../../contract/reports.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Table } from '../../../ui/table.tsx';

/** One cell formatted by its column type; null shows empty. */
export function formatCell(
  value: string | number | null | undefined,
  type: ColumnType,
  currency: string,
  locale: string,
): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return type === 'date' ? formatDate(value) : value;
  switch (type) {
    case 'money':
      return formatMoney(value, currency, locale);
    case 'percent':
      return formatNumber(value, locale, { style: 'percent', maximumFractionDigits: 1 });
    case 'qty':
      return formatNumber(value, locale);
    default:
      return String(value);
  }
}

/**
 * The dataset's totals as key figures above the table: on a phone the table scrolls sideways,
 * and the totals are what a manager looks for first.
 */
export function DatasetTotals({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const figures = dataset.columns.filter(
    (c) => c.type !== 'text' && c.type !== 'date' && typeof dataset.totals[c.key] === 'number',
  );
  if (figures.length === 0 || dataset.rows.length === 0) return null;
  return (
    <dl className="rep-totals">
      {figures.map((c) => (
        <div key={c.key} className="rep-totals__item">
          <dt>{c.label}</dt>
          <dd>{formatCell(dataset.totals[c.key], c.type, dataset.currency, intl.locale)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function DatasetTable({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const locale = intl.locale;
  const columns = dataset.columns.map((c, i) => ({
    key: c.key,
    label: c.label,
    align: c.type === 'text' || c.type === 'date' ? ('start' as const) : ('end' as const),
    isRowHeader: i === 0,
  }));
  const cells = (row: Record<string, string | number | null>): Record<string, ReactNode> =>
    Object.fromEntries(
      dataset.columns.map((c) => [c.key, formatCell(row[c.key], c.type, dataset.currency, locale)]),
    );
  const rows = dataset.rows.map((r, i) => ({ id: `r${i}`, cells: cells(r) }));
  if (dataset.rows.length > 0) {
    const totals = cells(dataset.totals);
    // The totals row names itself in the first column that has no total (usually the date).
    const first = dataset.columns.find(
      (c) => dataset.totals[c.key] === null || dataset.totals[c.key] === undefined,
    );
    if (first) totals[first.key] = <strong>{intl.formatMessage({ id: 'reports.preview.total' })}</strong>;
    for (const c of dataset.columns) {
      if (c.key !== first?.key) totals[c.key] = <strong>{totals[c.key]}</strong>;
    }
    rows.push({ id: 'totals', cells: totals });
  }
  return (
    <Table
      label={dataset.title}
      columns={columns}
      rows={rows}
      empty={<p className="rep-empty">{intl.formatMessage({ id: 'reports.preview.empty' })}</p>}
    />
  );
}
