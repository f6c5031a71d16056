/**
 * What every react-aria Calendar of the app shares (the period picker's pop-up, the events
 * calendar's month grid): the header row — previous and next month buttons, 44 px, around the
 * month's name, which react-aria names and announces in the interface's language — and the
 * shapes of the grid (calendar.css: weekday heads, and the states of a day: outside the month,
 * hovered or focused, chosen, focused by keyboard). A calendar puts `CALENDAR_GRID` on its
 * CalendarGrid and `CALENDAR_CELL` on its cells, beside its own classes for what differs (a
 * round 44 px day in a pop-up, a day box carrying figures in a page).
 */
import { Button } from 'react-aria-components/Button';
import { Heading } from 'react-aria-components/Calendar';
import './calendar.css';

/** Class of a CalendarGrid with the shared shapes. */
export const CALENDAR_GRID = 'ui-calendar__grid';
/** Class of a CalendarCell with the shared states. */
export const CALENDAR_CELL = 'ui-calendar__cell';

/** The header row of the module comment, inside a Calendar (its buttons take the Calendar's slots). */
export function CalendarHeader({ className }: { className?: string }) {
  return (
    <header className={['ui-calendar__header', className].filter(Boolean).join(' ')}>
      <Button slot="previous" className="ui-button ui-button--secondary ui-calendar__nav">
        <span aria-hidden="true">‹</span>
      </Button>
      <Heading className="ui-calendar__title" />
      <Button slot="next" className="ui-button ui-button--secondary ui-calendar__nav">
        <span aria-hidden="true">›</span>
      </Button>
    </header>
  );
}
