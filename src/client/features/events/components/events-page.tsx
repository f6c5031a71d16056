/**
 * /evenements (SPEC.md §1 "events calendar with forecast and reliability", issue #19): the
 * local events of the chosen sites (all the user's sites when none is chosen, SPEC.md §5) by
 * month or by week, each day with its events and the forecast of those sites with its measured
 * reliability. Users with the right EVENEMENTS add, change and delete events; the others read.
 * The forecast shows to users who may read it (GET previsions: RAPPORTS or BI). Offline, the
 * calendar shows the service worker's last copy and the writes wait for the network (said on
 * screen, the buttons disabled).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Key } from 'react-aria-components';
import { ToggleButton } from 'react-aria-components/ToggleButton';
import { ToggleButtonGroup } from 'react-aria-components/ToggleButtonGroup';
import { useSnapshot } from 'valtio';
import { toWireDate } from '../../../../contract/dates.ts';
import type { LocalEvent } from '../../../../contract/events.ts';
import { API_RIGHTS, satisfies } from '../../../../contract/rights.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { session } from '../../../lib/session.ts';
import { GroupPicker, SitePicker } from '../../../selection/components/site-pickers.tsx';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import {
  type CalendarView,
  dayPartsOn,
  eventsOn,
  forecastOn,
  periodOf,
  reliabilityOf,
  shiftDay,
  tooLittleHistory,
  type WirePeriod,
} from '../calendar-days.ts';
import { eventQueries } from '../event-queries.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { DayDetails, type EventActions, type ForecastState } from './day-details.tsx';
import { EventDeleteDialog } from './event-delete-dialog.tsx';
import { EventForm } from './event-form.tsx';
import { MonthCalendar } from './month-calendar.tsx';
import { WeekList } from './week-list.tsx';
import './events.css';

/** The events and forecast of `period` on `siteIds`, as the views need them. */
function useCalendarData(period: WirePeriod, siteIds: readonly number[], ready: boolean) {
  const { user } = useSnapshot(session);
  const rights = user?.droits ?? [];
  const canForecast = satisfies(API_RIGHTS['GET withCredentials/collab/previsions'], rights);
  const p = { userId: user?.id ?? 0, siteIds, ...period };
  const enabled = user !== null && ready && siteIds.length > 0;
  const calendar = useQuery({ ...eventQueries.calendar(p), enabled });
  const forecast = useQuery({ ...eventQueries.forecast(p), enabled: enabled && canForecast });
  const reliability = reliabilityOf(forecast.data);
  const shortHistory = tooLittleHistory(forecast.data);
  const currency = forecast.data?.currency ?? user?.currency ?? 'EUR';
  function forecastOf(day: string): ForecastState {
    if (!canForecast) return { kind: 'hidden' };
    if (forecast.isError) return { kind: 'error' };
    if (!forecast.data) return { kind: 'loading' };
    return {
      kind: 'ready',
      day: forecastOn(forecast.data, day),
      dayParts: dayPartsOn(forecast.data, day),
      reliability,
      tooLittleHistory: shortHistory,
      currency,
    };
  }
  return { calendar, events: calendar.data?.evenements ?? [], forecastOf, currency, canForecast };
}

/** What the page's dialogs hold: the event being added or changed, the one to delete. */
function useEventDialogs() {
  const [editing, setEditing] = useState<{ event: LocalEvent | null; day: string } | null>(null);
  const [deleting, setDeleting] = useState<LocalEvent | null>(null);
  return { editing, setEditing, deleting, setDeleting };
}

/** The page of the module comment. */
export function EventsPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { user } = useSnapshot(session);
  const online = useOnline();
  const scope = useSiteScope();
  const siteIds = [...scope.effective].sort((a, b) => a - b);
  const today = toWireDate(new Date());
  const [view, setView] = useState<CalendarView>('month');
  const [selected, setSelected] = useState(today);
  const [focused, setFocused] = useState(today);
  const period = periodOf(view, focused);
  const data = useCalendarData(period, siteIds, !scope.isLoading);
  const dialogs = useEventDialogs();
  const canWrite = (user?.droits ?? []).includes('EVENEMENTS');
  const actions: EventActions = {
    siteNames: new Map(scope.visible.map((s) => [s.restaurantId, s.libelle])),
    canWrite,
    // Writes also wait for the user's sites, which the form offers.
    online: online && !scope.isLoading && siteIds.length > 0,
    onAdd: (day) => dialogs.setEditing({ event: null, day }),
    onEdit: (event) => dialogs.setEditing({ event, day: event.dateDebut }),
    onDelete: dialogs.setDeleting,
  };
  return (
    <div className="ev-page">
      <h1 className="ev-title">{t('events.title')}</h1>
      <div className="ev-where">
        <GroupPicker />
        <SitePicker />
      </div>
      <Notes canWrite={canWrite} online={online} />
      <ViewChoice view={view} onChange={setView} />
      <CalendarState query={data.calendar} />
      {view === 'month' ? (
        <>
          <MonthCalendar
            selected={selected}
            focused={focused}
            onSelect={setSelected}
            onFocusChange={setFocused}
            currency={data.currency}
            summary={(day) => {
              const f = data.forecastOf(day);
              return {
                events: eventsOn(data.events, day).length,
                forecastCents: f.kind === 'ready' ? (f.day?.forecastCents ?? null) : null,
              };
            }}
          />
          <DayDetails
            day={selected}
            events={eventsOn(data.events, selected)}
            forecast={data.forecastOf(selected)}
            level={2}
            {...actions}
          />
        </>
      ) : (
        <WeekList
          week={period}
          events={data.events}
          forecastOf={data.forecastOf}
          onShift={(step) => setFocused(shiftDay('week', focused, step))}
          {...actions}
        />
      )}
      <Dialog
        title={t(dialogs.editing?.event ? 'events.editTitle' : 'events.addTitle')}
        isOpen={dialogs.editing !== null}
        onOpenChange={(open) => {
          if (!open) dialogs.setEditing(null);
        }}
        isDismissable={false}
      >
        {dialogs.editing ? (
          <EventForm
            event={dialogs.editing.event}
            day={dialogs.editing.day}
            defaultSites={siteIds}
            sites={scope.visible.map((s) => ({ id: String(s.restaurantId), label: s.libelle }))}
            online={online}
            onClose={() => dialogs.setEditing(null)}
          />
        ) : null}
      </Dialog>
      <EventDeleteDialog event={dialogs.deleting} onClose={() => dialogs.setDeleting(null)} />
    </div>
  );
}

/** Why the user cannot write, when they cannot: no right, or no network. */
function Notes({ canWrite, online }: { canWrite: boolean; online: boolean }) {
  const intl = useIntl();
  if (!canWrite) return <p className="ev-note">{intl.formatMessage({ id: 'events.readOnly' })}</p>;
  if (!online) {
    return (
      <p className="ev-note" role="status">
        {intl.formatMessage({ id: 'events.offline' })}
      </p>
    );
  }
  return null;
}

/** Month or week. */
function ViewChoice({ view, onChange }: { view: CalendarView; onChange: (v: CalendarView) => void }) {
  const intl = useIntl();
  return (
    <ToggleButtonGroup
      className="ev-views"
      aria-label={intl.formatMessage({ id: 'events.view' })}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[view]}
      onSelectionChange={(keys: Set<Key>) => {
        const [key] = [...keys];
        if (key === 'month' || key === 'week') onChange(key);
      }}
    >
      <ToggleButton id="month" className="ui-button ui-button--secondary ev-views__button">
        {intl.formatMessage({ id: 'events.view.month' })}
      </ToggleButton>
      <ToggleButton id="week" className="ui-button ui-button--secondary ev-views__button">
        {intl.formatMessage({ id: 'events.view.week' })}
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/** The calendar read's failure (translated, with a retry); nothing while it loads or once loaded. */
function CalendarState({ query }: { query: { isError: boolean; error: unknown; refetch: () => unknown } }) {
  const intl = useIntl();
  if (!query.isError) return null;
  const id = query.error instanceof ApiFailure ? `error.${query.error.code}` : '';
  return (
    <div className="ev-error" role="alert">
      <p>{intl.formatMessage({ id: id in intl.messages ? id : 'events.loadFailed' })}</p>
      <Button onPress={() => void query.refetch()}>{intl.formatMessage({ id: 'events.retry' })}</Button>
    </div>
  );
}
