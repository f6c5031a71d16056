/**
 * Date typed as DD/MM/YYYY (SPEC.md §3, §9) that reports a wire date `YYYY-MM-DD` (or `null`
 * while the text is not a real date). A text field rather than a calendar widget: quick to type on
 * a keyboard, and the phone shows a numeric pad.
 *
 * Two uses: a filter (the default) keeps the last good date while a new one is being typed; a
 * form's field (`nullWhileInvalid`) reports null as soon as the text is not a date, so the form's
 * check refuses it rather than send an older date, and shows the form's refusal (`error`:
 * required, end before start…) at the field, `aria-invalid`, for ui/form.tsx to focus.
 */
import { type ReactNode, useEffect, useState } from 'react';
import { parseDisplayDate, toWireDate, wireToDisplay } from '../../contract/dates.ts';
import { TextField } from './text-field.tsx';

export interface DateFieldProps {
  label: ReactNode;
  /** Wire date `YYYY-MM-DD`, or null when empty. */
  value: string | null;
  onChange: (wire: string | null) => void;
  /** Translated message shown while the text is not a valid DD/MM/YYYY date. */
  invalidMessage: ReactNode;
  /** Translated hint of the format (e.g. "JJ/MM/AAAA"). */
  placeholder?: string;
  /** Translated help under the field. */
  description?: ReactNode;
  /** A refusal from the form (translated); it wins over {@link DateFieldProps.invalidMessage}. */
  error?: ReactNode;
  /** Report null while the text is not a date (a form's field), instead of keeping the last good date. */
  nullWhileInvalid?: boolean;
  isRequired?: boolean;
  isDisabled?: boolean;
  className?: string;
}

export function DateField({
  label,
  value,
  onChange,
  invalidMessage,
  placeholder,
  description,
  error,
  nullWhileInvalid = false,
  isRequired,
  isDisabled,
  className,
}: DateFieldProps) {
  const [text, setText] = useState(value ? wireToDisplay(value) : '');
  // Follow outside changes (a period code chosen elsewhere) without fighting the user's typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an outside change of `value` resyncs the text
  useEffect(() => {
    const current = parseDisplayDate(text);
    const currentWire = current ? toWireDate(current) : null;
    if (currentWire !== value) setText(value ? wireToDisplay(value) : '');
  }, [value]);
  const parsed = text.trim() === '' ? null : parseDisplayDate(text);
  const notADate = text.trim() !== '' && parsed === null;
  const shown = error ?? (notADate ? invalidMessage : undefined);
  return (
    <TextField
      className={className}
      label={label}
      value={text}
      inputMode="numeric"
      placeholder={placeholder}
      description={description}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isInvalid={shown !== undefined && shown !== null}
      errorMessage={shown}
      onChange={(t) => {
        setText(t);
        const d = t.trim() === '' ? null : parseDisplayDate(t);
        if (t.trim() === '' || d || nullWhileInvalid) onChange(d ? toWireDate(d) : null);
      }}
    />
  );
}
