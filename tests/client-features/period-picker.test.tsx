// @vitest-environment happy-dom
/**
 * The period picker rendered with react-dom in happy-dom, in French: what the user types stays in
 * the field and in the selection while a translated error says what is wrong.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import de from '../../i18n/de.json';
import { PeriodPicker } from '../../src/client/selection/components/period-picker.tsx';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

function render(locale: 'fr' | 'de' = 'fr') {
  act(() => {
    root.render(
      <IntlProvider locale={locale} messages={locale === 'fr' ? fr : de}>
        <PeriodPicker />
      </IntlProvider>,
    );
  });
}

/** The input whose label reads `label`. */
function field(label: string): HTMLInputElement {
  const labelEl = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  const input = labelEl?.htmlFor
    ? container.querySelector<HTMLInputElement>(`#${CSS.escape(labelEl.htmlFor)}`)
    : null;
  if (!input) throw new Error(`no field labelled ${label}`);
  return input;
}

/** Types `text` into `input` the way React sees a user's typing (native setter + input event). */
async function type(input: HTMLInputElement, text: string) {
  // Async act: valtio notifies React after a microtask.
  await act(async () => {
    input.focus();
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setter?.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Leaves the field (tab away): errors show and typed dates are tidied. */
async function leave(input: HTMLInputElement) {
  await act(async () => {
    input.blur();
  });
}

beforeEach(() => {
  resetSelection();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe('period picker', () => {
  it('shows the days a period code covers', () => {
    selection.period = { kind: 'code', code: 'D' };
    render();
    const today = new Date();
    const dd = String(today.getDate()).padStart(2, '0');
    const mm = String(today.getMonth() + 1).padStart(2, '0');
    expect(container.textContent).toContain(`Le ${dd}/${mm}/${today.getFullYear()}`);
  });

  it('keeps a date that does not exist as typed and says why it is refused', async () => {
    selection.period = { kind: 'custom', debut: '01/02/2024', fin: '29/02/2024' };
    render();
    await type(field('Du'), '31/02/2024');
    expect(container.textContent).not.toContain('Date invalide');
    await leave(field('Du'));
    expect(field('Du').value).toBe('31/02/2024');
    expect(selection.period).toEqual({ kind: 'custom', debut: '31/02/2024', fin: '29/02/2024' });
    expect(container.textContent).toContain('Date invalide : utilisez le format JJ/MM/AAAA');
  });

  it('says the start is after the end without touching either date', async () => {
    selection.period = { kind: 'custom', debut: '01/02/2024', fin: '10/02/2024' };
    render('de');
    await type(field('Bis'), '05/01/2024');
    expect(field('Von').value).toBe('01/02/2024');
    expect(field('Bis').value).toBe('05/01/2024');
    expect(container.textContent).toContain('Das Startdatum liegt nach dem Enddatum.');
    await type(field('Bis'), '05.03.2024');
    await leave(field('Bis'));
    expect(field('Bis').value).toBe('05/03/2024');
    expect(container.textContent).toContain('Vom 01/02/2024 bis 05/03/2024');
  });
});
