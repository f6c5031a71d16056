/** The not-found screen (SPEC.md §2 "any other path"), with a way back. */
import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';

export function NotFound() {
  return (
    <main className="not-found" id="main">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 className="not-found__title">
        <FormattedMessage id="notFound.title" />
      </h1>
      <p>
        <FormattedMessage id="notFound.text" />
      </p>
      <Link to="/" className="ui-button ui-button--primary">
        <FormattedMessage id="notFound.back" />
      </Link>
    </main>
  );
}
