/**
 * /anomalies (issue #19, right RAPPORTS_ANOMALIES): the sellers and terminals of the chosen sites
 * whose cancellations, corrections, discounts or cash variances stand out against their peers
 * and their own previous 8 weeks (GET bo/bi/anomalies, decision 0019), most severe first, each
 * explained in a sentence with a link to its tickets. Errors arrive translated through the
 * notification area.
 */
import { Link } from '@tanstack/react-router';
import { type Ref, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  ANOMALY_MAX_DAYS,
  ANOMALY_THRESHOLD,
  type Anomaly,
  type AnomalyAnswer,
  AnomalyAnswerSchema,
  HISTORY_WEEKS,
} from '../../../../contract/anomalies.ts';
import { daysInclusive } from '../../../../contract/dates.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { getJson } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notifications.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ShowCard, useSelectionResult } from '../../../selection/components/selection-result.tsx';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import {
  applyAnomalyLink,
  buildAnomalyParams,
  defaultAnomalyPeriod,
  explanationValues,
  isSingleDay,
  ticketLinkSearch,
} from '../anomalies.ts';
import '../../../ui/chart-screen.css';
import './anomalies.css';

/**
 * The /anomalies screen: sites and period, then the flagged entities. Shows once on arrival;
 * `link` (the URL's `site`, `dateDebut`, `dateFin`) chooses the site and period first.
 */
export function AnomaliesPage({ link = {} }: { link?: Record<string, unknown> }) {
  const intl = useIntl();
  const [linked] = useState(() => applyAnomalyLink(link));
  const { result: answer, loading, formError, resultHeading, show } = useSelectionResult<AnomalyAnswer>();

  function showAnomalies(options: { focusResult?: boolean } = {}) {
    return show(
      (request) => getJson('bo/bi/anomalies', AnomalyAnswerSchema, buildAnomalyParams(request)),
      ({ range }) => {
        if (daysInclusive(range.dateDebut, range.dateFin) <= ANOMALY_MAX_DAYS) return true;
        notify.error('MaxReportDays', { maxDays: ANOMALY_MAX_DAYS });
        return false;
      },
      options,
    );
  }

  useEffect(() => {
    // One day says nothing about rates: start from 4 weeks unless the user chose a longer period.
    if (!linked && isSingleDay(selection.period)) selection.period = defaultAnomalyPeriod();
  }, [linked]);
  // Shown once on arrival, as soon as the user's sites are known (before, there is nothing to ask).
  const scope = useSiteScope();
  const shownOnArrival = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the sites are known
  useEffect(() => {
    if (shownOnArrival.current || scope.isLoading || scope.effective.length === 0) return;
    shownOnArrival.current = true;
    void showAnomalies({ focusResult: false });
  }, [scope.isLoading, scope.effective.length]);

  return (
    <div className="gr-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'anomalies.title' })}</h1>
      <p className="gr-muted">
        {intl.formatMessage(
          { id: 'anomalies.intro' },
          { weeks: HISTORY_WEEKS, threshold: formatNumber(ANOMALY_THRESHOLD, intl.locale) },
        )}
      </p>
      <SelectionPanel sitesOnly />
      <ShowCard
        label={intl.formatMessage({ id: 'anomalies.show' })}
        loadingLabel={intl.formatMessage({ id: 'anomalies.loading' })}
        formError={formError}
        loading={loading}
        onShow={() => void showAnomalies()}
      />
      {answer ? <AnomalyResult answer={answer} headingRef={resultHeading} /> : null}
    </div>
  );
}

/** The flagged entities of `answer`, most severe first; `headingRef` is focused when it appears. */
function AnomalyResult({
  answer,
  headingRef,
}: {
  answer: AnomalyAnswer;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const intl = useIntl();
  return (
    <Card labelledBy="an-result-heading">
      <CardTitle id="an-result-heading" focusRef={headingRef}>
        {intl.formatMessage(
          { id: 'anomalies.resultTitle' },
          {
            count: answer.anomalies.length,
            start: formatDate(answer.dateDebut),
            end: formatDate(answer.dateFin),
          },
        )}
      </CardTitle>
      <p className="gr-muted">
        {intl.formatMessage(
          { id: 'anomalies.historyCaption' },
          { start: formatDate(answer.historyDebut), end: formatDate(answer.historyFin) },
        )}
      </p>
      {answer.anomalies.length === 0 ? (
        <p>{intl.formatMessage({ id: 'anomalies.empty' })}</p>
      ) : (
        <ol className="an-list">
          {answer.anomalies.map((a) => (
            <AnomalyItem key={`${a.siteId}|${a.kind}|${a.key}|${a.measure}`} anomaly={a} answer={answer} />
          ))}
        </ol>
      )}
    </Card>
  );
}

/** One flagged entity: who, what, the sentence that explains it, its scores and its tickets. */
function AnomalyItem({ anomaly: a, answer }: { anomaly: Anomaly; answer: AnomalyAnswer }) {
  const intl = useIntl();
  const [language] = useLanguage();
  const decimal = (n: number) =>
    formatNumber(n, language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const peers = intl.formatMessage({ id: `anomalies.peers.${a.kind}.${a.peerScope}` });
  const headingId = `an-${a.siteId}-${a.kind}-${a.key}-${a.measure}`.replace(/[^\w-]/g, '_');
  return (
    <li className="an-item" aria-labelledby={headingId}>
      <h3 className="an-item__title" id={headingId}>
        {intl.formatMessage(
          { id: 'anomalies.itemTitle' },
          {
            name: a.name,
            kind: intl.formatMessage({ id: `anomalies.kind.${a.kind}` }),
            site: a.site,
            measure: intl.formatMessage({ id: `anomalies.measure.${a.measure}` }),
          },
        )}
      </h3>
      <p className="an-item__explain">
        {intl.formatMessage(
          { id: `anomalies.explain.${a.measure}` },
          { ...explanationValues(a, language), peers, weeks: HISTORY_WEEKS },
        )}
      </p>
      <p className="gr-muted">
        {intl.formatMessage(
          { id: a.measure === 'cashVariance' ? 'anomalies.scoresCounts' : 'anomalies.scores' },
          { zPeer: decimal(a.zPeer), zHistory: decimal(a.zHistory), count: a.tickets },
        )}
      </p>
      <Link
        className="an-link"
        to="/tickets"
        search={ticketLinkSearch(a, { dateDebut: answer.dateDebut, dateFin: answer.dateFin })}
      >
        {intl.formatMessage({ id: 'anomalies.drillDown' }, { name: a.name })}
      </Link>
    </li>
  );
}
