/**
 * What a screen shows when it fails to render or its code cannot be loaded (e.g. offline, a chunk
 * from an older version): a translated message and a reload, instead of the router's English
 * default; code that could not be fetched says so (screen-load.tsx). The error itself goes to the
 * console, never to the screen.
 */
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { isScreenLoadError, ScreenLoadFailed } from './screen-load.tsx';

export function RouteError({ error }: ErrorComponentProps) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  // The screen's code did not arrive: say so, the header and its navigation stay usable.
  if (isScreenLoadError(error)) return <ScreenLoadFailed reason="failed" />;
  return (
    <main className="not-found" id="main">
      <h1 className="not-found__title">
        <FormattedMessage id="app.errorTitle" />
      </h1>
      <p>
        <FormattedMessage id="app.unexpectedError" />
      </p>
      <button type="button" className="ui-button ui-button--primary" onClick={() => window.location.reload()}>
        <FormattedMessage id="app.reloadPage" />
      </button>
    </main>
  );
}
