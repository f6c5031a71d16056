/**
 * Period selection (SPEC.md §3, §9): one of the 14 period codes or custom dates typed as
 * DD/MM/YYYY or picked on a calendar, plus an optional hour range (trancheHoraire, default
 * 12:00–23:00). Typed text is stored as typed, so an error message never erases it; the resolved
 * range is always shown in words so the user sees which days a code covers.
 */
import { CalendarDate } from '@internationalized/date';
import { format } from 'date-fns/format';
import { type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Calendar, CalendarCell, CalendarGrid } from 'react-aria-components/Calendar';
import { Dialog, DialogTrigger, Popover } from 'react-aria-components/Popover';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { useSnapshot } from 'valtio';
import { DISPLAY_DATE, parseDisplayDate, wireToDisplay } from '../../../contract/dates.ts';
import { PERIOD_CODES } from '../../../contract/periods.ts';
import { CALENDAR_CELL, CALENDAR_GRID, CalendarHeader } from '../../ui/calendar-header.tsx';
import { cardClass } from '../../ui/card.tsx';
import { Checkbox } from '../../ui/checkbox.tsx';
import { Select } from '../../ui/select.tsx';
import { TextField } from '../../ui/text-field.tsx';
import {
  isPeriodCode,
  resolvePeriodChoice,
  tidyTypedDate,
  tidyTypedTime,
  toCustomChoice,
  validateHours,
} from '../period.ts';
import { selection } from '../selection-state.ts';
import './selection.css';

const CUSTOM = 'custom';

/** A calendar glyph drawn in SVG: emoji fonts are missing on many tills and tablets. */
function CalendarIcon() {
  return (
    <svg
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </svg>
  );
}

/** A DD/MM/YYYY text field with a calendar button; `text` is kept exactly as typed. */
function DateInput(props: {
  label: string;
  text: string;
  onChange: (text: string) => void;
  error: string | undefined;
  calendarLabel: string;
}) {
  const intl = useIntl();
  // Errors show once the user has left the field, not while a date is half typed.
  const [touched, setTouched] = useState(false);
  const parsed = parseDisplayDate(props.text);
  const value = parsed
    ? new CalendarDate(parsed.getFullYear(), parsed.getMonth() + 1, parsed.getDate())
    : null;
  return (
    <div className="sel-date">
      <TextField
        className="sel-date__field"
        label={props.label}
        value={props.text}
        onChange={props.onChange}
        onBlur={() => {
          setTouched(true);
          const tidy = tidyTypedDate(props.text);
          if (tidy !== props.text) props.onChange(tidy);
        }}
        inputMode="numeric"
        autoComplete="off"
        placeholder={intl.formatMessage({ id: 'selection.period.datePlaceholder' })}
        description={intl.formatMessage({ id: 'selection.period.dateHint' })}
        isInvalid={touched && props.error !== undefined}
        errorMessage={touched ? props.error : undefined}
      />
      <DialogTrigger>
        <AriaButton
          className="ui-button ui-button--secondary sel-date__calendar"
          aria-label={props.calendarLabel}
        >
          <CalendarIcon />
        </AriaButton>
        <Popover className="ui-popover sel-calendar-popover" placement="bottom end">
          <Dialog className="sel-calendar-dialog" aria-label={props.calendarLabel}>
            {({ close }) => (
              <I18nProvider locale={intl.locale}>
                <Calendar
                  className="sel-calendar"
                  aria-label={props.calendarLabel}
                  value={value}
                  onChange={(d) => {
                    props.onChange(format(new Date(d.year, d.month - 1, d.day), DISPLAY_DATE));
                    close();
                  }}
                >
                  <CalendarHeader />
                  <CalendarGrid className={CALENDAR_GRID}>
                    {(date) => <CalendarCell date={date} className={`${CALENDAR_CELL} sel-calendar__cell`} />}
                  </CalendarGrid>
                </Calendar>
              </I18nProvider>
            )}
          </Dialog>
        </Popover>
      </DialogTrigger>
    </div>
  );
}

/** The two ends of a custom period: the choice's field, its label and its calendar button's label. */
const DATE_FIELDS = [
  { field: 'debut', message: 'selection.period.start', calendarMessage: 'selection.period.pickStart' },
  { field: 'fin', message: 'selection.period.end', calendarMessage: 'selection.period.pickEnd' },
] as const;

/** The two ends of the time slot: the selection's field, its label and an example. */
const HOUR_FIELDS = [
  { field: 'heureDebut', message: 'selection.hours.start', placeholder: '12:00' },
  { field: 'heureFin', message: 'selection.hours.end', placeholder: '23:00' },
] as const;

/**
 * Period code or custom dates, the resolved range, and the optional hour range. `before` goes
 * first in the fieldset (e.g. /rapports' "separate days" switch); with `hideDates`, the period
 * itself is left out (its place taken by `before`) and only the hours show.
 */
export function PeriodPicker({
  showHours = true,
  hideDates = false,
  before,
}: {
  showHours?: boolean;
  hideDates?: boolean;
  before?: ReactNode;
}) {
  const intl = useIntl();
  const sel = useSnapshot(selection);
  const period = sel.period;
  const resolution = resolvePeriodChoice(period);
  const options = [
    ...PERIOD_CODES.map((code) => ({ id: code, label: intl.formatMessage({ id: `period.${code}` }) })),
    { id: CUSTOM, label: intl.formatMessage({ id: 'period.custom' }) },
  ];
  const errorText = (code: string | undefined) =>
    code ? intl.formatMessage({ id: `selection.period.error.${code}` }) : undefined;
  const hourErrors = validateHours(sel.heureDebut, sel.heureFin);

  return (
    <fieldset className={`${cardClass} sel-period`}>
      <legend className="sel-period__legend">{intl.formatMessage({ id: 'selection.period.label' })}</legend>
      {before}
      {hideDates ? null : (
        <>
          <Select
            label={intl.formatMessage({ id: 'selection.period.choice' })}
            options={options}
            value={period.kind === 'code' ? period.code : CUSTOM}
            onChange={(key) => {
              const id = String(key);
              selection.period = isPeriodCode(id)
                ? { kind: 'code', code: id }
                : toCustomChoice(selection.period);
            }}
          />
          {period.kind === 'custom' ? (
            <div className="sel-period__dates">
              {DATE_FIELDS.map(({ field, message, calendarMessage }) => (
                <DateInput
                  key={field}
                  label={intl.formatMessage({ id: message })}
                  text={period[field]}
                  onChange={(text) => {
                    if (selection.period.kind === 'custom') selection.period[field] = text;
                  }}
                  error={resolution.ok ? undefined : errorText(resolution.errors[field])}
                  calendarLabel={intl.formatMessage({ id: calendarMessage })}
                />
              ))}
            </div>
          ) : null}
          <p
            className={resolution.ok ? 'sel-period__range' : 'sel-period__range sel-period__range--error'}
            role="status"
          >
            {resolution.ok
              ? resolution.range.dateDebut === resolution.range.dateFin
                ? intl.formatMessage(
                    { id: 'selection.period.oneDay' },
                    { date: wireToDisplay(resolution.range.dateDebut) },
                  )
                : intl.formatMessage(
                    { id: 'selection.period.range' },
                    {
                      start: wireToDisplay(resolution.range.dateDebut),
                      end: wireToDisplay(resolution.range.dateFin),
                    },
                  )
              : resolution.errors.range
                ? errorText(resolution.errors.range)
                : intl.formatMessage({ id: 'selection.period.incomplete' })}
          </p>
        </>
      )}
      {showHours ? (
        <div className="sel-hours">
          <Checkbox
            isSelected={sel.trancheHoraire}
            onChange={(on) => {
              selection.trancheHoraire = on;
            }}
          >
            {intl.formatMessage({ id: 'selection.hours.toggle' })}
          </Checkbox>
          {sel.trancheHoraire ? (
            <div className="sel-hours__fields">
              {HOUR_FIELDS.map(({ field, message, placeholder }) => (
                <TextField
                  key={field}
                  label={intl.formatMessage({ id: message })}
                  value={sel[field]}
                  onChange={(t) => {
                    selection[field] = t;
                  }}
                  onBlur={() => {
                    selection[field] = tidyTypedTime(selection[field]);
                  }}
                  inputMode="numeric"
                  placeholder={placeholder}
                  isInvalid={hourErrors[field] !== undefined}
                  errorMessage={
                    hourErrors[field]
                      ? intl.formatMessage({ id: 'selection.hours.error.badTime' })
                      : undefined
                  }
                />
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
