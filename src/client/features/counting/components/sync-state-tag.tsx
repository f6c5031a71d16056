/** Where a local record stands: waiting to be sent, or refused (with the translated reason). */
import { FormattedMessage, useIntl } from 'react-intl';
import type { LocalSyncState } from '../../../lib/outbox/page-outbox.ts';

export function SyncStateTag({ state, reason }: { state: LocalSyncState; reason: string | null }) {
  const intl = useIntl();
  if (state === 'needsAttention') {
    const id = `error.${reason ?? 'InternalError'}`;
    return (
      <span className="counting-tag counting-tag--attention" data-sync-state={state}>
        <FormattedMessage id="counting.state.needsAttention" />
        {' — '}
        {intl.messages[id] ? intl.formatMessage({ id }) : reason}
      </span>
    );
  }
  return (
    <span className={`counting-tag counting-tag--${state}`} data-sync-state={state}>
      <FormattedMessage id={`counting.state.${state}`} />
    </span>
  );
}
