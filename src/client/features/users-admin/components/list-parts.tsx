/** Parts shared by the two lists of this feature: a failed load with its retry, and cells that read as cards on a phone. */
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Button } from '../../../ui/button.tsx';

/** A list that could not be read, with a retry. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const intl = useIntl();
  return (
    <div className="ua-refusal" role="alert">
      <p>{intl.formatMessage({ id: 'usersAdmin.loadFailed' })}</p>
      <Button onPress={onRetry}>{intl.formatMessage({ id: 'usersAdmin.retry' })}</Button>
    </div>
  );
}

/**
 * A cell's content with its column name, shown (and read) only where rows read as cards on a
 * phone: there a screen reader may no longer announce the column header, so the cell says it.
 */
export function labelled(label: string, content: ReactNode): ReactNode {
  return (
    <>
      <span className="ua-cell-label">{label}</span>
      {content}
    </>
  );
}
