/**
 * Parts shared by the user and profile forms: a labelled group of checkboxes (react-aria
 * CheckboxGroup, with its error at the group), a persistent refusal box, and the password with its
 * confirmation and the policy of SPEC.md §5 shown live, rule by rule, as the user types.
 */
import type { ReactNode } from 'react';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { useIntl } from 'react-intl';
import { type PasswordProblem, passwordProblems } from '../../../../contract/password.ts';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { RequiredLabel } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
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

/** A refusal for the whole form, kept until the next submit (SPEC.md §8: errors persist). */
export function FormRefusal({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="ua-refusal" role="alert">
      {text}
    </p>
  );
}

const RULES: readonly PasswordProblem[] = ['tooShort', 'noUpper', 'noLower', 'noDigit', 'noSpecial'];

/** The policy's rules, each said met or missing for `password` (contract/password.ts). */
export function PasswordRules({ password, id }: { password: string; id: string }) {
  const intl = useIntl();
  const missing = new Set(passwordProblems(password));
  return (
    <ul className="ua-rules" id={id} aria-label={intl.formatMessage({ id: 'usersAdmin.password.rules' })}>
      {RULES.map((rule) => {
        const met = !missing.has(rule);
        return (
          <li key={rule} className="ua-rules__rule" data-met={met || undefined}>
            <span aria-hidden="true">{met ? '✓' : '✗'}</span>{' '}
            <span className="visually-hidden">
              {intl.formatMessage({
                id: met ? 'usersAdmin.password.met' : 'usersAdmin.password.missing',
              })}{' '}
            </span>
            {intl.formatMessage({ id: `usersAdmin.password.rule.${rule}` })}
          </li>
        );
      })}
    </ul>
  );
}

/** Password and confirmation, both required, with the live rules under the password. */
export function PasswordFields(props: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  passwordError: string | undefined;
  confirmationError: string | undefined;
}) {
  const intl = useIntl();
  const mark = intl.formatMessage({ id: 'usersAdmin.required' });
  return (
    <div className="ua-password">
      <TextField
        label={<RequiredLabel label={intl.formatMessage({ id: 'usersAdmin.field.password' })} mark={mark} />}
        type="password"
        autoComplete="new-password"
        value={props.password}
        onChange={props.onPassword}
        isRequired
        isInvalid={props.passwordError !== undefined}
        errorMessage={props.passwordError}
        aria-describedby="ua-password-rules"
      />
      <PasswordRules password={props.password} id="ua-password-rules" />
      <TextField
        label={
          <RequiredLabel label={intl.formatMessage({ id: 'usersAdmin.field.confirmation' })} mark={mark} />
        }
        type="password"
        autoComplete="new-password"
        value={props.confirmation}
        onChange={props.onConfirmation}
        isRequired
        isInvalid={props.confirmationError !== undefined}
        errorMessage={props.confirmationError}
      />
    </div>
  );
}
