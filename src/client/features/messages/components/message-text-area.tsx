/**
 * The text of a message in one language: a labelled multi-line field (react-aria TextField with a
 * TextArea) whose content is marked with its language, so a screen reader reads German as German.
 */
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { TextArea } from 'react-aria-components/TextArea';
import { TextField } from 'react-aria-components/TextField';
import { MESSAGE_TEXT_MAX } from '../message-draft.ts';

export interface MessageTextAreaProps {
  language: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** A refusal to show (translated), which marks the field invalid. */
  error?: string | undefined;
  autoFocus?: boolean;
}

/** The field of the module comment, at most {@link MESSAGE_TEXT_MAX} characters. */
export function MessageTextArea({
  language,
  label,
  value,
  onChange,
  error,
  autoFocus,
}: MessageTextAreaProps) {
  return (
    <TextField
      className="ui-field"
      value={value}
      onChange={onChange}
      maxLength={MESSAGE_TEXT_MAX}
      isInvalid={error !== undefined}
      autoFocus={autoFocus}
    >
      <Label className="ui-field__label">{label}</Label>
      <TextArea className="msg-textarea" lang={language} />
      <FieldError className="ui-field__error">{error}</FieldError>
    </TextField>
  );
}
