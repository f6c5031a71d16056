/**
 * Start-up step 3 (issue #30): the mail settings checked by a test mail, queued like every mail
 * of the app. Without SMTP_URL it is written to the `.eml` outbox: the step says so and links
 * /config/mails, where it can be opened. The address typed stays when the call is refused.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiFailure } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { ValidatedForm } from '../../../ui/form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { sendTestMail } from '../startup-queries.ts';
import type { StartupStepProps } from './step-props.ts';

/** Loose check before sending: the server's (zod email) is the one that counts. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The panel of the module comment. */
export function MailStep({ state }: StartupStepProps) {
  const intl = useIntl();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [refusal, setRefusal] = useState<object | null>(null);
  const [pending, setPending] = useState(false);

  async function submit() {
    if (pending) return;
    if (!EMAIL_SHAPE.test(email.trim())) {
      setInvalid(true);
      setRefusal({});
      return;
    }
    setPending(true);
    try {
      await sendTestMail(email.trim());
      notify.success('MailEnvoye');
    } catch (e) {
      if (e instanceof ApiFailure && e.code === 'BadRequest') {
        setInvalid(true);
        setRefusal({});
      } else notifyFailure(e);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <p className="ui-muted">
        <FormattedMessage id="startup.mail.text" />
      </p>
      <p role="note" data-testid="startup-mail-mode">
        <FormattedMessage id={state.mail === 'outbox' ? 'startup.mail.outbox' : 'startup.mail.smtp'} />{' '}
        {state.mail === 'outbox' ? (
          <Link to="/config/mails">
            <FormattedMessage id="startup.mail.outboxLink" />
          </Link>
        ) : null}
      </p>
      {state.mailEnvoyeA ? (
        <p role="status">
          <FormattedMessage id="startup.mail.sentTo" values={{ email: state.mailEnvoyeA }} />
        </p>
      ) : null}
      <ValidatedForm className="startup__form" onSubmit={() => void submit()} refusal={refusal}>
        <TextField
          label={intl.formatMessage({ id: 'startup.mail.email' })}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(v) => {
            setEmail(v);
            setInvalid(false);
          }}
          isRequired
          maxLength={254}
          isInvalid={invalid}
          errorMessage={invalid ? intl.formatMessage({ id: 'startup.mail.invalid' }) : undefined}
        />
        <Button type="submit" variant="primary" isDisabled={pending}>
          {intl.formatMessage({ id: 'startup.mail.send' })}
        </Button>
      </ValidatedForm>
    </>
  );
}
