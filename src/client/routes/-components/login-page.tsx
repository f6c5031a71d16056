/**
 * The login screen (SPEC.md §2 `/` and `/index`, §5): login and password required, language
 * choice kept locally. A failed sign-in shows badCredentials / Network Error… in the notification
 * area and keeps what was typed; success opens /home. "Forgotten password?" opens
 * /reinit/changePassword, which mails a reset link. Built on plain DOM elements (no react-aria)
 * so the first screen stays within the JavaScript budget (issue #2 §7).
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AppMark } from '../../app/app-mark.tsx';
import { LanguageChoice } from '../../app/language-choice.tsx';
import { clearNotifications, notifyFailure } from '../../lib/notifications.ts';
import { signIn } from '../../lib/session.ts';
import { landingAfterSignIn } from '../../features/startup/landing.ts';
import { PlainTextField } from '../../ui/plain-text-field.tsx';
import './login-forgotten.css';

export function LoginPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const loginRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const loginMissing = login.trim() === '';
  const passwordMissing = password === '';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setSubmitted(true);
    // SPEC.md §5: login required, no field empty. Focus goes to the first field to fix.
    if (loginMissing || passwordMissing) {
      (loginMissing ? loginRef : passwordRef).current?.focus();
      return;
    }
    setPending(true);
    clearNotifications();
    try {
      const user = await signIn(login.trim(), password);
      // A new installation's administrator is led to the start-up until it is done (issue #30).
      await navigate({ to: await landingAfterSignIn(user) });
    } catch (e) {
      notifyFailure(e);
      setPending(false);
    }
  }

  return (
    <main className="login" id="main">
      <div className="login__card">
        <div className="login__brand">
          <AppMark className="login__mark" />
          <span className="login__name">
            <FormattedMessage id="app.name" />
          </span>
        </div>
        <h1 className="login__title">
          <FormattedMessage id="login.title" />
        </h1>
        <p className="login__intro">
          <FormattedMessage id="login.intro" />
        </p>
        {/* noValidate: our translated messages replace the browser's, which follow its own language. */}
        <form className="login__form" onSubmit={submit} noValidate>
          <PlainTextField
            name="login"
            inputRef={loginRef}
            label={intl.formatMessage({ id: 'login.login' })}
            value={login}
            onChange={setLogin}
            required
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            errorMessage={
              submitted && loginMissing ? intl.formatMessage({ id: 'login.loginRequired' }) : undefined
            }
          />
          <PlainTextField
            name="password"
            type="password"
            inputRef={passwordRef}
            label={intl.formatMessage({ id: 'login.password' })}
            value={password}
            onChange={setPassword}
            required
            autoComplete="current-password"
            errorMessage={
              submitted && passwordMissing ? intl.formatMessage({ id: 'login.passwordRequired' }) : undefined
            }
          />
          <button
            type="submit"
            className="ui-button ui-button--primary login__submit"
            aria-disabled={pending || undefined}
            data-pending={pending || undefined}
          >
            <FormattedMessage id={pending ? 'login.submitting' : 'login.submit'} />
          </button>
        </form>
        <p className="login__forgotten">
          <Link to="/reinit/changePassword" className="login__forgotten-link">
            <FormattedMessage id="reset.forgotten" />
          </Link>
        </p>
        <LanguageChoice className="login__languages" />
      </div>
    </main>
  );
}
