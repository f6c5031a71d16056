/**
 * The `evenements` widget of the home dashboard (SPEC.md §1 "local events", §7 GET
 * bo/home/{widget}; issue #19): the local events (migration 0010: local_events,
 * local_event_sites) of the chosen sites coming in the next two weeks, so the manager plans
 * staff and stock. The calendar and its editing are withCredentials/collab/*'s.
 */
import { HOME_EVENT_DAYS, type HomeEventsAnswer } from '../../contract/home.ts';
import type { Queryable } from '../db/queryable.ts';
import { listEvents } from '../events/local-events.ts';
import { type HomeRequest, requireWidgetRight, shiftDate, widgetContext } from './widget-context.ts';

/**
 * The `evenements` widget (contract/home.ts HomeEventsAnswerSchema): events touching datePerso to
 * datePerso + {@link HOME_EVENT_DAYS} − 1 on the chosen sites, by start then designation; each
 * event's `perim_affects` lists only sites of the caller's scope (the others are not theirs to see).
 * The read and the row → wire mapping are the calendar's (events/local-events.ts listEvents).
 * @throws DomainError forbidden `Forbidden` without any of RAPPORTS, BI, EVENEMENTS (issue #17
 *   item 8), and the errors of widgetContext.
 */
export async function homeEvents(db: Queryable, request: HomeRequest): Promise<HomeEventsAnswer> {
  requireWidgetRight('evenements', request.rights);
  const ctx = await widgetContext(db, request);
  const dateDebut = ctx.fiscalDate;
  const dateFin = shiftDate(dateDebut, HOME_EVENT_DAYS - 1);
  const evenements = await listEvents(db, request.scope, ctx.siteIds, dateDebut, dateFin);
  return { data: { dateDebut, dateFin, evenements } };
}
