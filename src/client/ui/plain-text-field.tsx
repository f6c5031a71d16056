/**
 * A labelled text input on plain DOM elements, for the login screen only: the first screen must
 * stay within the JavaScript budget (issue #2 §7), so it does without react-aria. It keeps the
 * same look as TextField (same classes) and the same accessibility: a real <label>, `required`,
 * `aria-invalid` and the error text linked with `aria-describedby` once the form was submitted.
 * Everywhere else, use TextField.
 */
import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';

export interface PlainTextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className' | 'id'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Shown (and announced) when set: the field is then marked invalid. */
  errorMessage?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
}

export function PlainTextField({
  label,
  value,
  onChange,
  errorMessage,
  inputRef,
  className,
  ...input
}: PlainTextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = Boolean(errorMessage);
  return (
    <div className={['ui-field', className].filter(Boolean).join(' ')}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        className="ui-field__input"
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        aria-invalid={invalid || undefined}
        data-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
      {invalid ? (
        <span id={errorId} className="ui-field__error">
          {errorMessage}
        </span>
      ) : null}
    </div>
  );
}
