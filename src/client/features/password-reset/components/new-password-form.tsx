/**
 * The form the reset link opens (SPEC.md §2 `/reinit/changePassword`, §7 reinit/reinitPassword):
 * a new password and its confirmation, with the policy's rules shown live. An expired or used
 * link (SPEC.md §8 `expiredToken`, our `usedToken`) says so and offers a new link; a refusal of
 * the policy shows at the field; what was typed always stays.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ApiFailure } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session, signOut } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { ValidatedForm } from '../../../ui/form.tsx';
import {
  isAcceptable,
  NewPasswordFields,
  type NewPasswordProblems,
  newPasswordProblems,
} from '../../../ui/password-fields.tsx';
import { setPasswordByLink } from '../reset-calls.ts';

export interface NewPasswordFormProps {
  /** `email` and `key` of the link. */
  email: string;
  resetKey: string;
  /** Goes to the login screen once the password is set (the success is shown there). */
  onPasswordSet: () => Promise<void>;
  /** Opens the forgotten-password form (an expired or used link). */
  onAskNewLink: () => void;
}

type LinkProblem = 'expiredToken' | 'usedToken';

/** The server's word on a refused reset: the link's problem, a policy refusal, or something else. */
function refusalOf(e: unknown): { link: LinkProblem } | { policy: true } | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.code === 'expiredToken' || e.code === 'usedToken') return { link: e.code };
  if (e.code === 'PasswordPolicy') return { policy: true };
  return null;
}

/** The form of the module comment. */
export function NewPasswordForm({ email, resetKey, onPasswordSet, onAskNewLink }: NewPasswordFormProps) {
  const intl = useIntl();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [shown, setShown] = useState<NewPasswordProblems | null>(null);
  // Changes on each refused submit only (the focus then goes to the first invalid field).
  const [refusal, setRefusal] = useState<object | null>(null);
  const [serverError, setServerError] = useState<string | undefined>(undefined);
  const [linkProblem, setLinkProblem] = useState<LinkProblem | null>(null);
  const [pending, setPending] = useState(false);

  async function submit() {
    if (pending) return;
    const problems = newPasswordProblems(password, confirmation);
    if (!isAcceptable(problems)) {
      setShown(problems);
      setRefusal({});
      return;
    }
    setPending(true);
    try {
      await setPasswordByLink({ email, key: resetKey, password });
      // A session stored in this browser is void now (the reset revoked the account's sessions);
      // kept, the login route would send it to /home, whose first call, refused, would replace
      // the success below with "session expired".
      if (session.user) await signOut('user');
      await onPasswordSet();
      notify.success('SuccessMod');
    } catch (e) {
      const refused = refusalOf(e);
      if (refused && 'link' in refused) setLinkProblem(refused.link);
      else if (refused) {
        setServerError(intl.formatMessage({ id: 'error.PasswordPolicy' }));
        setRefusal({});
      } else notifyFailure(e);
    } finally {
      setPending(false);
    }
  }

  if (linkProblem) {
    return (
      <div className="reset-form" data-testid="reset-link-problem">
        <p className="reset-form__problem" role="alert">
          {intl.formatMessage({ id: `reset.link.${linkProblem}` })}
        </p>
        {/* The field that had the focus is gone: the way on takes it, right after the alert. */}
        <Button variant="primary" className="reset-form__submit" onPress={onAskNewLink} autoFocus>
          {intl.formatMessage({ id: 'reset.link.askAgain' })}
        </Button>
      </div>
    );
  }
  return (
    <ValidatedForm
      className="reset-form"
      onSubmit={() => void submit()}
      refusal={refusal}
      data-testid="reset-new-form"
    >
      <p className="reset-form__intro">{intl.formatMessage({ id: 'reset.new.intro' }, { email })}</p>
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
      <NewPasswordFields
        password={password}
        confirmation={confirmation}
        onPasswordChange={(v) => {
          setPassword(v);
          setServerError(undefined);
          if (shown) setShown(newPasswordProblems(v, confirmation));
        }}
        onConfirmationChange={(v) => {
          setConfirmation(v);
          if (shown) setShown(newPasswordProblems(password, v));
        }}
        shown={shown}
        serverError={serverError}
      />
      <Button type="submit" variant="primary" className="reset-form__submit" isDisabled={pending}>
        {intl.formatMessage({ id: 'reset.new.submit' })}
      </Button>
    </ValidatedForm>
  );
}
