/**
 * The `evenements` widget of the home dashboard (SPEC.md §1 "local events", §7 GET
 * bo/home/{widget}; issue #19): the local events (migration 0010: local_events,
 * local_event_sites) of the chosen sites coming in the next two weeks, so the manager plans
 * staff and stock. The calendar and its editing are withCredentials/collab/*'s.
 */
import { HOME_EVENT_DAYS, type HomeEventsAnswer } from '../../contract/home.ts';
import type { LocalEvent } from '../../contract/events.ts';
import type { Queryable } from '../db/queryable.ts';
import { type HomeRequest, requireWidgetRight, shiftDate, widgetContext } from './widget-context.ts';

interface EventRow {
  uuid: string;
  event_type: LocalEvent['typeEvenement'];
  designation: string;
  sales_channel: LocalEvent['canalVente'];
  plu: string | null;
  start_date: string;
  end_date: string;
  impact_type: LocalEvent['typeImpact'];
  impact_rate: string;
  login: string | null;
  updated_at: Date;
  site_ids: number[];
}

/**
 * The `evenements` widget (contract/home.ts HomeEventsAnswerSchema): events touching datePerso to
 * datePerso + {@link HOME_EVENT_DAYS} − 1 on the chosen sites, by start then designation; each
 * event's `perim_affects` lists only sites of the caller's scope (the others are not theirs to see).
 * @throws DomainError forbidden `Forbidden` without any of RAPPORTS, BI, EVENEMENTS (issue #17
 *   item 8), and the errors of widgetContext.
 */
export async function homeEvents(db: Queryable, request: HomeRequest): Promise<HomeEventsAnswer> {
  requireWidgetRight('evenements', request.rights);
  const ctx = await widgetContext(db, request);
  const dateDebut = ctx.fiscalDate;
  const dateFin = shiftDate(dateDebut, HOME_EVENT_DAYS - 1);
  const { rows } = await db.query<EventRow>(
    `SELECT e.uuid, e.event_type, e.designation, e.sales_channel, e.plu, e.start_date, e.end_date,
            e.impact_type, e.impact_rate, u.login, e.updated_at,
            array(SELECT a.site_id FROM local_event_sites a
                   WHERE a.event_uuid = e.uuid AND a.site_id = ANY($4::int[]) ORDER BY a.site_id) AS site_ids
       FROM local_events e LEFT JOIN users u ON u.id = e.created_by
      WHERE e.start_date <= $3::date AND e.end_date >= $2::date
        AND EXISTS (SELECT 1 FROM local_event_sites s WHERE s.event_uuid = e.uuid AND s.site_id = ANY($1::int[]))
      ORDER BY e.start_date, e.designation, e.uuid`,
    [ctx.siteIds, dateDebut, dateFin, request.scope],
  );
  return {
    data: {
      dateDebut,
      dateFin,
      evenements: rows.map((r) => ({
        uuid_evt: r.uuid,
        typeEvenement: r.event_type,
        designation: r.designation,
        canalVente: r.sales_channel,
        plu: r.plu,
        typeImpact: r.impact_type,
        tauxImpact: Number(r.impact_rate),
        dateDebut: r.start_date,
        dateFin: r.end_date,
        perim_affects: r.site_ids,
        creePar: r.login,
        modifieLe: r.updated_at.toISOString(),
      })),
    },
  };
}
