/**
 * An amount typed in the user's way ("12,50"), kept as text while typing so nothing typed is
 * lost on an error; the form parses it (money-input.ts). Numeric pad with a decimal key on phones.
 * A required field says so in its label; a refusal (`errorMessage`) shows under the field and is
 * linked to it for screen readers (inside a ValidatedForm, never a browser bubble).
 */
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { RequiredLabel } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';

export interface MoneyFieldProps {
  label: ReactNode;
  value: string;
  onChange: (text: string) => void;
  isRequired?: boolean;
  errorMessage?: ReactNode;
  description?: ReactNode;
  testId?: string;
}

export function MoneyField({
  label,
  value,
  onChange,
  isRequired,
  errorMessage,
  description,
  testId,
}: MoneyFieldProps) {
  const intl = useIntl();
  return (
    <TextField
      className="money-field"
      label={
        isRequired ? (
          <RequiredLabel label={label} mark={intl.formatMessage({ id: 'counting.required' })} />
        ) : (
          label
        )
      }
      value={value}
      onChange={onChange}
      inputMode="decimal"
      isRequired={isRequired}
      isInvalid={errorMessage !== undefined}
      errorMessage={errorMessage}
      description={description}
      data-testid={testId}
    />
  );
}
