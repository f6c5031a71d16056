import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { AppMark } from '../app/app-mark.tsx';
import { LanguageChoice } from '../app/language-choice.tsx';
import { ResetPasswordPage } from '../features/password-reset/components/reset-password-page.tsx';
import { optionalString } from '../lib/route-params.ts';

/**
 * The query of a reset link (account/password-reset.ts builds it). Read without zod: route
 * options stay in the start-up bundle (lib/route-params.ts).
 */
function resetSearch(search: Record<string, unknown>): {
  email?: string | undefined;
  key?: string | undefined;
} {
  return { email: optionalString(search, 'email'), key: optionalString(search, 'key') };
}

/**
 * `/reinit/changePassword` (SPEC.md §2), public: the reset link's form, or the forgotten-password
 * form without a link; in the login's card, with its language choice.
 */
export const Route = createFileRoute('/reinit/changePassword')({
  validateSearch: resetSearch,
  component: ChangePassword,
});

function ChangePassword() {
  const { email, key } = Route.useSearch();
  const navigate = useNavigate();
  return (
    <main className="login" id="main">
      <div className="login__card">
        <div className="login__brand">
          <AppMark className="login__mark" />
          <span className="login__name">
            <FormattedMessage id="app.name" />
          </span>
        </div>
        <ResetPasswordPage
          email={email}
          resetKey={key}
          onPasswordSet={() => navigate({ to: '/', replace: true })}
        />
        <LanguageChoice className="login__languages" />
      </div>
    </main>
  );
}
