/**
 * The `previsions` widget (contract/home.ts HomeForecastAnswerSchema): per site, the forecast of
 * datePerso and the 7 days after it, with the actual sales where the day has any, and how
 * reliable the method has measurably been on that site ("±x % on the last n weeks": the WAPE of
 * its backtest, contract/forecast.ts).
 */
import { useIntl } from 'react-intl';
import type { HomeForecastAnswer } from '../../../../contract/home.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Table } from '../../../ui/table.tsx';

type Forecast = HomeForecastAnswer['data'];

function Reliability({ reliability }: { reliability: Forecast['sites'][number]['reliability'] }) {
  const intl = useIntl();
  if (reliability.wape === null || reliability.weeks === 0) {
    return <p className="home-widget__note">{intl.formatMessage({ id: 'home.forecasts.noHistory' })}</p>;
  }
  const wape = formatNumber(reliability.wape, intl.locale, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <p className="home-widget__note">
      {intl.formatMessage({ id: 'home.forecasts.reliability' }, { wape, weeks: reliability.weeks })}
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
      {data.sites.map((site) => (
        <div className="home-part" key={site.restaurantId}>
          <h3>{site.libelle}</h3>
          <Reliability reliability={site.reliability} />
          <Table
            label={intl.formatMessage({ id: 'home.forecasts.table' }, { site: site.libelle })}
            columns={[
              { key: 'date', label: t('home.date'), isRowHeader: true },
              { key: 'forecast', label: t('home.forecast'), align: 'end' },
              { key: 'actual', label: t('home.actual'), align: 'end' },
            ]}
            rows={site.days.map((d) => ({
              id: d.fiscalDate,
              cells: {
                date: formatDate(d.fiscalDate),
                forecast: money(d.forecastCents),
                actual: d.actualCents === null ? '–' : money(d.actualCents),
              },
            }))}
          />
        </div>
      ))}
    </>
  );
}
