/**
 * "Send this by e-mail regularly" on /rapports (issue #28): opens the subscription form filled
 * with the report chosen on the page and its selection (sites, group, terminals, sellers, the
 * period when it is a code), so a manager subscribes to what they are looking at.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { PeriodCode } from '../../../../contract/periods.ts';
import type { SubscriptionFormat } from '../../../../contract/subscriptions.ts';
import { selection } from '../../../selection/selection-state.ts';
import { Button } from '../../../ui/button.tsx';
import { SUBSCRIPTION_PERIODS, SubscriptionDialog, type SubscriptionDraft } from './subscription-dialog.tsx';

/** The report the page shows, as its slot receives it (reports-page.tsx ResolvedReport). */
export interface ChosenReport {
  className: string;
  localisedTitle: string;
  typeRapport: 'Daily' | 'Graph' | 'Cumulative';
  format: SubscriptionFormat;
}

/** The button and its dialog; disabled until a report is chosen. */
export function SubscribeFromReport({ chosen }: { chosen: ChosenReport | null }) {
  const intl = useIntl();
  const snap = useSnapshot(selection);
  const [draft, setDraft] = useState<SubscriptionDraft | null>(null);
  function open() {
    if (!chosen) return;
    const code = snap.period.kind === 'code' ? (snap.period.code as PeriodCode) : 'D-1';
    const periode = SUBSCRIPTION_PERIODS.includes(code) ? code : 'D-1';
    setDraft({
      kind: 'new',
      libelle: chosen.localisedTitle,
      formats: [chosen.format],
      rapport: {
        rapportClassName: chosen.className,
        typeRapport: chosen.typeRapport,
        lSites: [...snap.restaurantIds],
        groupements: snap.groupId === null ? [] : [snap.groupId],
        tpv: [...new Set(snap.terminals.map((k) => Number(k.split(':')[1])))].filter((n) =>
          Number.isInteger(n),
        ),
        vendeurs: [...new Set(snap.sellers.map((k) => k.split(':').slice(1).join(':')))],
        periode,
      },
    });
  }
  return (
    <div className="subs-from-report">
      <Link to="/abonnements" className="subs-link">
        {intl.formatMessage({ id: 'subscriptions.mine' })}
      </Link>
      <Button isDisabled={!chosen} onPress={open}>
        {intl.formatMessage({ id: 'subscriptions.fromReport' })}
      </Button>
      <SubscriptionDialog draft={draft} onClose={() => setDraft(null)} />
    </div>
  );
}
