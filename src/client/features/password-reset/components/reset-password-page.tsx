/**
 * `/reinit/changePassword` (SPEC.md §2): with the `email` and `key` of a reset link, the form that
 * sets the new password; without them — reached from the login's "forgotten password" — or when
 * the link turns out expired or used, the form that mails a new link.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ForgottenPasswordForm } from './forgotten-password-form.tsx';
import { NewPasswordForm } from './new-password-form.tsx';
import '../reset.css';

export interface ResetPasswordPageProps {
  /** `email` and `key` of the link's query, when the page was opened from a mail. */
  email?: string | undefined;
  resetKey?: string | undefined;
  /** Goes to the login screen after the password is set. */
  onPasswordSet: () => Promise<void>;
}

/** The page of the module comment: its title, one of the two forms, and the way back to the login. */
export function ResetPasswordPage({ email, resetKey, onPasswordSet }: ResetPasswordPageProps) {
  const intl = useIntl();
  const hasLink = Boolean(email && resetKey);
  const [asking, setAsking] = useState(!hasLink);
  return (
    <>
      <h1 className="login__title">
        {intl.formatMessage({ id: asking ? 'reset.ask.title' : 'reset.new.title' })}
      </h1>
      {asking || !email || !resetKey ? (
        <ForgottenPasswordForm initialUser={email ?? ''} />
      ) : (
        <NewPasswordForm
          email={email}
          resetKey={resetKey}
          onPasswordSet={onPasswordSet}
          onAskNewLink={() => setAsking(true)}
        />
      )}
      <p className="reset-back">
        <Link to="/" className="reset-back__link">
          {intl.formatMessage({ id: 'reset.backToLogin' })}
        </Link>
      </p>
    </>
  );
}
