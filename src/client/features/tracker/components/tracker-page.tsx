/**
 * /tracker (issue #19): today's sales per site — ranked, against the same weekday a year earlier
 * at the same hour and against the day's forecast — and, for one site, hour by hour. Refreshed
 * every minute while the page is visible (tracker-queries.ts); the time of the last refresh is
 * shown DD/MM/YYYY HH:mm (contract/dates.ts displayInstant).
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { BiTrackerAnswer, BiTrackerSite } from '../../../../contract/bi.ts';
import { displayInstant } from '../../../../contract/dates.ts';
import { formatChange, formatMoneyOrDash } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { session } from '../../../lib/session.ts';
import { GroupPicker, SitePicker } from '../../../selection/components/site-pickers.tsx';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { trackerQueries } from '../tracker-queries.ts';
import './tracker.css';

const CategoryChart = lazy(() =>
  import('../../../ui/bar-chart.tsx').then((m) => ({ default: m.CategoryChart })),
);

type TrackerData = BiTrackerAnswer['data'];

/** An hour of the day as `HH:00` (24-hour, every language: contract/dates.ts). */
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Change from `before` to `now` as a signed percentage, or a dash without a base. */
function change(now: number, before: number | null, language: string): string {
  return formatChange(before === null || before === 0 ? null : (now - before) / before, language);
}

export function TrackerPage() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const scope = useSiteScope();
  const siteIds = [...scope.effective].sort((a, b) => a - b);
  const query = useQuery({
    ...trackerQueries.today({ userId: user?.id ?? 0, siteIds }),
    enabled: Boolean(user) && siteIds.length > 0,
  });
  return (
    <div className="gr-page tracker-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'tracker.title' })}</h1>
      <section className="sel-panel" aria-label={intl.formatMessage({ id: 'tracker.sites' })}>
        <div className="sel-panel__where">
          <GroupPicker />
          <SitePicker />
        </div>
      </section>
      {query.isPending && siteIds.length > 0 ? (
        <ProgressBar label={intl.formatMessage({ id: 'tracker.loading' })} value={null} />
      ) : null}
      {query.isError ? (
        <p role="alert" className="gr-form-error">
          {intl.formatMessage({ id: 'tracker.failed' })}
        </p>
      ) : null}
      {query.data ? <TrackerResult data={query.data} /> : null}
    </div>
  );
}

/** The ranking of the sites, then one site hour by hour. */
function TrackerResult({ data }: { data: TrackerData }) {
  const intl = useIntl();
  const [language] = useLanguage();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const money = (cents: number | null) => formatMoneyOrDash(cents, data.currency, language);
  const refreshed = displayInstant(data.refreshedAt);
  const columns = [
    { key: 'rank', label: t('tracker.column.rank'), align: 'end' as const },
    { key: 'site', label: t('tracker.column.site'), isRowHeader: true },
    { key: 'net', label: t('tracker.column.today'), align: 'end' as const },
    { key: 'lastYear', label: t('tracker.column.lastYearSameTime'), align: 'end' as const },
    { key: 'vsLastYear', label: t('tracker.column.vsLastYear'), align: 'end' as const },
    { key: 'forecast', label: t('tracker.column.forecast'), align: 'end' as const },
    { key: 'vsForecast', label: t('tracker.column.vsForecast'), align: 'end' as const },
  ];
  const rows = data.sites.map((s) => ({
    id: String(s.siteId),
    cells: {
      rank: String(s.rank),
      site: s.libelle,
      net: money(s.netCents),
      lastYear: money(s.lastYearSameTimeCents),
      // Like for like (decision 0028): the hours already over, today and a year earlier.
      // (An offline copy kept by an earlier version has no netSoFarCents: its total, as it compared then.)
      vsLastYear: change(s.netSoFarCents ?? s.netCents, s.lastYearSameTimeCents, language),
      forecast: money(s.forecastCents),
      vsForecast: change(s.netCents, s.forecastCents, language),
    },
  }));
  return (
    <>
      <Card labelledBy="tracker-ranking-title">
        <CardTitle id="tracker-ranking-title">{t('tracker.ranking')}</CardTitle>
        <p className="tracker-refreshed" aria-live="polite">
          {t('tracker.refreshedAt', { date: refreshed.date, time: refreshed.time })}
        </p>
        <ComparedHours sites={data.sites} />
        <Table
          label={t('tracker.ranking')}
          columns={columns}
          rows={rows}
          empty={t('tracker.empty')}
          stackOnNarrow
        />
      </Card>
      {data.sites.length > 0 ? <SiteHours sites={data.sites} money={money} /> : null}
    </>
  );
}

/** Which hours the changes against last year compare: until one hour, or each site's own. */
function ComparedHours({ sites }: { sites: readonly BiTrackerSite[] }) {
  const intl = useIntl();
  const ends = new Set(sites.flatMap((s) => (s.until === null ? [] : [s.until])));
  if (ends.size === 0) return null;
  const text =
    ends.size === 1
      ? intl.formatMessage({ id: 'tracker.comparedUntil' }, { time: [...ends][0] })
      : intl.formatMessage({ id: 'tracker.comparedSameHour' });
  return <p className="tracker-compared">{text}</p>;
}

/** One chosen site's hours with sales today or a year earlier. */
function SiteHours({ sites, money }: { sites: readonly BiTrackerSite[]; money: (cents: number) => string }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [chosen, setChosen] = useState<number>(sites[0]!.siteId);
  const site = sites.find((s) => s.siteId === chosen) ?? sites[0]!;
  const hours = site.hours.filter((h) => h.netCents !== 0 || h.lastYearCents !== 0 || h.tickets !== 0);
  return (
    <Card labelledBy="tracker-hours-title">
      <CardTitle id="tracker-hours-title">{t('tracker.hoursTitle', { site: site.libelle })}</CardTitle>
      <Select
        label={t('tracker.site')}
        options={sites.map((s) => ({ id: s.siteId, label: s.libelle }))}
        value={site.siteId}
        onChange={(v) => setChosen(Number(v))}
      />
      <Table
        label={t('tracker.hoursTitle', { site: site.libelle })}
        columns={[
          { key: 'hour', label: t('tracker.column.hour'), isRowHeader: true },
          { key: 'net', label: t('tracker.column.today'), align: 'end' },
          { key: 'tickets', label: t('tracker.column.tickets'), align: 'end' },
          { key: 'lastYear', label: t('tracker.column.lastYear'), align: 'end' },
        ]}
        rows={hours.map((h) => ({
          id: String(h.hour),
          cells: {
            hour: hourLabel(h.hour),
            net: money(h.netCents),
            tickets: String(h.tickets),
            lastYear: money(h.lastYearCents),
          },
        }))}
        empty={t('tracker.noSales')}
      />
      {hours.length > 0 ? (
        <Suspense fallback={null}>
          <CategoryChart
            title={t('tracker.chartTitle', { site: site.libelle })}
            layout="columns"
            categories={hours.map((h) => ({
              key: String(h.hour),
              label: hourLabel(h.hour),
              values: { today: h.netCents, lastYear: h.lastYearCents },
            }))}
            series={[
              { key: 'today', label: t('tracker.column.today') },
              { key: 'lastYear', label: t('tracker.column.lastYear'), mark: 'line', tone: 'comparison' },
            ]}
            format={money}
          />
        </Suspense>
      ) : null}
    </Card>
  );
}
