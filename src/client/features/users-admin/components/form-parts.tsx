/**
 * Parts shared by the user and profile forms: a labelled group of checkboxes (react-aria
 * CheckboxGroup, with its error at the group), the companies added and removed, and the password with its confirmation and the
 * policy of SPEC.md §5 shown live, rule by rule, as the user types. Their refusal box and buttons
 * are ui/form.tsx's FormRefusal and FormFooter.
 */
import type { ReactNode } from 'react';
import { CheckboxGroup } from 'react-aria-components/CheckboxGroup';
import { FieldError } from 'react-aria-components/FieldError';
import { Label } from 'react-aria-components/Label';
import { Text } from 'react-aria-components/Text';
import { useIntl } from 'react-intl';
import type { Societe } from '../../../../contract/administration.ts';
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

/** The companies a scope adds and removes (a user's draft, a profile's draft): company ids. */
export interface CompanySides {
  societesPlus: number[];
  societesMoins: number[];
}

/**
 * The companies added to and removed from a scope (SPEC.md §6: the sites of a profile, of a
 * user), as two labelled groups of checkboxes, one box per company. Ticking a company on one side
 * takes it off the other, so a company is never both added and removed.
 */
export function CompanyChanges<D extends CompanySides>(props: {
  plusLabel: string;
  minusLabel: string;
  companies: readonly Societe[];
  draft: D;
  /** Called with an update of the caller's draft (the two lists). */
  onChange: (update: (draft: D) => D) => void;
}) {
  const options = props.companies.map((c) => ({ id: String(c.id), label: c.raisonSociale }));
  function change(side: 'plus' | 'minus', ids: string[]) {
    const chosen = ids.map(Number);
    const others = (list: readonly number[]) => list.filter((id) => !chosen.includes(id));
    props.onChange((d) => ({
      ...d,
      societesPlus: side === 'plus' ? chosen : others(d.societesPlus),
      societesMoins: side === 'minus' ? chosen : others(d.societesMoins),
    }));
  }
  return (
    <>
      <CheckGroup
        label={props.plusLabel}
        options={options}
        value={props.draft.societesPlus.map(String)}
        onChange={(ids) => change('plus', ids)}
      />
      <CheckGroup
        label={props.minusLabel}
        options={options}
        value={props.draft.societesMoins.map(String)}
        onChange={(ids) => change('minus', ids)}
      />
    </>
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
