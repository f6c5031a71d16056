/**
 * The week view: the seven days of a week, Monday to Sunday, one under the other, each told in
 * full (day-details.tsx), with buttons to the previous and next weeks. A list reads well on a
 * phone, where seven columns of events would not fit. Its header row has the month grid's shape
 * (ui/calendar.css).
 */
import { useIntl } from 'react-intl';
import type { LocalEvent } from '../../../../contract/events.ts';
import { formatDate } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import '../../../ui/calendar.css';
import { daysOf, eventsOn, type WirePeriod } from '../calendar-days.ts';
import { DayDetails, type EventActions, type ForecastState } from './day-details.tsx';

export interface WeekListProps extends EventActions {
  week: WirePeriod;
  events: readonly LocalEvent[];
  forecastOf: (day: string) => ForecastState;
  onShift: (step: number) => void;
}

/** The week of the module comment. */
export function WeekList({ week, events, forecastOf, onShift, ...actions }: WeekListProps) {
  const intl = useIntl();
  return (
    <div className="ev-week">
      <div className="ui-calendar__header">
        <Button onPress={() => onShift(-1)} aria-label={intl.formatMessage({ id: 'events.week.previous' })}>
          <span aria-hidden="true">‹</span>
        </Button>
        <h2 className="ui-calendar__title">
          {intl.formatMessage(
            { id: 'events.week.title' },
            { from: formatDate(week.dateDebut), to: formatDate(week.dateFin) },
          )}
        </h2>
        <Button onPress={() => onShift(1)} aria-label={intl.formatMessage({ id: 'events.week.next' })}>
          <span aria-hidden="true">›</span>
        </Button>
      </div>
      <ul className="ev-week__days">
        {daysOf(week).map((day) => (
          <li key={day}>
            <DayDetails
              day={day}
              events={eventsOn(events, day)}
              forecast={forecastOf(day)}
              level={3}
              {...actions}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
