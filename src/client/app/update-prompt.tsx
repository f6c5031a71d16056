/**
 * "A new version is available — reload": shown while a new service worker waits. Reloading is the
 * user's choice (a form may be open, DESIGN.md §7); "later" hides it until the next version.
 * Plain buttons (styled as ui/Button): the root renders this, so react-aria would otherwise join
 * every screen's first load, the login's included.
 */
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { applyUpdate, dismissUpdate, pwaState } from './service-worker.ts';

export function UpdatePrompt() {
  const { needRefresh, dismissed } = useSnapshot(pwaState);
  if (!needRefresh || dismissed) return null;
  return (
    <section className="update-prompt" role="status" aria-live="polite">
      <p className="update-prompt__text">
        <FormattedMessage id="pwa.updateAvailable" />
      </p>
      <div className="update-prompt__actions">
        <button type="button" className="ui-button ui-button--quiet" onClick={dismissUpdate}>
          <FormattedMessage id="pwa.later" />
        </button>
        <button type="button" className="ui-button ui-button--primary" onClick={applyUpdate}>
          <FormattedMessage id="pwa.reload" />
        </button>
      </div>
    </section>
  );
}
