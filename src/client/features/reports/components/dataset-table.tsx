/**
 * A report dataset (DESIGN.md §6) on screen: one column per dataset column, money in the dataset's
 * currency, dates DD/MM/YYYY, numbers in the interface's language, and a totals row; a page of
 * {@link PREVIEW_PAGE_ROWS} rows at a time, with the rows shown and previous / next buttons when
 * there are more.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ColumnType, Dataset } from '../../../../contract/reports.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import { Table } from '../../../ui/table.tsx';
import { datasetComparisonCoverage, isComparisonPercent } from '../dataset-comparison.ts';

/**
 * Rows of the preview on screen at once. A year of a chain is thousands of rows, too many to draw
 * together on a tablet; a hundred show at once, and the whole report is what PDF, CSV and XLSX
 * are for.
 */
export const PREVIEW_PAGE_ROWS = 100;

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
 * and the totals are what a manager looks for first. Each amount stays on one line (reports.css).
 * A year-on-year percentage whose earlier period has no or partial sales says so instead
 * (dataset-comparison.ts), and so does the tile when the server gave no percentage at all.
 */
export function DatasetTotals({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const coverage = datasetComparisonCoverage(dataset);
  const figures = dataset.columns.filter(
    (c) =>
      c.type !== 'text' &&
      c.type !== 'date' &&
      (typeof dataset.totals[c.key] === 'number' || (isComparisonPercent(c.key) && coverage !== 'full')),
  );
  if (figures.length === 0 || dataset.rows.length === 0) return null;
  return (
    <dl className="rep-totals">
      {figures.map((c) => (
        <div key={c.key} className="rep-totals__item">
          <dt>{c.label}</dt>
          {isComparisonPercent(c.key) && coverage !== 'full' ? (
            <dd className="rep-totals__note">
              {intl.formatMessage({ id: `reports.comparison.${coverage}` })}
            </dd>
          ) : (
            <dd>{formatCell(dataset.totals[c.key], c.type, dataset.currency, intl.locale)}</dd>
          )}
        </div>
      ))}
    </dl>
  );
}

export function DatasetTable({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const locale = intl.locale;
  // Back to the first page whenever another dataset comes (React's "adjust state on a prop change").
  const [page, setPage] = useState(0);
  const [pageOf, setPageOf] = useState(dataset);
  if (pageOf !== dataset) {
    setPageOf(dataset);
    setPage(0);
  }
  const count = dataset.rows.length;
  const pages = Math.max(1, Math.ceil(count / PREVIEW_PAGE_ROWS));
  const first = Math.min(page, pages - 1) * PREVIEW_PAGE_ROWS;
  const shown = dataset.rows.slice(first, first + PREVIEW_PAGE_ROWS);
  // A new page starts at its first row: the table scrolls within its box (reports.css).
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = box.current?.querySelector('.ui-table-scroll');
    if (scroller && first >= 0) scroller.scrollTop = 0;
  }, [first]);
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
  const rows = shown.map((r, i) => ({ id: `r${first + i}`, cells: cells(r) }));
  if (count > 0) {
    // The whole report's totals, under every page.
    const totals = cells(dataset.totals);
    // The totals row names itself in the first column that has no total (usually the date).
    const label = dataset.columns.find(
      (c) => dataset.totals[c.key] === null || dataset.totals[c.key] === undefined,
    );
    if (label) totals[label.key] = <strong>{intl.formatMessage({ id: 'reports.preview.total' })}</strong>;
    for (const c of dataset.columns) {
      if (c.key !== label?.key) totals[c.key] = <strong>{totals[c.key]}</strong>;
    }
    rows.push({ id: 'totals', cells: totals });
  }
  const where = intl.formatMessage(
    { id: 'reports.preview.rows' },
    { from: first + 1, to: first + shown.length, count },
  );
  return (
    <div ref={box} className="rep-preview__table">
      <Table
        label={dataset.title}
        columns={columns}
        rows={rows}
        empty={<p className="rep-empty">{intl.formatMessage({ id: 'reports.preview.empty' })}</p>}
      />
      {pages > 1 ? (
        <nav className="ui-pager rep-pager" aria-label={intl.formatMessage({ id: 'reports.preview.pages' })}>
          <Button isDisabled={first === 0} onPress={() => setPage(Math.min(page, pages - 1) - 1)}>
            {intl.formatMessage({ id: 'reports.preview.previous' })}
          </Button>
          <span className="ui-pager__where" role="status">
            {where}
          </span>
          <Button
            isDisabled={first + PREVIEW_PAGE_ROWS >= count}
            onPress={() => setPage(Math.min(page, pages - 1) + 1)}
          >
            {intl.formatMessage({ id: 'reports.preview.next' })}
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
