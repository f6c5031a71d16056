/**
 * Parts shared by the user and profile forms: a labelled group of checkboxes (react-aria
 * CheckboxGroup, with its error at the group), and the password with its confirmation and the
 * policy of SPEC.md §5 shown live, rule by rule, as the user types. Their refusal box and buttons
 * are ui/form.tsx's FormRefusal and FormFooter.
 */
import type { ReactNode } from 'react';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { useIntl } from 'react-intl';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { NewPasswordFields } from '../../../ui/password-fields.tsx';
import type { Problem } from '../user-form-model.ts';

/**
 * The message of `problem`, or undefined. A code the catalogues do not know (a refusal added to
 * the server later) reads as the generic error rather than as its message id.
 */
export function useProblemText(): (problem: Problem | undefined | null) => string | undefined {
  const intl = useIntl();
  return (problem) => {
    if (!problem) return undefined;
    const id = problem.id in intl.messages ? problem.id : 'app.unexpectedError';
    return intl.formatMessage({ id }, problem.values);
  };
}

export interface CheckOption {
  id: string;
  label: ReactNode;
  description?: ReactNode;
}

/** A labelled group of checkboxes; `value` the ids checked. */
export function CheckGroup(props: {
  label: ReactNode;
  description?: ReactNode;
  options: readonly CheckOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string | undefined;
  className?: string;
}) {
  return (
    <CheckboxGroup
      className={['ua-group', props.className].filter(Boolean).join(' ')}
      value={[...props.value]}
      onChange={props.onChange}
      isInvalid={props.error !== undefined}
    >
      <Label className="ui-field__label">{props.label}</Label>
      {props.description ? (
        <Text slot="description" className="ui-field__description">
          {props.description}
        </Text>
      ) : null}
      <div className="ua-group__options">
        {props.options.map((o) => (
          <div key={o.id} className="ua-group__option">
            <Checkbox value={o.id}>{o.label}</Checkbox>
            {o.description ? <p className="ua-group__hint">{o.description}</p> : null}
          </div>
        ))}
      </div>
      <FieldError className="ui-field__error">{props.error}</FieldError>
    </CheckboxGroup>
  );
}

/**
 * Password and confirmation with the policy's rules shown live (ui/password-fields.tsx, as on
 * /account and the reset link); the errors are this form's own problems, translated.
 */
export function PasswordFields(props: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  passwordError: string | undefined;
  /** True when the confirmation was refused (it differs from the password). */
  confirmationRefused: boolean;
}) {
  return (
    <div className="ua-password">
      <NewPasswordFields
        password={props.password}
        confirmation={props.confirmation}
        onPasswordChange={props.onPassword}
        onConfirmationChange={props.onConfirmation}
        shown={props.confirmationRefused ? { password: null, confirmation: 'mismatch' } : null}
        serverError={props.passwordError}
        labels={{ password: 'usersAdmin.field.password', confirmation: 'usersAdmin.field.confirmation' }}
      />
    </div>
  );
}
