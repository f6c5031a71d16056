/**
 * One day of the calendar told in full: its date, the forecast of the chosen sites with its 80 %
 * range ("entre 2 900 € et 3 600 €") and its measured reliability (the backtest's WAPE, with the
 * horizon and the weeks it was measured over; "history too short" instead of figures when so),
 * the same per day part (SPEC.md §9: a table, each part with its own reliability, since a
 * lunch service can be steadier than the evening), the actual sales once there are some, and the events running that day with their type,
 * channel, impact, period and sites. Users with the right EVENEMENTS get add, change and delete
 * buttons; the others read. This is what a screen reader hears of a day: the month grid's cells
 * only name their date.
 */
import { getISODay } from 'date-fns/getISODay';
import { useIntl } from 'react-intl';
import { parseWireDate } from '../../../../contract/dates.ts';
import type { LocalEvent } from '../../../../contract/events.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import type { DayForecast, DayPartForecast, SitesReliability } from '../calendar-days.ts';

/** The forecast of a day as the page has it: not for this user, on its way, failed, or there. */
export type ForecastState =
  | { kind: 'hidden' }
  | { kind: 'loading' }
  | { kind: 'error' }
  | {
      kind: 'ready';
      day: DayForecast | null;
      /** The day's forecast per day part (calendar-days.ts dayPartsOn); null when the day has none. */
      dayParts: readonly DayPartForecast[] | null;
      reliability: SitesReliability | null;
      /** Measured weeks when the sites' history is too short for figures (calendar-days.ts tooLittleHistory), else null. */
      tooLittleHistory: number | null;
      currency: string;
    };

/** What the event lines and their buttons need besides the events. */
export interface EventActions {
  siteNames: ReadonlyMap<number, string>;
  /** The user holds EVENEMENTS. */
  canWrite: boolean;
  /** The device is online (writes need the network). */
  online: boolean;
  onAdd: (day: string) => void;
  onEdit: (event: LocalEvent) => void;
  onDelete: (event: LocalEvent) => void;
}

export interface DayDetailsProps extends EventActions {
  day: string;
  events: readonly LocalEvent[];
  forecast: ForecastState;
  /** Heading level: 2 under the month grid, 3 in the week's list. */
  level: 2 | 3;
}

/** "vendredi 12/06/2026": the weekday in the user's language, the date DD/MM/YYYY in every one. */
export function useDayTitle(): (day: string) => string {
  const intl = useIntl();
  return (day) => {
    const date = parseWireDate(day);
    // The weekday's name from the catalogues (ISO 1 = Monday), not Intl: one rule for dates everywhere.
    const weekday = date ? intl.formatMessage({ id: `events.weekday.${getISODay(date)}` }) : '';
    return `${weekday} ${formatDate(day)}`.trim();
  };
}

/** The day of the module comment. */
export function DayDetails(props: DayDetailsProps) {
  const intl = useIntl();
  const title = useDayTitle()(props.day);
  const Heading = props.level === 2 ? 'h2' : 'h3';
  const headingId = `ev-day-${props.day}-${props.level}`;
  return (
    <section className="ev-day" aria-labelledby={headingId} data-day={props.day}>
      <Heading className="ev-day__title" id={headingId}>
        {title}
      </Heading>
      <ForecastLine state={props.forecast} />
      {props.forecast.kind === 'ready' && props.forecast.dayParts?.length ? (
        <DayPartsTable
          day={props.day}
          parts={props.forecast.dayParts}
          currency={props.forecast.currency}
          weeks={props.forecast.reliability?.weeks ?? null}
        />
      ) : null}
      {props.events.length === 0 ? (
        <p className="ev-muted">{intl.formatMessage({ id: 'events.none' })}</p>
      ) : (
        <ul className="ev-list">
          {props.events.map((e) => (
            <EventLine key={e.uuid_evt} event={e} {...props} />
          ))}
        </ul>
      )}
      {props.canWrite ? (
        <Button onPress={() => props.onAdd(props.day)} isDisabled={!props.online}>
          {intl.formatMessage({ id: 'events.addOn' }, { date: formatDate(props.day) })}
        </Button>
      ) : null}
    </section>
  );
}

/** The forecast, its reliability and the actual sales of the day, or why they are not shown. */
function ForecastLine({ state }: { state: ForecastState }) {
  const intl = useIntl();
  if (state.kind === 'hidden') return null;
  if (state.kind !== 'ready') {
    const id = state.kind === 'loading' ? 'events.forecast.loading' : 'events.forecast.error';
    return <p className="ev-muted">{intl.formatMessage({ id })}</p>;
  }
  if (!state.day) return <p className="ev-muted">{intl.formatMessage({ id: 'events.forecast.none' })}</p>;
  const money = (cents: number) => formatMoney(cents, state.currency, intl.locale);
  const actual =
    state.day.actualCents !== null ? (
      <div>
        <dt>{intl.formatMessage({ id: 'events.actual' })}</dt>
        <dd>{money(state.day.actualCents)}</dd>
      </div>
    ) : null;
  if (state.tooLittleHistory !== null) {
    return (
      <dl className="ev-forecast">
        <div>
          <dt>{intl.formatMessage({ id: 'events.forecast' })}</dt>
          <dd className="ev-muted">
            {intl.formatMessage(
              { id: 'events.forecast.tooLittleHistory' },
              { weeks: state.tooLittleHistory },
            )}
          </dd>
        </div>
        {actual}
      </dl>
    );
  }
  const r = state.reliability;
  const range = state.day.range;
  return (
    <dl className="ev-forecast">
      <div>
        <dt>{intl.formatMessage({ id: 'events.forecast' })}</dt>
        <dd>
          <span className="ev-forecast__amount">{money(state.day.forecastCents)}</span>{' '}
          {range ? (
            <span className="ev-forecast__range" data-testid="ev-forecast-range">
              {intl.formatMessage(
                { id: 'events.forecast.range' },
                { low: money(range.lowCents), high: money(range.highCents) },
              )}
            </span>
          ) : null}{' '}
          <span className="ev-forecast__reliability">
            {r
              ? intl.formatMessage(
                  { id: r.horizonDays === undefined ? 'events.reliability' : 'events.reliability.horizon' },
                  { percent: Math.round(r.wape * 100), weeks: r.weeks, days: r.horizonDays },
                )
              : intl.formatMessage({ id: 'events.reliability.none' })}
          </span>
        </dd>
      </div>
      {actual}
    </dl>
  );
}

/**
 * The day's forecast per day part: a real table (a screen reader tells each figure with its part
 * and column), three short columns so it holds on a 400 px phone. Each part has its own 80 %
 * range, under its amount; a part that is a small share of the day is marked uncertain instead
 * of given a precise amount.
 */
function DayPartsTable(props: {
  day: string;
  parts: readonly DayPartForecast[];
  currency: string;
  weeks: number | null;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const money = (cents: number) => formatMoney(cents, props.currency, intl.locale);
  return (
    <table className="ev-parts" data-testid={`ev-parts-${props.day}`}>
      <caption>{t('events.dayParts.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('events.dayParts.part')}</th>
          <th scope="col">{t('events.forecast')}</th>
          <th scope="col">
            {props.weeks
              ? t('events.dayParts.reliability', { weeks: props.weeks })
              : t('events.dayParts.reliabilityShort')}
          </th>
        </tr>
      </thead>
      <tbody>
        {props.parts.map((p) => (
          <tr key={p.key}>
            <th scope="row">{t(`report.dayPart.${p.key}`)}</th>
            <td>
              {p.uncertain ? (
                <span className="ev-muted ev-parts__uncertain" data-testid={`ev-part-uncertain-${p.key}`}>
                  {t('events.dayParts.uncertain')}
                </span>
              ) : (
                money(p.forecastCents)
              )}
              {p.range ? (
                <span className="ev-parts__range">
                  {t('events.forecast.range', {
                    low: money(p.range.lowCents),
                    high: money(p.range.highCents),
                  })}
                </span>
              ) : null}
            </td>
            <td>
              {p.wape === null
                ? t('events.dayParts.notMeasured')
                : t('events.dayParts.wape', { percent: Math.round(p.wape * 100) })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One event of the day, and its change / delete buttons for a user who may write. */
function EventLine({ event, ...actions }: { event: LocalEvent } & EventActions) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const sign = event.typeImpact === 'Positive' ? '+' : '−';
  const sites = event.perim_affects.map((id) => actions.siteNames.get(id) ?? `#${id}`).join(', ');
  return (
    <li className={`ev-event ev-event--${event.typeImpact.toLowerCase()}`}>
      <p className="ev-event__name">
        <strong>{event.designation}</strong>{' '}
        <span className="ev-event__impact">
          {sign}
          {intl.formatNumber(event.tauxImpact)} %
        </span>
      </p>
      <p className="ev-event__facts">
        {t(`events.type.${event.typeEvenement}`)} · {t(`events.channel.${event.canalVente}`)} ·{' '}
        {t(`events.impact.${event.typeImpact}`)}
        {event.plu ? ` · ${t('events.pluIs', { plu: event.plu })}` : ''}
      </p>
      <p className="ev-event__facts">
        {t('events.period', { from: formatDate(event.dateDebut), to: formatDate(event.dateFin) })} · {sites}
      </p>
      {actions.canWrite ? (
        <div className="ev-buttons">
          <Button onPress={() => actions.onEdit(event)} isDisabled={!actions.online}>
            {t('events.edit', { name: event.designation })}
          </Button>
          <Button onPress={() => actions.onDelete(event)} isDisabled={!actions.online}>
            {t('events.delete', { name: event.designation })}
          </Button>
        </div>
      ) : null}
    </li>
  );
}
