/**
 * What can be done with a listed safe count, on the day's list and in "waiting for
 * countersignature" alike: countersign it (when it may be) and e-mail its receipt. Both open a
 * dialog that needs the network (safe-signatures.ts).
 */
import { FormattedMessage } from 'react-intl';
import { Button } from '../../../ui/button.tsx';
import type { CountersignTarget } from './countersign-dialog.tsx';
import type { MailRequest } from './mail-dialog.tsx';

/** A saved safe count: its server id, site (restaurantId and name) and fiscal date (YYYY-MM-DD). */
export interface ListedSafeCount {
  id: number;
  site: number;
  libelle: string;
  dateFiscale: string;
}

export function SafeCountActions({
  count,
  onCountersign,
  onMail,
}: {
  count: ListedSafeCount;
  /** Opens the countersignature of the count's site and day; without it, no countersign button. */
  onCountersign?: (target: CountersignTarget) => void;
  onMail: (request: MailRequest) => void;
}) {
  const { id, site, libelle, dateFiscale } = count;
  return (
    <span className="counting-list__actions">
      {onCountersign ? (
        <Button onPress={() => onCountersign({ site, libelle, dateFiscale })}>
          <FormattedMessage id="counting.safe.countersign" />
        </Button>
      ) : null}
      <Button onPress={() => onMail({ kind: 'receipt', countId: id, site, libelle, dateFiscale })}>
        <FormattedMessage id="counting.mail.receiptButton" />
      </Button>
    </span>
  );
}
