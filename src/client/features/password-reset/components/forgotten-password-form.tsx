/**
 * "Forgotten password" (SPEC.md §2 forgotten password, §7 reinit/sendReinitMail): the user types
 * their login or e-mail address and gets a link by e-mail (SPEC.md §8 `seeUrMail`). An unknown
 * user (`userNull`) is told at the field; what was typed stays.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ApiFailure } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { sendResetLink } from '../reset-calls.ts';

export interface ForgottenPasswordFormProps {
  /** What the field starts with (the e-mail of an expired link). */
  initialUser?: string;
}

/** The form of the module comment; after a sent mail it says so and stays, to send again. */
export function ForgottenPasswordForm({ initialUser = '' }: ForgottenPasswordFormProps) {
  const intl = useIntl();
  const [user, setUser] = useState(initialUser);
  const [problem, setProblem] = useState<'required' | 'userNull' | null>(null);
  const [refusal, setRefusal] = useState<object | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit() {
    if (pending) return;
    if (user.trim() === '') {
      setProblem('required');
      setRefusal({});
      return;
    }
    setPending(true);
    try {
      await sendResetLink(user.trim());
      setSentTo(user.trim());
      notify.success('seeUrMail');
    } catch (e) {
      if (e instanceof ApiFailure && e.code === 'userNull') {
        setProblem('userNull');
        setRefusal({});
      } else {
        notifyFailure(e);
      }
    } finally {
      setPending(false);
    }
  }

  const errorText =
    problem === 'required'
      ? intl.formatMessage({ id: 'reset.user.required' })
      : problem === 'userNull'
        ? intl.formatMessage({ id: 'error.userNull' })
        : undefined;
  return (
    <ValidatedForm
      className="reset-form"
      onSubmit={() => void submit()}
      refusal={refusal}
      data-testid="reset-ask-form"
    >
      <p className="reset-form__intro">{intl.formatMessage({ id: 'reset.ask.intro' })}</p>
      <TextField
        label={
          <RequiredLabel
            label={intl.formatMessage({ id: 'reset.user' })}
            mark={intl.formatMessage({ id: 'password.requiredMark' })}
          />
        }
        value={user}
        onChange={(v) => {
          setUser(v);
          setProblem(null);
        }}
        isRequired
        maxLength={254}
        autoComplete="username"
        spellCheck="false"
        isInvalid={errorText !== undefined}
        errorMessage={errorText}
      />
      {sentTo !== null ? (
        <p className="reset-form__sent" role="status">
          {intl.formatMessage({ id: 'reset.ask.sent' }, { user: sentTo })}
        </p>
      ) : null}
      <Button type="submit" variant="primary" className="reset-form__submit" isDisabled={pending}>
        {intl.formatMessage({ id: sentTo === null ? 'reset.ask.submit' : 'reset.ask.again' })}
      </Button>
    </ValidatedForm>
  );
}
