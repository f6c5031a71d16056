/**
 * /analyses/repartitions: how the sales of the chosen sites and period split across one dimension
 * (GET bo/getRepartition, contract/distributions.ts): a table of the parts (tickets, amount, share)
 * and a horizontal bar chart of the shares. Errors arrive translated through the notification area.
 */
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import {
  DISTRIBUTION_MAX_DAYS,
  DISTRIBUTION_STATUSES,
  DISTRIBUTION_TYPES,
  type DistributionAnswer,
  DistributionAnswerSchema,
  type DistributionStatus,
  type DistributionType,
} from '../../../../contract/distributions.ts';
import { daysInclusive } from '../../../../contract/dates.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { getJson } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { HorizontalBarChart } from '../../graphs/components/bar-chart.tsx';
import { PeriodPicker } from '../../selection/components/period-picker.tsx';
import { GroupPicker, SitePicker } from '../../selection/components/site-pickers.tsx';
import { resolvePeriodChoice } from '../../selection/period.ts';
import { selection } from '../../selection/selection-state.ts';
import { useSiteScope } from '../../selection/use-reference-data.ts';
import { buildDistributionParams, distributionBars } from '../distribution.ts';
import '../../graphs/components/graphs.css';

export function DistributionsPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const { user } = useSnapshot(session);
  useSnapshot(selection);
  const scope = useSiteScope();
  const [type, setType] = useState<DistributionType>('PAIEMENT');
  const [status, setStatus] = useState<DistributionStatus>('TOUS');
  const [answer, setAnswer] = useState<DistributionAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (answer) resultHeading.current?.focus();
  }, [answer]);

  async function show() {
    setFormError(null);
    const period = resolvePeriodChoice(selection.period);
    if (!period.ok) {
      setFormError(intl.formatMessage({ id: 'reports.fixPeriod' }));
      return;
    }
    if (!user) return;
    if (scope.effective.length === 0) {
      notify.error('NoSitesSelected');
      return;
    }
    if (daysInclusive(period.range.dateDebut, period.range.dateFin) > DISTRIBUTION_MAX_DAYS) {
      notify.error('MaxReportDays', { maxDays: DISTRIBUTION_MAX_DAYS });
      return;
    }
    setLoading(true);
    try {
      const params = buildDistributionParams({
        userId: user.id,
        type,
        status,
        siteIds: scope.effective,
        range: period.range,
        language,
      });
      setAnswer(await getJson('bo/getRepartition', DistributionAnswerSchema, params));
    } catch (e) {
      setAnswer(null);
      notifyFailure(e);
    } finally {
      setLoading(false);
    }
  }

  const bars = answer ? distributionBars(answer) : [];
  const money = (cents: number) => formatMoney(cents, answer?.currency ?? 'EUR', language);
  const percent = (p: number) =>
    formatNumber(p / 100, language, { style: 'percent', maximumFractionDigits: 1 });

  return (
    <div className="gr-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'repartitions.title' })}</h1>
      <section className="gr-card" aria-labelledby="rp-choice-heading">
        <h2 id="rp-choice-heading" className="gr-card__title">
          {intl.formatMessage({ id: 'repartitions.choice' })}
        </h2>
        <div className="gr-choices">
          <Select
            label={intl.formatMessage({ id: 'repartitions.type' })}
            options={DISTRIBUTION_TYPES.map((t) => ({
              id: t,
              label: intl.formatMessage({ id: `repartitions.type.${t}` }),
            }))}
            value={type}
            onChange={(key) => {
              const t = DISTRIBUTION_TYPES.find((x) => x === key);
              if (t) setType(t);
              setAnswer(null);
            }}
          />
          <Select
            label={intl.formatMessage({ id: 'repartitions.status' })}
            options={DISTRIBUTION_STATUSES.map((s) => ({
              id: s,
              label: intl.formatMessage({ id: `repartitions.status.${s}` }),
            }))}
            value={status}
            onChange={(key) => {
              const s = DISTRIBUTION_STATUSES.find((x) => x === key);
              if (s) setStatus(s);
              setAnswer(null);
            }}
          />
        </div>
      </section>
      <section className="sel-panel" aria-label={intl.formatMessage({ id: 'selection.title' })}>
        <div className="sel-panel__where">
          <GroupPicker />
          <SitePicker />
        </div>
        <PeriodPicker showHours={false} />
      </section>
      <section className="gr-card" aria-label={intl.formatMessage({ id: 'repartitions.show' })}>
        {formError ? (
          <p className="gr-form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="gr-buttons">
          <Button variant="primary" onPress={() => void show()} isDisabled={loading}>
            {intl.formatMessage({ id: 'repartitions.show' })}
          </Button>
        </div>
        {loading ? (
          <ProgressBar label={intl.formatMessage({ id: 'repartitions.loading' })} value={null} />
        ) : null}
      </section>
      {answer ? (
        <section className="gr-card" aria-labelledby="rp-result-heading">
          <h2 id="rp-result-heading" className="gr-card__title" tabIndex={-1} ref={resultHeading}>
            {intl.formatMessage(
              { id: 'repartitions.resultTitle' },
              {
                type: intl.formatMessage({ id: `repartitions.type.${answer.typeRepartition}` }),
                status: intl.formatMessage({ id: `repartitions.status.${answer.statut}` }),
              },
            )}
          </h2>
          <p className="gr-muted">
            {intl.formatMessage(
              { id: 'repartitions.caption' },
              {
                start: formatDate(answer.dateDebut),
                end: formatDate(answer.dateFin),
                total: money(answer.totalCents),
              },
            )}
          </p>
          {bars.length > 0 ? (
            <HorizontalBarChart
              title={intl.formatMessage({ id: 'repartitions.chartTitle' })}
              bars={bars.map((b) => ({ key: b.key, label: b.label, value: b.sharePercent }))}
              format={percent}
            />
          ) : null}
          <Table
            className="gr-table"
            label={intl.formatMessage({ id: 'repartitions.tableLabel' })}
            columns={[
              {
                key: 'label',
                label: intl.formatMessage({ id: 'repartitions.col.label' }),
                isRowHeader: true,
              },
              { key: 'tickets', label: intl.formatMessage({ id: 'repartitions.col.tickets' }), align: 'end' },
              { key: 'amount', label: intl.formatMessage({ id: 'repartitions.col.amount' }), align: 'end' },
              { key: 'share', label: intl.formatMessage({ id: 'repartitions.col.share' }), align: 'end' },
            ]}
            rows={bars.map((b) => ({
              id: b.key === '' ? '(none)' : b.key,
              cells: {
                label: b.label,
                tickets: formatNumber(b.tickets, language),
                amount: money(b.amountCents),
                share: percent(b.sharePercent),
              },
            }))}
            empty={intl.formatMessage({ id: 'repartitions.empty' })}
          />
        </section>
      ) : null}
    </div>
  );
}
