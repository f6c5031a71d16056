/**
 * Date typed as DD/MM/YYYY (SPEC.md §3, §9) that reports a wire date `YYYY-MM-DD` (or `null`
 * while the text is not a real date). A text field rather than a calendar widget: quick to type on
 * a keyboard, and the phone shows a numeric pad.
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
  const invalid = text.trim() !== '' && parsed === null;
  return (
    <TextField
      className={className}
      label={label}
      value={text}
      inputMode="numeric"
      placeholder={placeholder}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isInvalid={invalid}
      errorMessage={invalid ? invalidMessage : undefined}
      onChange={(t) => {
        setText(t);
        const d = t.trim() === '' ? null : parseDisplayDate(t);
        if (t.trim() === '' || d) onChange(d ? toWireDate(d) : null);
      }}
    />
  );
}
