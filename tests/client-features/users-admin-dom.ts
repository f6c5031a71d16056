/**
 * Gestures of the administration screen tests on react-aria's controls in happy-dom: press a
 * button by its name, tick a checkbox or a radio by its label, pick an option of a Select (through
 * the native select react-aria keeps beside its button), read the table's rows.
 */
import { act } from 'react';

/** The buttons of `scope` whose accessible name (aria-label, else text) is `name`. */
export function buttonsNamed(scope: ParentNode, name: string): HTMLButtonElement[] {
  return [...scope.querySelectorAll<HTMLButtonElement>('button')].filter(
    (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name,
  );
}

/**
 * Presses the button named `name` in `scope` (the document by default) once it is there and
 * enabled (a button waits while its write is pending), inside act. Throws "no button named …"
 * after 15 s (a loaded machine).
 */
export async function press(name: string, scope: ParentNode = document): Promise<void> {
  const start = Date.now();
  let button = buttonsNamed(scope, name).find((b) => !b.disabled);
  while (!button) {
    if (Date.now() - start > 15_000) throw new Error(`no button named ${name}`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 25));
    });
    button = buttonsNamed(scope, name).find((b) => !b.disabled);
  }
  const found = button;
  await act(async () => {
    found.click();
  });
}

/** The label of the checkbox or radio reading `text` in `scope` (a checkbox's text, without its tick mark). */
function choiceLabel(text: string, scope: ParentNode): HTMLLabelElement | undefined {
  return [...scope.querySelectorAll('label')].find(
    (l) => (l.querySelector('.ui-checkbox__label') ?? l).textContent?.trim() === text,
  );
}

/** Clicks the checkbox or radio whose label reads `text` in `scope` once it is there (15 s at most), inside act. */
export async function tick(text: string, scope: ParentNode = document): Promise<void> {
  const find = () =>
    choiceLabel(text, scope)?.querySelector<HTMLInputElement>('input[type="checkbox"], input[type="radio"]');
  const start = Date.now();
  let input = find();
  while (!input) {
    if (Date.now() - start > 15_000) throw new Error(`no checkbox or radio labelled ${text}`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 25));
    });
    input = find();
  }
  const found = input;
  await act(async () => {
    found.click();
  });
}

/** Whether the checkbox labelled `text` in `scope` is checked. */
export function isTicked(text: string, scope: ParentNode = document): boolean {
  const label = choiceLabel(text, scope);
  const input = label?.querySelector<HTMLInputElement>('input');
  if (!input) throw new Error(`no checkbox labelled ${text}`);
  return input.checked;
}

/** Picks `optionText` in the Select whose label starts with `labelText`, through the native select react-aria keeps. */
export async function choose(
  labelText: string,
  optionText: string,
  scope: ParentNode = document,
): Promise<void> {
  const field = [...scope.querySelectorAll('.ui-select')].find((f) =>
    f.querySelector('.ui-field__label')?.textContent?.trim().startsWith(labelText),
  );
  const select = field?.querySelector('select');
  if (!select) throw new Error(`no select labelled ${labelText}`);
  const option = [...select.options].find((o) => o.textContent === optionText);
  if (!option) throw new Error(`no option ${optionText} in ${labelText}`);
  await act(async () => {
    select.value = option.value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The text of each body row of the table named `label`, one string per cell. */
export function tableRows(label: string): string[][] {
  const table = document.querySelector(`table[aria-label="${label}"]`);
  if (!table) return [];
  return [...table.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.children].map((cell) => {
      const copy = cell.cloneNode(true) as HTMLElement;
      for (const l of copy.querySelectorAll('.ua-cell-label')) l.remove();
      return copy.textContent?.trim() ?? '';
    }),
  );
}

/** The text of the open dialog (the last one), or ''. */
export function dialogText(): string {
  const dialogs = document.querySelectorAll('[role="dialog"], [role="alertdialog"]');
  return dialogs[dialogs.length - 1]?.textContent ?? '';
}
