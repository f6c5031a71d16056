/**
 * Labelled text input with description and error text (react-aria-components TextField). The
 * error shows the translated `errorMessage` when `isInvalid`, or the browser's validation
 * (e.g. `isRequired`, SPEC.md §5 "no field may be empty") otherwise.
 */
import type { ReactNode } from 'react';
import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import {
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components/TextField';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'className' | 'children'> {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: ReactNode;
  placeholder?: string;
  className?: string;
}

export function TextField({
  label,
  description,
  errorMessage,
  placeholder,
  className,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField {...props} className={['ui-field', className].filter(Boolean).join(' ')}>
      <Label className="ui-field__label">{label}</Label>
      <Input className="ui-field__input" placeholder={placeholder} />
      {description ? (
        <Text slot="description" className="ui-field__description">
          {description}
        </Text>
      ) : null}
      <FieldError className="ui-field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
