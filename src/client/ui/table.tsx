/**
 * Data table (react-aria-components Table) for simple column/row data, e.g. a report dataset
 * preview. Scrolls horizontally on narrow screens. `align: 'end'` for amounts and quantities.
 */
import type { ReactNode } from 'react';
import { Cell, Column, Row, Table as AriaTable, TableBody, TableHeader } from 'react-aria-components/Table';

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

export function Table({ label, columns, rows, empty, className }: TableProps) {
  return (
    <div className={['ui-table-scroll', className].filter(Boolean).join(' ')}>
      <AriaTable aria-label={label} className="ui-table">
        <TableHeader columns={columns}>
          {(c) => (
            <Column
              id={c.key}
              isRowHeader={c.isRowHeader}
              className={c.align === 'end' ? 'ui-table__col--end' : undefined}
            >
              {c.label}
            </Column>
          )}
        </TableHeader>
        <TableBody items={rows} renderEmptyState={empty ? () => empty : undefined}>
          {(r) => (
            <Row id={r.id} columns={columns}>
              {(c) => (
                <Cell className={c.align === 'end' ? 'ui-table__cell--end' : undefined}>
                  {r.cells[c.key]}
                </Cell>
              )}
            </Row>
          )}
        </TableBody>
      </AriaTable>
    </div>
  );
}
