/**
 * The month view (react-aria-components' Calendar, CalendarGrid and CalendarCell): arrow keys
 * move between days, Page Up / Page Down between months, and the grid announces each day's full
 * date. Each cell also shows, for the eye, how many events run that day and the forecast in
 * short form; the day chosen is told in full under the grid (day-details.tsx), which is where a
 * screen reader reads them. Weeks start on Monday, as the chain's fiscal weeks do. The header
 * and the days' states are the period picker's too (ui/calendar-header.tsx).
 */
import { type CalendarDate, parseDate } from '@internationalized/date';
import { useIntl } from 'react-intl';
import { Calendar, CalendarCell, CalendarGrid } from 'react-aria-components/Calendar';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { formatNumber } from '../../../lib/format.ts';
import { CALENDAR_CELL, CALENDAR_GRID, CalendarHeader } from '../../../ui/calendar-header.tsx';

/** What a cell shows of its day. */
export interface CellSummary {
  events: number;
  /** Forecast of the chosen sites, cents; null when not shown. */
  forecastCents: number | null;
}

export interface MonthCalendarProps {
  /** The day chosen (wire date). */
  selected: string;
  /** A day of the month shown (wire date). */
  focused: string;
  onSelect: (day: string) => void;
  onFocusChange: (day: string) => void;
  summary: (day: string) => CellSummary;
  currency: string;
}

/** The calendar of the module comment. */
export function MonthCalendar(props: MonthCalendarProps) {
  const intl = useIntl();
  // The month's name and the weekdays in the interface's language, whatever the page around says.
  return (
    <I18nProvider locale={intl.locale}>
      <Calendar
        className="ev-cal"
        aria-label={intl.formatMessage({ id: 'events.calendar' })}
        value={parseDate(props.selected)}
        onChange={(d: CalendarDate) => props.onSelect(d.toString())}
        focusedValue={parseDate(props.focused)}
        onFocusChange={(d: CalendarDate) => props.onFocusChange(d.toString())}
        firstDayOfWeek="mon"
      >
        <CalendarHeader />
        <CalendarGrid className={`${CALENDAR_GRID} ev-cal__grid`} weekdayStyle="short">
          {(date) => (
            <CalendarCell date={date} className={`${CALENDAR_CELL} ev-cal__cell`}>
              {({ formattedDate, isOutsideMonth }) => (
                <CellContent
                  formattedDate={formattedDate}
                  summary={isOutsideMonth ? null : props.summary(date.toString())}
                  currency={props.currency}
                />
              )}
            </CalendarCell>
          )}
        </CalendarGrid>
      </Calendar>
    </I18nProvider>
  );
}

/**
 * The day's number, its events count and its forecast in short form, for the eye only: the two
 * figures are drawn by CSS from `data-text` (events.css), so the cell's text stays its day's
 * number, which its accessible name (the full date) contains (WCAG 2.5.3 "label in name").
 */
function CellContent(props: { formattedDate: string; summary: CellSummary | null; currency: string }) {
  const intl = useIntl();
  const s = props.summary;
  return (
    <>
      <span className="ev-cal__date">{props.formattedDate}</span>
      {s && s.events > 0 ? (
        <span className="ev-cal__events" aria-hidden="true" data-text={String(s.events)} />
      ) : null}
      {s && s.forecastCents !== null ? (
        <span
          className="ev-cal__forecast"
          aria-hidden="true"
          data-text={formatNumber(s.forecastCents / 100, intl.locale, {
            style: 'currency',
            currency: props.currency,
            notation: 'compact',
            maximumFractionDigits: 1,
          })}
        />
      ) : null}
    </>
  );
}
