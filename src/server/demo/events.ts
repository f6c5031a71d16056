/**
 * The demo chain's local events (issue #19 "The demo chain gains events (some past, with the
 * impact really present in its sales)"; tables local_events and local_event_sites, migration
 * 0010; shapes of src/contract/events.ts). Dates are set from the demo's `now`: some events
 * follow the calendar (a summer festival in July, the Fête de la musique, a Christmas market —
 * their latest occurrence before today), the others lie a given number of days before or after
 * today, so the calendar always shows some to come.
 *
 * A past event's impact is in the generated sales: the ticket volume of each site and day it
 * covers is multiplied by (1 + rate) for a Positive event, (1 − rate) for a Negative one
 * ({@link eventFactor}), so a forecast that knows the event does better than one that does not.
 */
import { tzOffset } from '@date-fns/tz';
import type pg from 'pg';
import type { EventType, ImpactType, SalesChannel } from '../../contract/events.ts';
import { notifyChanged } from '../db/changes.ts';
import { mix } from './random.ts';

const DAY_MS = 86_400_000;

/** When an event takes place: days from today (negative: past), or its latest yearly occurrence before today. */
export type DemoEventWhen =
  | { fromToday: number; days: number }
  /** Month 1–12 and day of the month of its first day, its latest occurrence that ended before today. */
  | { month: number; day: number; days: number };

/** An event of the demo chain, as the catalogue describes it (dates resolved by {@link demoEvents}). */
export interface DemoEvent {
  typeEvenement: EventType;
  designation: string;
  canalVente: SalesChannel;
  plu: string | null;
  typeImpact: ImpactType;
  /** Percent (25 = 25 %). */
  tauxImpact: number;
  /** Indexes in catalogue.ts SITES. */
  sites: readonly number[];
  when: DemoEventWhen;
}

/** The demo chain's events: nine past (three of them yearly), five to come. */
export const DEMO_EVENTS: readonly DemoEvent[] = [
  {
    typeEvenement: 'CONCERT',
    designation: 'Francofolies de La Rochelle',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 40,
    sites: [5],
    when: { month: 7, day: 10, days: 5 },
  },
  {
    typeEvenement: 'CONCERT',
    designation: 'Fête de la musique',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 35,
    sites: [0, 1, 2],
    when: { month: 6, day: 21, days: 1 },
  },
  {
    typeEvenement: 'FAIR',
    designation: 'Marché de Noël',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 20,
    sites: [0, 1],
    when: { month: 12, day: 1, days: 24 },
  },
  {
    typeEvenement: 'WEATHER',
    designation: 'Orages et fortes pluies',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Negative',
    tauxImpact: 25,
    sites: [1],
    when: { fromToday: -62, days: 3 },
  },
  {
    typeEvenement: 'ROADWORKS',
    designation: 'Travaux de voirie devant la brasserie',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Negative',
    tauxImpact: 35,
    sites: [2],
    when: { fromToday: -24, days: 14 },
  },
  {
    typeEvenement: 'PROMOTION',
    designation: 'Semaine de la viennoiserie',
    canalVente: 'TAKEAWAY',
    plu: 'FVIE01',
    typeImpact: 'Positive',
    tauxImpact: 25,
    sites: [4],
    when: { fromToday: -20, days: 7 },
  },
  {
    typeEvenement: 'STRIKE',
    designation: 'Grève des transports en commun',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Negative',
    tauxImpact: 40,
    sites: [0, 3],
    when: { fromToday: -6, days: 1 },
  },
  {
    typeEvenement: 'SPORT',
    designation: 'Finale de la Coupe de France (retransmission)',
    canalVente: 'DINE_IN',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 35,
    sites: [0, 1, 2],
    when: { fromToday: -3, days: 1 },
  },
  {
    typeEvenement: 'HOLIDAY',
    designation: 'Pont et vacances scolaires',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 15,
    sites: [1, 5],
    when: { fromToday: -45, days: 5 },
  },
  {
    typeEvenement: 'CONCERT',
    designation: 'Concert au théâtre Graslin',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 20,
    sites: [3],
    when: { fromToday: 4, days: 1 },
  },
  {
    typeEvenement: 'SPORT',
    designation: 'Marathon du lac',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 25,
    sites: [1],
    when: { fromToday: 9, days: 2 },
  },
  {
    typeEvenement: 'STRIKE',
    designation: 'Grève nationale interprofessionnelle',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Negative',
    tauxImpact: 25,
    sites: [0, 1, 2, 3, 4, 5],
    when: { fromToday: 12, days: 1 },
  },
  {
    typeEvenement: 'ROADWORKS',
    designation: 'Travaux du tramway',
    canalVente: 'ALL',
    plu: null,
    typeImpact: 'Negative',
    tauxImpact: 20,
    sites: [4],
    when: { fromToday: 15, days: 14 },
  },
  {
    typeEvenement: 'PROMOTION',
    designation: 'Semaine de la galette',
    canalVente: 'TAKEAWAY',
    plu: null,
    typeImpact: 'Positive',
    tauxImpact: 15,
    sites: [3, 4, 5],
    when: { fromToday: 20, days: 7 },
  },
];

/** An event of {@link DEMO_EVENTS} with its dates: day numbers (days since 1970-01-01) and wire dates, inclusive. */
export interface DatedDemoEvent extends DemoEvent {
  firstDay: number;
  lastDay: number;
  dateDebut: string;
  dateFin: string;
}

function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Today's day number in Europe/Paris (the calendar date of `now`, a day starting at midnight). */
export function parisDay(now: Date): number {
  const ms = now.getTime();
  return Math.floor((ms + tzOffset('Europe/Paris', now) * 60_000) / DAY_MS);
}

function firstDayOf(when: DemoEventWhen, today: number): number {
  if ('fromToday' in when) return today + when.fromToday;
  const year = new Date(today * DAY_MS).getUTCFullYear();
  const start = (y: number) => Math.floor(Date.UTC(y, when.month - 1, when.day) / DAY_MS);
  return start(year) + when.days - 1 < today ? start(year) : start(year - 1);
}

/** {@link DEMO_EVENTS} dated from `now` (Europe/Paris). */
export function demoEvents(now: Date): DatedDemoEvent[] {
  const today = parisDay(now);
  return DEMO_EVENTS.map((e) => {
    const firstDay = firstDayOf(e.when, today);
    const lastDay = firstDay + e.when.days - 1;
    return { ...e, firstDay, lastDay, dateDebut: dayText(firstDay), dateFin: dayText(lastDay) };
  });
}

/**
 * What the events of `events` do to the ticket volume of site `siteIndex` (catalogue order) on
 * day number `day`: the product of (1 ± rate) of those covering it; 1 when none does.
 */
export function eventFactor(events: readonly DatedDemoEvent[], siteIndex: number, day: number): number {
  let factor = 1;
  for (const e of events) {
    if (day < e.firstDay || day > e.lastDay || !e.sites.includes(siteIndex)) continue;
    factor *= 1 + ((e.typeImpact === 'Positive' ? 1 : -1) * e.tauxImpact) / 100;
  }
  return factor;
}

/** A UUID (version-4 layout) drawn from the seed and the event's place in the list: the same seed gives the same uuids. */
function eventUuid(seed: number, index: number): string {
  const hex = [0, 1, 2, 3]
    .map((k) => (mix(seed, index, k, 0x65) >>> 0).toString(16).padStart(8, '0'))
    .join('');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Writes `events` and their sites through `client` (the demo's transaction). `siteIds` are the
 * database ids of the demo sites in catalogue order; `authorOf` names the user who created an
 * event (null: nobody, shown as such); the events are dated as created and changed at `now`.
 */
export async function insertDemoEvents(
  client: pg.ClientBase,
  events: readonly DatedDemoEvent[],
  siteIds: readonly number[],
  seed: number,
  now: Date,
  authorOf: (e: DatedDemoEvent) => number | null,
): Promise<void> {
  const uuids = events.map((_, i) => eventUuid(seed, i));
  await client.query(
    `INSERT INTO local_events (uuid, event_type, designation, sales_channel, plu, start_date, end_date,
       impact_type, impact_rate, created_by, created_at, updated_at)
     SELECT u, t, d, c, p, s, e, it, r, b, $11, $11
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::date[],
                   $8::text[], $9::numeric[], $10::int[]) AS x(u, t, d, c, p, s, e, it, r, b)`,
    [
      uuids,
      events.map((e) => e.typeEvenement),
      events.map((e) => e.designation),
      events.map((e) => e.canalVente),
      events.map((e) => e.plu),
      events.map((e) => e.dateDebut),
      events.map((e) => e.dateFin),
      events.map((e) => e.typeImpact),
      events.map((e) => e.tauxImpact),
      events.map(authorOf),
      now,
    ],
  );
  const pairs = events.flatMap((e, i) =>
    e.sites.map((s) => [siteIds[s] as number, uuids[i] as string] as const),
  );
  await client.query(
    'INSERT INTO local_event_sites (site_id, event_uuid) SELECT * FROM unnest($1::int[], $2::uuid[])',
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  // On a Citus cluster the table's trigger fires on a worker, which cannot notify (decision 0046).
  await notifyChanged(client, 'local_event_sites');
}
