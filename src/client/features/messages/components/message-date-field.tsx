/**
 * A day of a message (first or last), typed DD/MM/YYYY (SPEC.md §9) and reported as a wire date,
 * or null while the text is empty or not a real date. Like ui/date-field.tsx, with one more thing
 * the form needs: a refusal from outside (required, the last day before the first) shown at the
 * field, so the field is `aria-invalid` and the form can focus it.
 */
import { type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import { parseDisplayDate, toWireDate, wireToDisplay } from '../../../../contract/dates.ts';
import { TextField } from '../../../ui/text-field.tsx';

export interface MessageDateFieldProps {
  label: ReactNode;
  /** Wire date `YYYY-MM-DD`, or null. */
  value: string | null;
  /** The wire date typed, or null when the text is empty or not a date. */
  onChange: (wire: string | null) => void;
  /** A refusal to show (translated); the field's own "not a date" shows otherwise. */
  error?: string | undefined;
}

/** The field of the module comment; always required (a message runs from a day to a day). */
export function MessageDateField({ label, value, onChange, error }: MessageDateFieldProps) {
  const intl = useIntl();
  const [text, setText] = useState(value ? wireToDisplay(value) : '');
  const notADate = text.trim() !== '' && parseDisplayDate(text) === null;
  const shown = error ?? (notADate ? intl.formatMessage({ id: 'messages.error.notADate' }) : undefined);
  return (
    <TextField
      label={label}
      value={text}
      inputMode="numeric"
      placeholder={intl.formatMessage({ id: 'messages.datePlaceholder' })}
      description={intl.formatMessage({ id: 'messages.dateHint' })}
      isRequired
      isInvalid={shown !== undefined}
      errorMessage={shown}
      onChange={(typed) => {
        setText(typed);
        const date = parseDisplayDate(typed);
        onChange(date ? toWireDate(date) : null);
      }}
    />
  );
}
