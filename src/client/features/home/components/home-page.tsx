/**
 * /home (SPEC.md §2 "Home screen (slide transition)", issue #19): a card per widget the user's
 * rights allow (contract/home.ts HOME_WIDGET_RIGHTS) — sales, safe and counts, forecasts, local
 * events — for the selected sites (all the user's sites when none is chosen) and the chosen
 * fiscal date (datePerso, today by default). Each card paints from the persisted cache at once
 * when it has the figures (decision 0021) and says when they were read. The page slides in on
 * entering, unless the user asked for reduced motion.
 *
 * Above the widgets, for a user whose rights open the backup, the integrations, the FEC
 * recurrences or the subscriptions, the "Needs attention" card (attention-card.tsx, decision
 * 0045), whatever the sites chosen; for anyone else it is neither shown nor asked for.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { attentionKindsFor } from '../../../../contract/attention-kinds.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { HOME_WIDGETS, type HomeWidget, maySeeWidget } from '../../../../contract/home.ts';
import { session } from '../../../lib/session.ts';
import { DateField } from '../../../ui/date-field.tsx';
import { GroupPicker, SitePicker } from '../../../selection/components/site-pickers.tsx';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { type HomeWidgetInput, homeQueries } from '../home-queries.ts';
import { EventsWidget } from './events-widget.tsx';
import { ForecastWidget } from './forecast-widget.tsx';
import { type RemindMissingSafeCount, SafeWidget } from './safe-widget.tsx';
import { SalesWidget } from './sales-widget.tsx';
import { WidgetCard } from './widget-card.tsx';
import './home.css';

/** The "Needs attention" card (decision 0045), loaded only for a user whose rights show it. */
const AttentionCard = lazy(() => import('./attention-card.tsx').then((m) => ({ default: m.AttentionCard })));

export interface HomePageProps {
  /** The chosen fiscal date (wire), or undefined for today. */
  datePerso?: string | undefined;
  /** A new date typed (null: cleared, back to today). */
  onDatePersoChange?: (wire: string | null) => void;
  /** Opens the reminder for a safe not counted (the route gives the counting dialog). */
  onRemindMissingSafeCount?: RemindMissingSafeCount;
}

function Widget({
  widget,
  input,
  enabled,
  onRemind,
}: {
  widget: HomeWidget;
  input: HomeWidgetInput;
  enabled: boolean;
  onRemind: RemindMissingSafeCount | undefined;
}) {
  // One hook per widget kind, each rendered by its own component so the hooks' order is fixed.
  switch (widget) {
    case 'ventes':
      return <SalesCard input={input} enabled={enabled} />;
    case 'coffre':
      return <SafeCard input={input} enabled={enabled} onRemind={onRemind} />;
    case 'previsions':
      return <ForecastCard input={input} enabled={enabled} />;
    case 'evenements':
      return <EventsCard input={input} enabled={enabled} />;
  }
}

type CardProps = { input: HomeWidgetInput; enabled: boolean };

function SalesCard({ input, enabled }: CardProps) {
  const query = useQuery({ ...homeQueries.sales(input), enabled });
  return (
    <WidgetCard widget="ventes" query={query}>
      {(data) => <SalesWidget sales={data} />}
    </WidgetCard>
  );
}
function SafeCard({
  input,
  enabled,
  onRemind,
}: CardProps & { onRemind: RemindMissingSafeCount | undefined }) {
  const query = useQuery({ ...homeQueries.safe(input), enabled });
  return (
    <WidgetCard widget="coffre" query={query}>
      {(data) => <SafeWidget data={data} onRemind={onRemind} />}
    </WidgetCard>
  );
}
function ForecastCard({ input, enabled }: CardProps) {
  const query = useQuery({ ...homeQueries.forecast(input), enabled });
  return (
    <WidgetCard widget="previsions" query={query}>
      {(data) => <ForecastWidget data={data} />}
    </WidgetCard>
  );
}
function EventsCard({ input, enabled }: CardProps) {
  const query = useQuery({ ...homeQueries.events(input), enabled });
  return (
    <WidgetCard widget="evenements" query={query}>
      {(data) => <EventsWidget data={data} />}
    </WidgetCard>
  );
}

export function HomePage({ datePerso, onDatePersoChange, onRemindMissingSafeCount }: HomePageProps) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const scope = useSiteScope();
  const siteIds = [...scope.effective].sort((a, b) => a - b);
  const widgets = HOME_WIDGETS.filter((w) => maySeeWidget(w, user?.droits ?? []));
  const input: HomeWidgetInput = {
    userId: user?.id ?? 0,
    siteIds,
    datePerso: datePerso ?? toWireDate(new Date()),
    exploitant: user?.codeExploitant ?? null,
  };
  const enabled = user !== null && !scope.isLoading && siteIds.length > 0;

  return (
    <div className="home-page">
      <h1 className="home-title">{intl.formatMessage({ id: 'home.title' })}</h1>
      <div className="home-where">
        <GroupPicker />
        <SitePicker />
        <DateField
          className="home-date"
          label={intl.formatMessage({ id: 'home.date' })}
          value={input.datePerso}
          onChange={(wire) => onDatePersoChange?.(wire)}
          invalidMessage={intl.formatMessage({ id: 'home.dateInvalid' })}
          placeholder={intl.formatMessage({ id: 'home.datePlaceholder' })}
        />
      </div>
      {user && attentionKindsFor(user.droits).length > 0 ? (
        <Suspense fallback={null}>
          <AttentionCard userId={user.id} />
        </Suspense>
      ) : null}
      {scope.isLoading && siteIds.length === 0 ? (
        <p className="home-status" role="status">
          {intl.formatMessage({ id: 'home.loading' })}
        </p>
      ) : siteIds.length === 0 ? (
        <p className="home-status">{intl.formatMessage({ id: 'home.noSite' })}</p>
      ) : widgets.length === 0 ? (
        <p className="home-status">{intl.formatMessage({ id: 'home.noWidget' })}</p>
      ) : (
        <div className="home-widgets">
          {widgets.map((w) => (
            <Widget key={w} widget={w} input={input} enabled={enabled} onRemind={onRemindMissingSafeCount} />
          ))}
        </div>
      )}
    </div>
  );
}
