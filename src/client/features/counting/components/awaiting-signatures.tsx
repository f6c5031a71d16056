/**
 * "Waiting for countersignature" on the safe screen (issue #3 point 2, SPEC.md §7
 * fluxfin/declare_et_en_attente_de_signatures): the latest safe count of each site and day of the
 * last {@link AWAITING_DAYS} days up to the chosen fiscal date that no manager has countersigned
 * yet, each with its figures and the actions countersign and e-mail the receipt. Offline, the
 * service worker answers from its last copy (the list is on its allow-list).
 */
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { safeQueries } from '../counting-queries.ts';
import { AWAITING_DAYS, awaitingPeriod } from '../safe-signatures.ts';
import type { CountersignTarget } from './countersign-dialog.tsx';
import { CountedVariance, CountingList } from './counting-shell.tsx';
import type { MailRequest } from './mail-dialog.tsx';
import { SafeCountActions } from './safe-count-actions.tsx';

export function AwaitingSignatures({
  userId,
  dateFin,
  onCountersign,
  onMail,
}: {
  userId: number;
  /** Last fiscal date of the list (YYYY-MM-DD). */
  dateFin: string;
  onCountersign: (target: CountersignTarget) => void;
  onMail: (request: MailRequest) => void;
}) {
  const intl = useIntl();
  const ref = useReferenceData();
  const period = awaitingPeriod(dateFin);
  const query = useQuery(safeQueries.signatures(userId, period.dateDebut, period.dateFin));
  const waiting = (query.data?.data ?? [])
    .filter((c) => c.status === 'EN_ATTENTE')
    .sort((a, b) =>
      a.dateFiscale === b.dateFiscale
        ? a.libelle.localeCompare(b.libelle)
        : a.dateFiscale < b.dateFiscale
          ? 1
          : -1,
    );
  const currencyOf = (site: number) => ref.sites.find((s) => s.restaurantId === site)?.currency ?? 'EUR';
  const money = (cents: number, site: number) => formatMoney(cents, currencyOf(site), intl.locale);

  return (
    <CountingList
      titleId="safe-awaiting-title"
      title="counting.safe.awaitingTitle"
      testId="safe-awaiting"
      before={
        query.isError ? (
          <p>
            <FormattedMessage id="counting.safe.awaitingUnavailable" />
          </p>
        ) : query.isSuccess && waiting.length === 0 ? (
          <p>
            <FormattedMessage id="counting.safe.awaitingNone" values={{ days: AWAITING_DAYS }} />
          </p>
        ) : null
      }
    >
      {waiting.map((c) => (
        <li key={c.id} className="counting-list__item" data-testid="safe-awaiting-item">
          <span>
            <FormattedMessage
              id="counting.safe.awaitingItem"
              values={{ site: c.libelle, date: formatDate(c.dateFiscale), version: c.version }}
            />
          </span>
          <CountedVariance
            counted={money(c.countedCents, c.site)}
            variance={money(c.varianceCents, c.site)}
          />
          <span className="counting-list__time">{c.countedBy.login}</span>
          <SafeCountActions count={c} onCountersign={onCountersign} onMail={onMail} />
        </li>
      ))}
    </CountingList>
  );
}
