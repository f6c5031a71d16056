/**
 * /rapports' "separate days" (SPEC.md §3 period selection `datesMultiples` and `dates`, §7
 * bo/getReport `datefiscales[]`): a switch in the period's card and, when on, the days chosen one
 * by one (typed DD/MM/YYYY, travelling YYYY-MM-DD) in place of the period. Each day can be taken
 * off again; the list stays sorted and never holds a day twice.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { wireToDisplay } from '../../../../contract/dates.ts';
import { selection } from '../../../selection/selection-state.ts';
import { Button } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { DateField } from '../../../ui/date-field.tsx';

/** `dates` with `day` added: sorted, no repeat. */
export function withDay(dates: readonly string[], day: string): string[] {
  return [...new Set([...dates, day])].sort();
}

/** The switch, then (when on) the day field, its "add" button and the chosen days. */
export function SeparateDays() {
  const intl = useIntl();
  const sel = useSnapshot(selection);
  return (
    <div className="rep-days">
      <Checkbox
        isSelected={sel.datesMultiples}
        onChange={(on) => {
          selection.datesMultiples = on;
        }}
      >
        {intl.formatMessage({ id: 'reports.dates.toggle' })}
      </Checkbox>
      {sel.datesMultiples ? <DayList dates={sel.dates} /> : null}
    </div>
  );
}

function DayList({ dates }: { dates: readonly string[] }) {
  const intl = useIntl();
  const [day, setDay] = useState<string | null>(null);
  const add = () => {
    if (day) selection.dates = withDay(selection.dates, day);
  };
  return (
    <>
      <div className="rep-days__add">
        <DateField
          label={intl.formatMessage({ id: 'reports.dates.day' })}
          value={day}
          onChange={setDay}
          invalidMessage={intl.formatMessage({ id: 'selection.period.error.badDate' })}
          placeholder={intl.formatMessage({ id: 'reports.dates.placeholder' })}
        />
        <Button onPress={add} isDisabled={day === null}>
          {intl.formatMessage({ id: 'reports.dates.add' })}
        </Button>
      </div>
      {dates.length === 0 ? (
        <p className="rep-muted" role="status">
          {intl.formatMessage({ id: 'reports.dates.none' })}
        </p>
      ) : (
        <ul className="rep-days__list" aria-label={intl.formatMessage({ id: 'reports.dates.chosen' })}>
          {dates.map((d) => (
            <li key={d} className="rep-days__day">
              <span>{wireToDisplay(d)}</span>
              <Button
                variant="quiet"
                aria-label={intl.formatMessage({ id: 'reports.dates.remove' }, { date: wireToDisplay(d) })}
                onPress={() => {
                  selection.dates = selection.dates.filter((x) => x !== d);
                }}
              >
                <span aria-hidden="true">×</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
