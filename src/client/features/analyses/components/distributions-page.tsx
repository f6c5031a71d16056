/**
 * /analyses/repartitions: how the sales of the chosen sites and period split across one dimension
 * (GET bo/getRepartition, contract/distributions.ts): a table of the parts (tickets, amount, share)
 * and a horizontal bar chart of the shares. Errors arrive translated through the notification area.
 */
import { type Ref, useState } from 'react';
import { useIntl } from 'react-intl';
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
import { notify } from '../../../lib/notifications.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { HorizontalBarChart } from '../../../ui/bar-chart.tsx';
import { ShowCard, useSelectionResult } from '../../../selection/components/selection-result.tsx';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { buildDistributionParams, distributionBars } from '../distribution.ts';
import '../../../ui/chart-screen.css';

/** The /analyses/repartitions screen: what to split by, the sites and period, then the result. */
export function DistributionsPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const [type, setType] = useState<DistributionType>('PAIEMENT');
  const [status, setStatus] = useState<DistributionStatus>('TOUS');
  const {
    result: answer,
    setResult: setAnswer,
    loading,
    formError,
    resultHeading,
    show,
  } = useSelectionResult<DistributionAnswer>();

  function showDistribution() {
    return show(
      (request) =>
        getJson(
          'bo/getRepartition',
          DistributionAnswerSchema,
          buildDistributionParams({ ...request, type, status, language }),
        ),
      ({ range }) => {
        if (daysInclusive(range.dateDebut, range.dateFin) <= DISTRIBUTION_MAX_DAYS) return true;
        notify.error('MaxReportDays', { maxDays: DISTRIBUTION_MAX_DAYS });
        return false;
      },
    );
  }

  return (
    <div className="gr-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'repartitions.title' })}</h1>
      <DistributionChoiceCard
        type={type}
        status={status}
        onType={(t) => {
          if (t) setType(t);
          setAnswer(null);
        }}
        onStatus={(s) => {
          if (s) setStatus(s);
          setAnswer(null);
        }}
      />
      <SelectionPanel sitesOnly />
      <ShowCard
        label={intl.formatMessage({ id: 'repartitions.show' })}
        loadingLabel={intl.formatMessage({ id: 'repartitions.loading' })}
        formError={formError}
        loading={loading}
        onShow={() => void showDistribution()}
      />
      {answer ? <DistributionResult answer={answer} headingRef={resultHeading} /> : null}
    </div>
  );
}

/**
 * The dimension and the ticket status to split by; `onType` / `onStatus` get the chosen value
 * (undefined for a key that is none of them) and drop the result shown for the former choice.
 */
function DistributionChoiceCard(props: {
  type: DistributionType;
  status: DistributionStatus;
  onType: (type: DistributionType | undefined) => void;
  onStatus: (status: DistributionStatus | undefined) => void;
}) {
  const intl = useIntl();
  return (
    <Card labelledBy="rp-choice-heading">
      <CardTitle id="rp-choice-heading">{intl.formatMessage({ id: 'repartitions.choice' })}</CardTitle>
      <div className="gr-choices">
        <Select
          label={intl.formatMessage({ id: 'repartitions.type' })}
          options={DISTRIBUTION_TYPES.map((t) => ({
            id: t,
            label: intl.formatMessage({ id: `repartitions.type.${t}` }),
          }))}
          value={props.type}
          onChange={(key) => props.onType(DISTRIBUTION_TYPES.find((x) => x === key))}
        />
        <Select
          label={intl.formatMessage({ id: 'repartitions.status' })}
          options={DISTRIBUTION_STATUSES.map((s) => ({
            id: s,
            label: intl.formatMessage({ id: `repartitions.status.${s}` }),
          }))}
          value={props.status}
          onChange={(key) => props.onStatus(DISTRIBUTION_STATUSES.find((x) => x === key))}
        />
      </div>
    </Card>
  );
}

/** The distribution: its title (which `headingRef` focuses), period and total, the chart of the shares and the table. */
function DistributionResult({
  answer,
  headingRef,
}: {
  answer: DistributionAnswer;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const intl = useIntl();
  const [language] = useLanguage();
  const bars = distributionBars(answer);
  const money = (cents: number) => formatMoney(cents, answer.currency, language);
  const percent = (p: number) =>
    formatNumber(p / 100, language, { style: 'percent', maximumFractionDigits: 1 });
  return (
    <Card labelledBy="rp-result-heading">
      <CardTitle id="rp-result-heading" focusRef={headingRef}>
        {intl.formatMessage(
          { id: 'repartitions.resultTitle' },
          {
            type: intl.formatMessage({ id: `repartitions.type.${answer.typeRepartition}` }),
            status: intl.formatMessage({ id: `repartitions.status.${answer.statut}` }),
          },
        )}
      </CardTitle>
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
    </Card>
  );
}
