/**
 * A link into /tickets with its search already chosen (the anomalies screen's drill-down, issue
 * #19): one site, optionally one terminal or seller, a period and a criterion of SPEC.md §9, read
 * from the URL (`/tickets?site=1&vendeur=V03&dateDebut=2026-03-02&dateFin=2026-03-29&critere=cancellations`).
 * The route keeps the raw values (no zod in route options, decision 0003); the page parses them
 * here and applies them to the shared selection and the search form, so the screen shows the
 * same choice as if picked by hand.
 */
import { parseWireDate, wireToDisplay } from '../../../contract/dates.ts';
import { TICKET_CRITERIA, type TicketCriterion } from '../../../contract/tickets.ts';
import { selection, sellerKey, terminalKey } from '../../selection/selection-state.ts';
import { ticketSearch } from './ticket-search-state.ts';

/** The search params of /tickets; all absent = the screen as the user left it. */
export interface TicketLink {
  /** restaurantId. */
  site?: number;
  /** Terminal number within the site. */
  caisse?: number;
  /** Seller code within the site. */
  vendeur?: string;
  /** Wire dates YYYY-MM-DD. */
  dateDebut?: string;
  dateFin?: string;
  critere?: TicketCriterion;
}

function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2147483647 ? n : undefined;
}

function wireDate(value: unknown): string | undefined {
  return typeof value === 'string' && parseWireDate(value) ? value : undefined;
}

/** The link's params of `search`, anything unreadable dropped (a stale link still opens the screen). */
export function parseTicketLink(search: Record<string, unknown>): TicketLink {
  const link: TicketLink = {};
  const site = positiveInt(search.site);
  const caisse = positiveInt(search.caisse);
  const dateDebut = wireDate(search.dateDebut);
  const dateFin = wireDate(search.dateFin);
  const vendeur = search.vendeur;
  const critere = TICKET_CRITERIA.find((c) => c === search.critere);
  if (site !== undefined) link.site = site;
  if (caisse !== undefined) link.caisse = caisse;
  if (typeof vendeur === 'string' && vendeur !== '' && vendeur.length <= 64) link.vendeur = vendeur;
  if (dateDebut && dateFin && dateDebut <= dateFin) Object.assign(link, { dateDebut, dateFin });
  if (critere) link.critere = critere;
  return link;
}

/**
 * Puts `link` into the shared selection and the search form; false (nothing changed) when it
 * names no site and period. Amounts and hours are cleared: the link says the whole search.
 */
export function applyTicketLink(link: TicketLink): boolean {
  const { site, dateDebut, dateFin } = link;
  if (site === undefined || !dateDebut || !dateFin) return false;
  Object.assign(selection, {
    groupId: null,
    restaurantIds: [site],
    terminals: link.caisse === undefined ? [] : [terminalKey(site, link.caisse)],
    sellers: link.vendeur === undefined ? [] : [sellerKey(site, link.vendeur)],
    period: { kind: 'custom', debut: wireToDisplay(dateDebut), fin: wireToDisplay(dateFin) },
    trancheHoraire: false,
  });
  Object.assign(ticketSearch, {
    amountMin: '',
    amountMax: '',
    criteria: link.critere ? [link.critere] : [],
    params: null,
    page: 1,
  });
  return true;
}
