/**
 * The `previsions` widget (contract/home.ts HomeForecastAnswerSchema): per site, the forecast of
 * datePerso and the 7 days after it with its 80 % range ("between 2 900 € and 3 600 €"), the
 * actual sales where the day has any, and how reliable the method has measurably been on that
 * site: the WAPE of its backtest, said with the horizon it was measured over (1–7 days ahead) and
 * on how many weeks (contract/forecast.ts, issue #31). A site with fewer than
 * MIN_RELIABLE_WEEKS measured weeks says its history is too short instead of showing figures.
 * An answer saved offline before issue #31 has no range: the widget then shows what it had.
 */
import { useIntl } from 'react-intl';
import { MIN_RELIABLE_WEEKS } from '../../../../contract/forecast.ts';
import type { HomeForecastAnswer } from '../../../../contract/home.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Table } from '../../../ui/table.tsx';

type Forecast = HomeForecastAnswer['data'];
type SiteReliability = Forecast['sites'][number]['reliability'];

/** True when the site's backtest measured too few weeks for its figures to be shown. */
function tooLittleHistory(reliability: SiteReliability): boolean {
  return reliability.wape === null || reliability.weeks < MIN_RELIABLE_WEEKS;
}

function Reliability({ reliability }: { reliability: SiteReliability }) {
  const intl = useIntl();
  if (tooLittleHistory(reliability)) {
    const id =
      reliability.horizonDays === undefined ? 'home.forecasts.noHistory' : 'home.forecasts.tooLittleHistory';
    return <p className="home-widget__note">{intl.formatMessage({ id }, { weeks: reliability.weeks })}</p>;
  }
  const wape = formatNumber(reliability.wape ?? 0, intl.locale, {
    style: 'percent',
    maximumFractionDigits: 0,
  });
  const id =
    reliability.horizonDays === undefined
      ? 'home.forecasts.reliability'
      : 'home.forecasts.reliabilityHorizon';
  return (
    <p className="home-widget__note">
      {intl.formatMessage({ id }, { wape, weeks: reliability.weeks, days: reliability.horizonDays })}
    </p>
  );
}

export function ForecastWidget({ data }: { data: Forecast }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const money = (cents: number) => formatMoney(cents, data.currency, intl.locale);
  if (data.sites.length === 0) return <p>{t('home.forecasts.none')}</p>;
  return (
    <>
      {data.sites.map((site) => {
        const hidden = tooLittleHistory(site.reliability);
        const withRange = !hidden && site.days.some((d) => d.lowCents !== undefined);
        return (
          <div className="home-part" key={site.restaurantId}>
            <h3>{site.libelle}</h3>
            <Reliability reliability={site.reliability} />
            <Table
              label={intl.formatMessage({ id: 'home.forecasts.table' }, { site: site.libelle })}
              columns={[
                { key: 'date', label: t('home.date'), isRowHeader: true },
                { key: 'forecast', label: t('home.forecast'), align: 'end' },
                ...(withRange
                  ? [{ key: 'range', label: t('home.forecasts.rangeColumn'), align: 'end' as const }]
                  : []),
                { key: 'actual', label: t('home.actual'), align: 'end' },
              ]}
              rows={site.days.map((d) => ({
                id: d.fiscalDate,
                cells: {
                  date: formatDate(d.fiscalDate),
                  forecast:
                    hidden && site.reliability.horizonDays !== undefined ? '–' : money(d.forecastCents),
                  ...(withRange
                    ? {
                        range:
                          d.lowCents === undefined || d.highCents === undefined
                            ? '–'
                            : intl.formatMessage(
                                { id: 'home.forecasts.range' },
                                { low: money(d.lowCents), high: money(d.highCents) },
                              ),
                      }
                    : {}),
                  actual: d.actualCents === null ? '–' : money(d.actualCents),
                },
              }))}
            />
          </div>
        );
      })}
    </>
  );
}
