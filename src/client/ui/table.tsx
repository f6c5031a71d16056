/**
 * Data table for simple column/row data (a report dataset preview, the graphs' and distributions'
 * figures): a semantic HTML table (`th scope="col"` headers, the row header column as
 * `th scope="row"`), which screen readers navigate by row and column. Scrolls horizontally on
 * narrow screens. `align: 'end'` for amounts and quantities.
 *
 * Plain elements, not react-aria-components' Table: that one builds a collection of every cell
 * through React and lays out a keyboard grid, which a read-only table does not need and which
 * takes seconds for a report of thousands of rows. Callers that may hold thousands of rows show
 * them a page at a time (dataset-table.tsx).
 */
import type { ReactNode } from 'react';

export interface TableColumn {
  key: string;
  label: ReactNode;
  align?: 'start' | 'end';
  isRowHeader?: boolean;
}

export interface TableProps {
  /** Accessible name of the table. */
  label: string;
  columns: readonly TableColumn[];
  /** Rows: `id` unique in the table, `cells` keyed by column key. */
  rows: readonly { id: string; cells: Record<string, ReactNode> }[];
  /** Shown when there is no row. */
  empty?: ReactNode;
  className?: string;
}

const endClass = (column: TableColumn, end: string) => (column.align === 'end' ? end : undefined);

export function Table({ label, columns, rows, empty, className }: TableProps) {
  return (
    <div className={['ui-table-scroll', className].filter(Boolean).join(' ')}>
      <table aria-label={label} className="ui-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={endClass(c, 'ui-table__col--end')}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : null}
          {rows.map((r) => (
            <tr key={r.id}>
              {columns.map((c) =>
                c.isRowHeader ? (
                  <th key={c.key} scope="row" className={endClass(c, 'ui-table__cell--end')}>
                    {r.cells[c.key]}
                  </th>
                ) : (
                  <td key={c.key} className={endClass(c, 'ui-table__cell--end')}>
                    {r.cells[c.key]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
