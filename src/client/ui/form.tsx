/**
 * A form whose refusals are the app's own, never the browser's bubbles (issue #20 item 3):
 * react-aria-components' Form with `validationBehavior="aria"`. Its fields then carry
 * `aria-required` and `aria-invalid` instead of `required`, nothing blocks the submit, and each
 * field shows its translated error (TextField's `errorMessage`, a FieldError) linked to the input
 * by `aria-describedby`. After a refused submit the first invalid field takes the focus, so a
 * screen reader reads its label, "invalid" and its error where the user has to act.
 *
 * Use it for every form that validates with the contract's rules; mark required fields' labels
 * with RequiredLabel so "required" is seen as well as announced; end an editing form with
 * {@link FormFooter} (its refusal that names no field, then Save and Cancel), as the
 * administration's forms do.
 */
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components/Form';
import { Button } from './button.tsx';
import './form.css';
import './page.css';

export interface ValidatedFormProps extends Omit<AriaFormProps, 'onSubmit' | 'validationBehavior' | 'ref'> {
  /** Called on submit (button or Enter); the page never reloads. */
  onSubmit: () => void;
  /**
   * The last submit's refusal: any value that changes each time a submit is refused (the new
   * errors array), or null / an empty array when nothing was refused. On a change to a refusal,
   * the first field marked `aria-invalid` is focused.
   */
  refusal?: unknown;
  formRef?: RefObject<HTMLFormElement | null>;
  children: ReactNode;
}

/** Whether `refusal` says a submit was refused (a non-empty array, or any other non-null value). */
function isRefusal(refusal: unknown): boolean {
  if (Array.isArray(refusal)) return refusal.length > 0;
  return refusal !== null && refusal !== undefined && refusal !== false;
}

/** The form of the module comment: aria validation, `onSubmit` on submit, focus on refusal. */
export function ValidatedForm({ onSubmit, refusal, formRef, children, ...props }: ValidatedFormProps) {
  const ownRef = useRef<HTMLFormElement>(null);
  const ref = formRef ?? ownRef;
  useEffect(() => {
    if (!isRefusal(refusal)) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusal, ref]);
  return (
    <AriaForm
      {...props}
      ref={ref}
      validationBehavior="aria"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </AriaForm>
  );
}

/**
 * A field's label with its visible "required" mark (`mark`, translated by the caller). The mark
 * is hidden from screen readers: the field's `aria-required` already says it, once.
 */
export function RequiredLabel({ label, mark }: { label: ReactNode; mark: ReactNode }) {
  return (
    <>
      {label}{' '}
      <span className="ui-field__required" aria-hidden="true">
        {mark}
      </span>
    </>
  );
}

/**
 * A refusal the user has to read before going on (the server's answer to a submit, a rule broken
 * by several fields): an alert, in the user's language, kept until the caller clears it (on the
 * next submit, or as soon as the field it is about changes). Nothing when `text` is empty.
 */
export function FormRefusal({ text }: { text: ReactNode }) {
  if (text === null || text === undefined || text === '' || text === false) return null;
  return (
    <p className="ui-refusal" role="alert">
      {text}
    </p>
  );
}

/**
 * The end of an editing form: the refusal that names no field ({@link FormRefusal}), then the
 * submit button and Cancel, both disabled while `busy` (so a double press sends once), on one row
 * that takes the whole width on a phone (44 px targets). Cancel calls `onCancel`; what was typed
 * is the form's state and stays on a refusal.
 */
export function FormFooter(props: {
  refusal?: ReactNode;
  submitLabel: string;
  cancelLabel: string;
  busy: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <FormRefusal text={props.refusal} />
      <div className="ui-buttons">
        <Button type="submit" variant="primary" isDisabled={props.busy}>
          {props.submitLabel}
        </Button>
        <Button onPress={props.onCancel} isDisabled={props.busy}>
          {props.cancelLabel}
        </Button>
      </div>
    </>
  );
}
