// @vitest-environment happy-dom
/**
 * Two shared parts of ui/ rendered with react-dom in happy-dom: the table's scroll box becomes a
 * named, focusable region only when its table does not fit (the KPI/BI screens' wide tables,
 * axe "scrollable-region-focusable"), and the select greys out its disabled keys, says why, and
 * does not let them be chosen (the BI explorer's choices no aggregate holds).
 *
 * happy-dom lays nothing out (every size is 0): the box's sizes are given per test on the
 * prototype, as a browser would measure them; e2e/kpi-arrival.spec.ts checks the real layout.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { Select } from '../../src/client/ui/select.tsx';
import { Table } from '../../src/client/ui/table.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
const sizeProps = ['scrollWidth', 'clientWidth'] as const;

/** Gives every element of the page the widths a browser would measure for the table's box. */
function layOut(widths: { scrollWidth: number; clientWidth: number }) {
  for (const prop of sizeProps) {
    Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => widths[prop] });
  }
}

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  for (const prop of sizeProps) Reflect.deleteProperty(HTMLElement.prototype, prop);
});

function renderTable() {
  act(() => {
    root.render(
      <IntlProvider locale="en" messages={en}>
        <Table
          label="Key figures by scope"
          columns={[
            { key: 'line', label: 'Scope', isRowHeader: true },
            { key: 'net', label: 'Net sales', align: 'end' },
          ]}
          rows={[{ id: 'paris', cells: { line: 'Paris', net: '€58.00' } }]}
        />
      </IntlProvider>,
    );
  });
  const box = container.querySelector<HTMLElement>('.ui-table-scroll');
  if (!box) throw new Error('no table box');
  return box;
}

describe('ui/table', () => {
  it('makes a table wider than its box a named region the keyboard can focus and scroll', () => {
    layOut({ scrollWidth: 1200, clientWidth: 380 });
    const box = renderTable();
    expect(box.getAttribute('role')).toBe('region');
    // A name of its own, not the table's: a card around it may bear the table's name.
    expect(box.getAttribute('aria-label')).toBe('Key figures by scope (scrollable table)');
    expect(box.tabIndex).toBe(0);
    box.focus();
    expect(document.activeElement).toBe(box);
    expect(box.querySelector('table')?.getAttribute('aria-label')).toBe('Key figures by scope');
  });

  it('adds no tab stop and no region for a table that fits', () => {
    layOut({ scrollWidth: 600, clientWidth: 600 });
    const box = renderTable();
    expect(box.hasAttribute('role')).toBe(false);
    expect(box.hasAttribute('aria-label')).toBe(false);
    expect(box.hasAttribute('tabindex')).toBe(false);
  });
});

describe('ui/select', () => {
  it('greys out its disabled keys, says why, and keeps the choice when one is pressed', async () => {
    const chosen: unknown[] = [];
    act(() => {
      root.render(
        <Select
          label="Measure"
          value="NET"
          options={[
            { id: 'NET', label: 'Net sales' },
            { id: 'COVERS', label: 'Covers' },
            { id: 'ITEMS', label: 'Items' },
          ]}
          disabledKeys={['COVERS']}
          disabledNote="not available"
          onChange={(v) => chosen.push(v)}
        />,
      );
    });
    await act(async () => {
      container.querySelector<HTMLButtonElement>('button')?.click();
    });
    const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
    expect(options().map((o) => [o.textContent, o.getAttribute('aria-disabled')])).toEqual([
      ['Net sales', null],
      ['Covers (not available)', 'true'],
      ['Items', null],
    ]);
    await act(async () => {
      options()[1]?.click();
    });
    expect(chosen).toEqual([]);
    await act(async () => {
      options()[2]?.click();
    });
    expect(chosen).toEqual(['ITEMS']);
  });
});
