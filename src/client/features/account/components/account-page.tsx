/**
 * `/account` (SPEC.md §2 "My account and password change"): my details (e-mail, language, theme
 * colour) and my password, each in its card with its own save. The details load from
 * bo/infra/getUtilisateur; while they do, the password card is already usable.
 */
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { ApiFailure } from '../../../lib/http.ts';
import { session } from '../../../lib/session.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { accountQueries } from '../account-queries.ts';
import { AccountPasswordForm } from './account-password-form.tsx';
import { AccountProfileForm } from './account-profile-form.tsx';
import '../account.css';

/** The page of the module comment, for the signed-in user. */
export function AccountPage() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const mine = useQuery({ ...accountQueries.mine(user?.login ?? ''), enabled: user !== null });
  if (!user) return null;
  const failure = mine.error instanceof ApiFailure ? mine.error.code : mine.error ? 'InternalError' : null;
  return (
    <div className="account-page">
      <h1 className="account-title">{intl.formatMessage({ id: 'account.title' })}</h1>
      <Card labelledBy="account-details-title">
        <CardTitle id="account-details-title">{intl.formatMessage({ id: 'account.details' })}</CardTitle>
        {mine.data ? (
          <AccountProfileForm key={mine.data.id} user={mine.data} />
        ) : failure ? (
          <p role="alert" className="account-page__failure">
            {intl.formatMessage({
              id: intl.messages[`error.${failure}`] ? `error.${failure}` : 'app.unexpectedError',
            })}
          </p>
        ) : (
          <p className="account-page__loading">{intl.formatMessage({ id: 'account.loading' })}</p>
        )}
      </Card>
      <Card labelledBy="account-password-title">
        <CardTitle id="account-password-title">{intl.formatMessage({ id: 'account.password' })}</CardTitle>
        <AccountPasswordForm user={{ id: user.id, login: user.login }} />
      </Card>
    </div>
  );
}
