/**
 * A new password and its confirmation (SPEC.md §5: the policy of §9, "passwords must match"),
 * for every form that sets a password (my account, the reset link). The rules come from the
 * contract (contract/password.ts), the same function the server checks with, and show live under
 * the field, each marked met or missing; a refused submit names at the field what is missing.
 */
import { useIntl } from 'react-intl';
import { type PasswordProblem, passwordProblems } from '../../contract/password.ts';
import { RequiredLabel } from './form.tsx';
import { TextField } from './text-field.tsx';
import './password-fields.css';

/** Every rule of the policy, in the order the list shows them. */
const RULES: readonly PasswordProblem[] = ['tooShort', 'noUpper', 'noLower', 'noDigit', 'noSpecial'];

/** What is wrong with a new password and its confirmation; nulls when both are acceptable. */
export interface NewPasswordProblems {
  /** The policy's missing rules (empty password: every rule), or null. */
  password: PasswordProblem[] | null;
  /** `required` (empty) or `mismatch`, or null. */
  confirmation: 'required' | 'mismatch' | null;
}

/** Checks `password` against the policy and `confirmation` against it. */
export function newPasswordProblems(password: string, confirmation: string): NewPasswordProblems {
  const missing = passwordProblems(password);
  return {
    password: missing.length > 0 ? missing : null,
    confirmation: confirmation === '' ? 'required' : confirmation !== password ? 'mismatch' : null,
  };
}

/** True when {@link newPasswordProblems} found nothing. */
export function isAcceptable(problems: NewPasswordProblems): boolean {
  return problems.password === null && problems.confirmation === null;
}

/** The live list of the policy's rules, each marked met or missing for `password`. */
export function PasswordRules({ password, id }: { password: string; id?: string }) {
  const intl = useIntl();
  const missing = new Set(passwordProblems(password));
  return (
    <span className="ui-password-rules" id={id}>
      <span className="ui-password-rules__intro">{intl.formatMessage({ id: 'password.rules' })}</span>
      <span className="ui-password-rules__list">
        {RULES.map((rule) => {
          const met = !missing.has(rule);
          return (
            <span key={rule} className="ui-password-rules__rule" data-met={met || undefined}>
              <span aria-hidden="true">{met ? '✓' : '✗'}</span>{' '}
              {intl.formatMessage({ id: `password.${rule}` })}
              <span className="visually-hidden">
                {' '}
                {intl.formatMessage({ id: met ? 'password.met' : 'password.missing' })}
              </span>
            </span>
          );
        })}
      </span>
    </span>
  );
}

export interface NewPasswordFieldsProps {
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  /** The last refused submit's problems (show at the fields), or null before any. */
  shown: NewPasswordProblems | null;
  /** A server refusal to show at the new password (already translated), e.g. PasswordPolicy. */
  serverError?: string | undefined;
  /** Message ids of the two labels. */
  labels?: { password: string; confirmation: string };
}

/**
 * The two fields. Errors show only for a refused submit (`shown`): a user typing is not told off
 * before they are done, but sees the rules fill in as they type.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  shown,
  serverError,
  labels = { password: 'password.new', confirmation: 'password.confirmation' },
}: NewPasswordFieldsProps) {
  const intl = useIntl();
  const required = intl.formatMessage({ id: 'password.requiredMark' });
  const missingText = shown?.password
    ? intl.formatMessage(
        { id: 'password.lacks' },
        { list: intl.formatList(shown.password.map((p) => intl.formatMessage({ id: `password.${p}` }))) },
      )
    : serverError;
  const confirmationText = shown?.confirmation
    ? intl.formatMessage({
        id: shown.confirmation === 'required' ? 'password.empty' : 'error.PasswordMismatch',
      })
    : undefined;
  return (
    <>
      <TextField
        label={<RequiredLabel label={intl.formatMessage({ id: labels.password })} mark={required} />}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPasswordChange}
        isRequired
        maxLength={200}
        isInvalid={missingText !== undefined}
        errorMessage={missingText}
        description={<PasswordRules password={password} />}
      />
      <TextField
        label={<RequiredLabel label={intl.formatMessage({ id: labels.confirmation })} mark={required} />}
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmationChange}
        isRequired
        maxLength={200}
        isInvalid={confirmationText !== undefined}
        errorMessage={confirmationText}
      />
    </>
  );
}
