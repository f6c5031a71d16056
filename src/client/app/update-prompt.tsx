/**
 * "A new version is available — reload": shown while a new service worker waits. Reloading is the
 * user's choice (a form may be open, DESIGN.md §7); "later" hides it until the next version.
 */
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { Button } from '../ui/button.tsx';
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
        <Button variant="quiet" onPress={dismissUpdate}>
          <FormattedMessage id="pwa.later" />
        </Button>
        <Button variant="primary" onPress={applyUpdate}>
          <FormattedMessage id="pwa.reload" />
        </Button>
      </div>
    </section>
  );
}
