/**
 * The `coffre` widget (contract/home.ts HomeSafeAnswerSchema): what the manager must act on —
 * the last safe count per site, the counts waiting for a countersignature (link to sign on
 * /analyses/coffre), the sites whose safe was not counted yesterday (a reminder by e-mail,
 * bo/home/envoieMailManquant, through the dialog the route gives), the terminals not counted
 * yesterday (link to /analyses/comptageCaisses, and per terminal an e-mail reminder —
 * envoieMailManquant with `caisse` — after its confirmation, cash-count-reminder-dialog.tsx;
 * disabled offline) and the day's manager receipts. Each part shows
 * only when the answer has it (the user's rights).
 */
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import type { HomeSafeAnswer } from '../../../../contract/home.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { Button } from '../../../ui/button.tsx';
import type { MissingTerminal } from './cash-count-reminder-dialog.tsx';
import './safe-widget.css';

type Safe = HomeSafeAnswer['data'];

/** Asks for a reminder that the safe of `site` was not counted on `dateFiscale`. */
export type RemindMissingSafeCount = (
  site: { restaurantId: number; libelle: string },
  dateFiscale: string,
) => void;

function SafePart({ data, onRemind }: { data: Safe; onRemind: RemindMissingSafeCount | undefined }) {
  const intl = useIntl();
  const safe = data.safe!;
  const money = (cents: number) => formatMoney(cents, data.currency, intl.locale);
  return (
    <div className="home-part">
      <h3>{intl.formatMessage({ id: 'home.safe.lastCounts' })}</h3>
      <ul className="home-list">
        {safe.lastCounts.map((s) => (
          <li key={s.restaurantId}>
            <strong>{s.libelle}</strong>{' '}
            {s.count
              ? intl.formatMessage(
                  { id: 'home.safe.count' },
                  {
                    date: formatDate(s.count.dateFiscale),
                    counted: money(s.count.countedCents),
                    variance: money(s.count.varianceCents),
                  },
                )
              : intl.formatMessage({ id: 'home.safe.never' })}
          </li>
        ))}
      </ul>
      <p>
        {intl.formatMessage({ id: 'home.safe.awaiting' }, { count: safe.awaitingSignatureCount })}{' '}
        {safe.awaitingSignatureCount > 0 ? (
          <Link to="/analyses/coffre" className="home-link">
            {intl.formatMessage({ id: 'home.safe.sign' })}
          </Link>
        ) : null}
      </p>
      {safe.missingYesterday.length > 0 ? (
        <ul
          className="home-list home-list--warning"
          aria-label={intl.formatMessage({ id: 'home.safe.missing' }, { date: formatDate(data.yesterday) })}
        >
          {safe.missingYesterday.map((s) => (
            <li key={s.restaurantId}>
              {intl.formatMessage(
                { id: 'home.safe.missingSite' },
                { site: s.libelle, date: formatDate(data.yesterday) },
              )}
              {onRemind ? (
                <Button onPress={() => onRemind(s, data.yesterday)}>
                  {intl.formatMessage({ id: 'home.safe.remind' }, { site: s.libelle })}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The dialog of a reminder, loaded when one is first asked for (it carries the counting contract). */
const CashCountReminderDialog = lazy(() =>
  import('./cash-count-reminder-dialog.tsx').then((m) => ({ default: m.CashCountReminderDialog })),
);

/** One site's terminals not counted, each with its reminder button (disabled offline: it needs the network). */
function MissingTerminals(props: {
  site: { restaurantId: number; libelle: string; caisses: number[] };
  online: boolean;
  onRemind: (caisse: number) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { libelle } = props.site;
  return (
    <ul className="home-terminals" aria-label={t('home.cash.terminals', { site: libelle })}>
      {props.site.caisses.map((caisse) => (
        <li key={caisse}>
          <span>{t('home.cash.terminal', { caisse: String(caisse) })}</span>
          <Button
            onPress={() => props.onRemind(caisse)}
            isDisabled={!props.online}
            aria-label={t('home.cash.remindLabel', { caisse: String(caisse), site: libelle })}
          >
            {t('home.cash.remind')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

function CashCountPart({ data }: { data: Safe }) {
  const intl = useIntl();
  const online = useOnline();
  const [reminding, setReminding] = useState<MissingTerminal | null>(null);
  const missing = data.cashCounts!.missingYesterday;
  return (
    <div className="home-part">
      <h3>{intl.formatMessage({ id: 'home.cash.title' }, { date: formatDate(data.yesterday) })}</h3>
      {missing.length === 0 ? (
        <p>{intl.formatMessage({ id: 'home.cash.allCounted' })}</p>
      ) : (
        <>
          <ul className="home-list home-list--warning">
            {missing.map((s) => (
              <li key={s.restaurantId}>
                {intl.formatMessage(
                  { id: 'home.cash.missing' },
                  { site: s.libelle, count: s.caisses.length, caisses: s.caisses.join(', ') },
                )}
                <MissingTerminals
                  site={s}
                  online={online}
                  onRemind={(caisse) =>
                    setReminding({
                      site: s.restaurantId,
                      libelle: s.libelle,
                      caisse,
                      dateFiscale: data.yesterday,
                    })
                  }
                />
              </li>
            ))}
          </ul>
          {online ? null : (
            <p className="home-offline-note" role="status">
              {intl.formatMessage({ id: 'home.cash.remindOffline' })}
            </p>
          )}
          <Link to="/analyses/comptageCaisses" className="home-link">
            {intl.formatMessage({ id: 'home.cash.count' })}
          </Link>
        </>
      )}
      {reminding ? (
        <Suspense fallback={null}>
          <CashCountReminderDialog terminal={reminding} onClose={() => setReminding(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}

function ReceiptPart({ data }: { data: Safe }) {
  const intl = useIntl();
  const r = data.receipts!;
  return (
    <div className="home-part">
      <h3>{intl.formatMessage({ id: 'home.receipts.title' }, { date: formatDate(data.fiscalDate) })}</h3>
      <p>
        {intl.formatMessage(
          { id: 'home.receipts.summary' },
          {
            count: r.count,
            countText: formatNumber(r.count, intl.locale),
            total: formatMoney(r.totalCents, data.currency, intl.locale),
          },
        )}
      </p>
    </div>
  );
}

export function SafeWidget({
  data,
  onRemind,
}: {
  data: Safe;
  onRemind?: RemindMissingSafeCount | undefined;
}) {
  return (
    <>
      {data.safe ? <SafePart data={data} onRemind={onRemind} /> : null}
      {data.cashCounts ? <CashCountPart data={data} /> : null}
      {data.receipts ? <ReceiptPart data={data} /> : null}
    </>
  );
}
