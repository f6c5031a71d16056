/**
 * The `ventes` widget (contract/home.ts HomeSalesAnswerSchema): datePerso's sales so far with its
 * forecast and the same weekday a year earlier — while the day is under way, up to the same hour
 * with the change in %, then the whole of that day as the day's target (decision 0028); for a
 * past day, the whole days with the change —, tickets, average ticket and covers, yesterday's
 * total, and a table by day part whose bars are drawn with CSS inside the table — no chart
 * library to load, nothing focusable hidden from assistive technology, and the figures read as
 * a table by screen readers (the bars are decoration, `aria-hidden`).
 */
import { useIntl } from 'react-intl';
import type { HomeSalesAnswer } from '../../../../contract/home.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { Table } from '../../../ui/table.tsx';

type Sales = HomeSalesAnswer['data'];

/** `(now − before) / before` as a fraction (0.12 = +12 %), or null when `before` is 0. */
export function changeRatio(now: number, before: number): number | null {
  return before === 0 ? null : (now - before) / before;
}

function Figure({ label, value, main }: { label: string; value: string; main?: boolean }) {
  return (
    <div className={main ? 'home-figure home-figure--main' : 'home-figure'}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * Last year's line(s): up to the same hour with the change of today so far, then the whole day
 * without one, while the day is under way (`soFar`); the whole day with the change otherwise.
 */
function LastYearFigures({ sales }: { sales: Sales }) {
  const intl = useIntl();
  const money = (cents: number) => formatMoney(cents, sales.currency, intl.locale);
  const percent = (r: number) => formatNumber(r, intl.locale, { style: 'percent', signDisplay: 'always' });
  const withChange = (now: number, before: number) => {
    const change = changeRatio(now, before);
    return `${money(before)}${change === null ? '' : ` (${percent(change)})`}`;
  };
  const date = formatDate(sales.lastYear.fiscalDate);
  const wholeLabel = intl.formatMessage({ id: 'home.lastYear' }, { date });
  // Null too for an offline copy kept by an earlier version of the app (the schema's default): the whole days, as then.
  const { soFar } = sales;
  if (soFar === null) {
    return (
      <Figure label={wholeLabel} value={withChange(sales.days.at(-1)!.netSales, sales.lastYear.netSales)} />
    );
  }
  const soFarLabel =
    soFar.until === null
      ? intl.formatMessage({ id: 'home.lastYearSameHour' }, { date })
      : intl.formatMessage({ id: 'home.lastYearSoFar' }, { date, time: soFar.until });
  return (
    <>
      <Figure label={soFarLabel} value={withChange(soFar.today.netSales, soFar.lastYear.netSales)} />
      <Figure label={wholeLabel} value={money(sales.lastYear.netSales)} />
    </>
  );
}

function SalesFigures({ sales }: { sales: Sales }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const money = (cents: number) => formatMoney(cents, sales.currency, intl.locale);
  const today = sales.days.at(-1)!;
  const yesterday = sales.days.at(-2);
  return (
    <dl className="home-figures">
      <Figure
        main
        label={`${t('home.today')} ${formatDate(today.fiscalDate)}`}
        value={money(today.netSales)}
      />
      {/* Last year's lines side by side on the row under today's figure, the forecast after them. */}
      <LastYearFigures sales={sales} />
      <Figure
        label={t('home.forecast')}
        value={sales.forecastCents === null ? t('home.noForecast') : money(sales.forecastCents)}
      />
      <Figure label={t('home.tickets')} value={formatNumber(today.tickets, intl.locale)} />
      <Figure label={t('home.averageTicket')} value={money(today.averageTicket)} />
      <Figure label={t('home.covers')} value={formatNumber(today.covers, intl.locale)} />
      {yesterday ? (
        <Figure
          label={`${t('home.yesterday')} ${formatDate(yesterday.fiscalDate)}`}
          value={money(yesterday.netSales)}
        />
      ) : null}
    </dl>
  );
}

/** An amount with a bar as long as its share of `max` (decoration: the amount is the content). */
function BarCell({ cents, max, text, kind }: { cents: number; max: number; text: string; kind: string }) {
  const share = max > 0 ? Math.max(0, cents) / max : 0;
  return (
    <span className="home-bar-cell">
      <span
        className={`home-bar home-bar--${kind}`}
        aria-hidden="true"
        style={{ inlineSize: `${share * 100}%` }}
      />
      <span className="home-bar-cell__text">{text}</span>
    </span>
  );
}

function DayPartTable({ sales }: { sales: Sales }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const money = (cents: number) => formatMoney(cents, sales.currency, intl.locale);
  const max = Math.max(
    ...sales.dayParts.flatMap((p) => [p.netSales, p.lastYearNetSales, p.forecastCents ?? 0]),
  );
  return (
    <Table
      label={t('home.dayParts')}
      className="home-day-parts"
      stackOnNarrow
      columns={[
        { key: 'part', label: t('home.dayPart'), isRowHeader: true },
        { key: 'today', label: t('home.today'), align: 'end' },
        { key: 'forecast', label: t('home.forecast'), align: 'end' },
        { key: 'lastYear', label: t('home.lastYearShort'), align: 'end' },
      ]}
      rows={sales.dayParts.map((p) => ({
        id: p.key,
        cells: {
          part: t(`report.dayPart.${p.key}`),
          today: <BarCell kind="today" cents={p.netSales} max={max} text={money(p.netSales)} />,
          forecast: p.forecastCents === null ? '–' : money(p.forecastCents),
          lastYear: (
            <BarCell kind="last-year" cents={p.lastYearNetSales} max={max} text={money(p.lastYearNetSales)} />
          ),
        },
      }))}
    />
  );
}

export function SalesWidget({ sales }: { sales: Sales }) {
  return (
    <>
      <SalesFigures sales={sales} />
      <DayPartTable sales={sales} />
    </>
  );
}
