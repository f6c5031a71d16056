/**
 * SPEC.md §9's limit on loading a screen's code (issue #20 item 23): each screen's code is a
 * chunk loaded on the way to it (TanStack Router, autoCodeSplitting). While it loads the screen
 * shows a progress bar; a chunk that has not arrived after {@link screenLoadLimitMs} becomes a
 * message in the user's language with a retry, in place of the screen only — the header and its
 * navigation stay, so the rest of the app keeps working. A chunk that fails is the router's
 * error component's business (route-error.tsx), with the same message.
 */
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/** SPEC.md §9: a screen's code may take up to 120 seconds to arrive. */
export const SCREEN_LOAD_LIMIT_MS = 120_000;

/**
 * The limit in milliseconds: {@link SCREEN_LOAD_LIMIT_MS}, unless the page set
 * `globalThis.__COMPTOIR_SCREEN_LOAD_LIMIT_MS__` to a positive number (the e2e tests do, rather
 * than waiting two minutes).
 */
export function screenLoadLimitMs(): number {
  const override: unknown = (globalThis as { __COMPTOIR_SCREEN_LOAD_LIMIT_MS__?: unknown })
    .__COMPTOIR_SCREEN_LOAD_LIMIT_MS__;
  return typeof override === 'number' && override > 0 ? override : SCREEN_LOAD_LIMIT_MS;
}

/**
 * True for the error of a screen's code that could not be fetched (the browsers' messages for a
 * failed dynamic import), as opposed to a screen that failed while drawing.
 */
export function isScreenLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(message);
}

/**
 * The screen's code could not be loaded: what to say and the retry. A retry loads the page again
 * at the same address: a dynamic import the browser saw fail or hang is not fetched again by
 * asking for it twice.
 */
export function ScreenLoadFailed({ reason }: { reason: 'timeout' | 'failed' }) {
  return (
    <section className="screen-load" role="alert" aria-labelledby="screen-load-title">
      <h1 id="screen-load-title" className="screen-load__title">
        <FormattedMessage id="app.screenLoad.title" />
      </h1>
      <p>
        <FormattedMessage id={`app.screenLoad.${reason}`} />
      </p>
      <button type="button" className="ui-button ui-button--primary" onClick={() => window.location.reload()}>
        <FormattedMessage id="app.screenLoad.retry" />
      </button>
    </section>
  );
}

/** The router's pending component: a progress bar, then {@link ScreenLoadFailed} past the limit. */
export function ScreenPending() {
  const intl = useIntl();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), screenLoadLimitMs());
    return () => clearTimeout(timer);
  }, []);
  if (late) return <ScreenLoadFailed reason="timeout" />;
  // The indeterminate bar of ui/progress-bar.tsx, drawn with the same classes and ARIA as
  // react-aria's ProgressBar renders it, but without it: this component is in every screen's
  // first load (the login's included), where react-aria's ProgressBar would cost ~5.6 kB gzip of
  // the login route's 150 kB budget (bench/bundle.ts).
  const label = intl.formatMessage({ id: 'app.screenLoad.loading' });
  return (
    <div className="screen-load">
      <div className="ui-progress" role="progressbar" aria-label={label}>
        <div className="ui-progress__header">
          <span className="ui-progress__label">{label}</span>
        </div>
        <div className="ui-progress__track">
          <div className="ui-progress__fill ui-progress__fill--indeterminate" />
        </div>
      </div>
    </div>
  );
}
