/**
 * Data table for simple column/row data (a report dataset preview, the graphs' and distributions'
 * figures, the KPI/BI area's results): a semantic HTML table (`th scope="col"` headers, the row
 * header column as `th scope="row"`), which screen readers navigate by row and column. Scrolls
 * horizontally on narrow screens (and vertically where a caller caps its height). `align: 'end'`
 * for amounts and quantities.
 *
 * When the table is larger than its box, the box becomes a region named after the table
 * ("<label> (scrollable table)", catalogue `ui.table.scrollRegion`) that takes the keyboard
 * focus (tabIndex 0, focus ring in table.css), so it can be scrolled with the arrow keys (axe
 * "scrollable-region-focusable", WCAG 2.1.1). A table that fits adds no tab stop.
 *
 * On a narrow screen the figures must be readable without discovering a sideways scroll (issue
 * #32 D.7): with `stackOnNarrow` (tables of a few rows: key figures, day parts), each row becomes a
 * card below 640 px, every value under its column's name; any other table that is wider than its
 * box says so above it ("scroll sideways", `data-scrolls` on the box, catalogue
 * `ui.table.scrollHint`) and shades the edge that hides columns.
 *
 * Plain elements, not react-aria-components' Table: that one builds a collection of every cell
 * through React and lays out a keyboard grid, which a read-only table does not need and which
 * takes seconds for a report of thousands of rows. Callers that may hold thousands of rows show
 * them a page at a time (dataset-table.tsx).
 */
import { type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import './table.css';

export interface TableColumn {
  key: string;
  label: ReactNode;
  align?: 'start' | 'end';
  isRowHeader?: boolean;
}

export interface TableProps {
  /** Accessible name of the table; its scroll region, when it scrolls, is "<label> (scrollable table)". */
  label: string;
  columns: readonly TableColumn[];
  /** Rows: `id` unique in the table, `cells` keyed by column key. */
  rows: readonly { id: string; cells: Record<string, ReactNode> }[];
  /** Shown when there is no row. */
  empty?: ReactNode;
  className?: string;
  /** Below 640 px, each row a card with every value under its column's name (few rows only). */
  stackOnNarrow?: boolean;
}

const endClass = (column: TableColumn, end: string) => (column.align === 'end' ? end : undefined);

/** How the content of `box` overflows it: sideways (`x`), or at all (`any`, it scrolls). */
function overflows(box: HTMLElement): { x: boolean; any: boolean } {
  const x = box.scrollWidth > box.clientWidth;
  return { x, any: x || box.scrollHeight > box.clientHeight };
}

const NO_OVERFLOW = { x: false, any: false };

/**
 * Whether the box in `boxRef` scrolls, measured before paint and again whenever the box (the
 * viewport changed) or its first child (the rows changed) is resized. A ResizeObserver costs one
 * callback per size change, not per frame.
 */
function useOverflow(boxRef: RefObject<HTMLElement | null>): { x: boolean; any: boolean } {
  const [scrolls, setScrolls] = useState(NO_OVERFLOW);
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () =>
      setScrolls((before) => {
        const now = overflows(box);
        return now.x === before.x && now.any === before.any ? before : now;
      });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [boxRef]);
  return scrolls;
}

export function Table({ label, columns, rows, empty, className, stackOnNarrow = false }: TableProps) {
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useOverflow(box);
  // A name of its own: landmarks must differ, and a card around a table often bears the table's name.
  const regionName = intl.formatMessage({ id: 'ui.table.scrollRegion' }, { table: label });
  const boxClass = ['ui-table-scroll', className].filter(Boolean).join(' ');
  const tableClass = stackOnNarrow ? 'ui-table ui-table--stack' : 'ui-table';
  // A stacked cell shows its column's name from `data-label` (table.css), as the exports' and
  // tickets' cards do: drawn by CSS, it is not part of the cell's text.
  const cellLabel = (c: TableColumn) =>
    stackOnNarrow && !c.isRowHeader && typeof c.label === 'string' ? c.label : undefined;
  return (
    <>
      {scrolls.x ? (
        <p className="ui-table__scroll-hint" aria-hidden="true">
          {intl.formatMessage({ id: 'ui.table.scrollHint' })}
        </p>
      ) : null}
      <div
        ref={box}
        className={boxClass}
        data-scrolls={scrolls.x ? 'true' : undefined}
        {...(scrolls.any ? { role: 'region', 'aria-label': regionName, tabIndex: 0 } : {})}
      >
        <table aria-label={label} className={tableClass}>
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
                    <td key={c.key} className={endClass(c, 'ui-table__cell--end')} data-label={cellLabel(c)}>
                      {r.cells[c.key]}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
