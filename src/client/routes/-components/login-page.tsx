/**
 * The login screen (SPEC.md §2 `/` and `/index`, §5): login and password required, language
 * choice kept locally. A failed sign-in shows badCredentials / Network Error… in the notification
 * area and keeps what was typed; success opens /home.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components/Form';
import { FormattedMessage, useIntl } from 'react-intl';
import { LanguageChoice } from '../../app/language-choice.tsx';
import { AppMark } from '../../app/app-mark.tsx';
import { clearNotifications, notifyFailure } from '../../lib/notifications.ts';
import { signIn } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';

export function LoginPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    clearNotifications();
    try {
      await signIn(login.trim(), password);
      await navigate({ to: '/home' });
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
        <Form className="login__form" onSubmit={submit}>
          <TextField
            name="login"
            label={intl.formatMessage({ id: 'login.login' })}
            value={login}
            onChange={setLogin}
            isRequired
            autoComplete="username"
            autoCorrect="off"
            spellCheck="false"
            errorMessage={intl.formatMessage({ id: 'login.loginRequired' })}
          />
          <TextField
            name="password"
            type="password"
            label={intl.formatMessage({ id: 'login.password' })}
            value={password}
            onChange={setPassword}
            isRequired
            autoComplete="current-password"
            errorMessage={intl.formatMessage({ id: 'login.passwordRequired' })}
          />
          <Button type="submit" variant="primary" className="login__submit" isPending={pending}>
            <FormattedMessage id={pending ? 'login.submitting' : 'login.submit'} />
          </Button>
        </Form>
        <LanguageChoice className="login__languages" />
      </div>
    </main>
  );
}
