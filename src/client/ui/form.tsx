/**
 * A form whose refusals are the app's own, never the browser's bubbles (issue #20 item 3):
 * react-aria-components' Form with `validationBehavior="aria"`. Its fields then carry
 * `aria-required` and `aria-invalid` instead of `required`, nothing blocks the submit, and each
 * field shows its translated error (TextField's `errorMessage`, a FieldError) linked to the input
 * by `aria-describedby`. After a refused submit the first invalid field takes the focus, so a
 * screen reader reads its label, "invalid" and its error where the user has to act.
 *
 * Use it for every form that validates with the contract's rules; mark required fields' labels
 * with RequiredLabel so "required" is seen as well as announced.
 */
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components/Form';
import './form.css';

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
