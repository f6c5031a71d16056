/**
 * My password change (SPEC.md §2 `/account`, §5): the current password, the new one and its
 * confirmation, with the policy's rules shown live (ui/password-fields.tsx, the contract's rule
 * the server checks too). A wrong current password (`WrongPassword`), a refused policy or a
 * mismatch show at their field; what was typed stays until the change is saved. The server signs
 * out my other sessions.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Utilisateur } from '../../../../contract/administration.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import {
  isAcceptable,
  NewPasswordFields,
  type NewPasswordProblems,
  newPasswordProblems,
} from '../../../ui/password-fields.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { saveMyAccount } from '../account-queries.ts';

/** Errors the server gave, each at its field (message ids). */
interface ServerErrors {
  current?: string;
  password?: string;
}

/** The server's refusal put at its field, or null when it belongs to no field. */
function serverErrorsOf(e: unknown): { errors: ServerErrors } | { mismatch: true } | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.code === 'WrongPassword') return { errors: { current: 'error.WrongPassword' } };
  if (e.code === 'PasswordPolicy') return { errors: { password: 'error.PasswordPolicy' } };
  if (e.code === 'PasswordMismatch') return { mismatch: true };
  return null;
}

/** The form of the module comment, for `user` (their id is the call's `id`). */
export function AccountPasswordForm({ user }: { user: Pick<Utilisateur, 'id' | 'login'> }) {
  const intl = useIntl();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentMissing, setCurrentMissing] = useState(false);
  const [shown, setShown] = useState<NewPasswordProblems | null>(null);
  const [server, setServer] = useState<ServerErrors>({});
  const [refusal, setRefusal] = useState<object | null>(null);
  const [pending, setPending] = useState(false);

  function refuse(problems: NewPasswordProblems | null, errors: ServerErrors, missing: boolean) {
    setShown(problems);
    setServer(errors);
    setCurrentMissing(missing);
    setRefusal({});
  }

  async function submit() {
    if (pending) return;
    const problems = newPasswordProblems(password, confirmation);
    if (current === '' || !isAcceptable(problems)) {
      refuse(isAcceptable(problems) ? null : problems, {}, current === '');
      return;
    }
    setPending(true);
    try {
      await saveMyAccount(user.id, user.login, {
        updatePassword: true,
        currentPassword: current,
        password,
        rePasswordKey: confirmation,
      });
      for (const clear of [setCurrent, setPassword, setConfirmation]) clear('');
      setShown(null);
      setServer({});
      notify.success('SuccessMod');
    } catch (e) {
      const refused = serverErrorsOf(e);
      if (refused && 'mismatch' in refused) refuse({ password: null, confirmation: 'mismatch' }, {}, false);
      else if (refused) refuse(null, refused.errors, false);
      else notifyFailure(e);
    } finally {
      setPending(false);
    }
  }

  const currentError = currentMissing ? 'password.empty' : server.current;
  return (
    <ValidatedForm
      className="account-form"
      onSubmit={() => void submit()}
      refusal={refusal}
      data-testid="account-password-form"
    >
      {/* For password managers: the account whose password changes. */}
      <input type="text" name="username" value={user.login} autoComplete="username" readOnly hidden />
      <TextField
        label={
          <RequiredLabel
            label={intl.formatMessage({ id: 'account.currentPassword' })}
            mark={intl.formatMessage({ id: 'password.requiredMark' })}
          />
        }
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(v) => {
          setCurrent(v);
          setCurrentMissing(false);
          setServer((s) => ({ ...s, current: undefined }));
        }}
        isRequired
        maxLength={200}
        isInvalid={currentError !== undefined}
        errorMessage={currentError ? intl.formatMessage({ id: currentError }) : undefined}
      />
      <NewPasswordFields
        password={password}
        confirmation={confirmation}
        onPasswordChange={(v) => {
          setPassword(v);
          setServer((s) => ({ ...s, password: undefined }));
          if (shown) setShown(newPasswordProblems(v, confirmation));
        }}
        onConfirmationChange={(v) => {
          setConfirmation(v);
          if (shown) setShown(newPasswordProblems(password, v));
        }}
        shown={shown}
        serverError={server.password ? intl.formatMessage({ id: server.password }) : undefined}
      />
      <Button type="submit" variant="primary" className="account-form__submit" isDisabled={pending}>
        {intl.formatMessage({ id: 'account.changePassword' })}
      </Button>
    </ValidatedForm>
  );
}
