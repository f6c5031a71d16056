// @vitest-environment happy-dom
/**
 * ui/online-dialog-form.tsx, the frame of the online-only dialogs (the safe's countersignature,
 * e-mails and manager code; the home's cash count reminder), rendered for real in English: the
 * offline notice and, where asked, the submit disabled offline; the problem as an alert (an id the
 * catalogue lacks read as the fallback); Cancel closes; a refused submit focuses the invalid field
 * and keeps what was typed.
 */
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { RequiredLabel } from '../../src/client/ui/form.tsx';
import { OnlineDialogForm, type OnlineDialogFormProps } from '../../src/client/ui/online-dialog-form.tsx';
import { TextField } from '../../src/client/ui/text-field.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  setOnline(true);
  document.body.innerHTML = '';
});

/** Says the device is offline (`false`) or online, and tells the page as the browser does. */
function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { value: online, configurable: true });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

type Props = Partial<OnlineDialogFormProps>;

/** A role asked as the home reminder asks it: required, refused at the field when empty. */
function RoleDialog({ props, sent, closed }: { props: Props; sent: string[]; closed: () => void }) {
  const [role, setRole] = useState('');
  const [refusal, setRefusal] = useState<object | null>(null);
  return (
    <OnlineDialogForm
      title="Remind"
      isOpen
      onClose={closed}
      onSubmit={() => {
        if (!role.trim()) setRefusal({});
        else sent.push(role);
      }}
      testId="role-form"
      offlineNoticeId="home.cash.remindOffline"
      problemId={null}
      refusal={refusal}
      submitLabelId="home.cash.remindSend"
      busy={false}
      {...props}
    >
      <TextField
        label={<RequiredLabel label="Role" mark="required" />}
        value={role}
        onChange={setRole}
        isRequired
        isInvalid={refusal !== null && !role.trim()}
        errorMessage="Enter the role."
      />
    </OnlineDialogForm>
  );
}

/** Renders the dialog; answers what it sent and how often it was closed. */
function render(props: Props = {}) {
  const sent: string[] = [];
  const closes: number[] = [];
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => {
    root!.render(
      <IntlProvider locale="en" messages={en}>
        <RoleDialog props={props} sent={sent} closed={() => closes.push(1)} />
      </IntlProvider>,
    );
  });
  return { sent, closes };
}

const form = () => document.querySelector<HTMLFormElement>('[data-testid="role-form"]')!;
const input = () => form().querySelector('input')!;
const button = (name: string) =>
  [...form().querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;
const isDisabled = (b: HTMLButtonElement) => b.disabled || b.getAttribute('aria-disabled') === 'true';

function submit() {
  act(() => {
    form().dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

describe('the online dialogs’ frame', () => {
  it('refuses an empty required field at the field, focused, and sends what is typed next', () => {
    const { sent } = render();
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain('Remind');
    submit();
    expect(sent).toEqual([]);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(input().getAttribute('aria-required')).toBe('true');
    expect(document.activeElement).toBe(input());
    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input(), 'DIRECTEUR');
      input().dispatchEvent(new Event('input', { bubbles: true }));
    });
    submit();
    expect(sent).toEqual(['DIRECTEUR']);
  });

  it('says when offline; where asked it cannot send, else the send goes on to fail by itself', () => {
    const blocked = render({ offlineDisablesSubmit: true });
    expect(document.querySelector('[data-testid="offline-notice"]')).toBeNull();
    setOnline(false);
    expect(document.querySelector('[data-testid="offline-notice"]')?.textContent).toBe(
      en['home.cash.remindOffline'],
    );
    expect(isDisabled(button(en['home.cash.remindSend']))).toBe(true);
    submit();
    expect(blocked.sent).toEqual([]);
    expect(document.querySelector('[aria-invalid="true"]')).toBeNull();
    act(() => root!.unmount());

    render();
    expect(document.querySelector('[data-testid="offline-notice"]')).not.toBeNull();
    expect(isDisabled(button(en['home.cash.remindSend']))).toBe(false);
    setOnline(true);
    expect(document.querySelector('[data-testid="offline-notice"]')).toBeNull();
  });

  it('shows the problem as an alert, an id the catalogue lacks as the fallback, and Cancel closes', () => {
    const { closes } = render({
      problemId: 'home.cash.remindNoRecipient',
      cancelLabelId: 'home.cash.remindCancel',
    });
    const alert = document.querySelector('[data-testid="role-problem"]');
    expect(alert?.getAttribute('role')).toBe('alert');
    expect(alert?.textContent).toBe(en['home.cash.remindNoRecipient']);
    act(() => button(en['home.cash.remindCancel']).click());
    expect(closes).toHaveLength(1);
    act(() => root!.unmount());

    render({ problemId: 'error.NoSuchCode' });
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(en['app.unexpectedError']);
    expect(button(en['sync.cancel'])).toBeDefined();
    act(() => root!.unmount());

    render({ problemId: 'error.NoSuchCode', unknownProblemId: 'home.cash.remindFailed' });
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(en['home.cash.remindFailed']);
  });
});
