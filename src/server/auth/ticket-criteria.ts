/**
 * The ticket search criteria a user may use (SPEC.md §3 profile `optionsTickets`, §9 criteria;
 * issue #18): every criterion of TICKET_CRITERIA but those the profile sets to `false`. An
 * option absent — profiles made before the options existed hold `{}` — or set to anything but
 * JSON `false` allows its criterion, so those profiles keep every criterion.
 */
import { TICKET_CRITERIA } from '../../contract/tickets.ts';

/**
 * The allowed criteria as an SQL expression giving a text[] in TICKET_CRITERIA order (never
 * null), for the profile row whose `options_tickets` column is `optionsSql` (e.g.
 * `p.options_tickets`), so the session check and the sign-in read it in the query they run anyway.
 */
export function allowedTicketCriteriaSql(optionsSql: string): string {
  // The names are the contract's constants (letters only), not user input.
  const names = TICKET_CRITERIA.map((c) => `'${c}'`).join(', ');
  return `ARRAY(SELECT c.name FROM unnest(ARRAY[${names}]::text[]) WITH ORDINALITY AS c(name, n)
                 WHERE (${optionsSql} -> c.name) IS DISTINCT FROM 'false'::jsonb ORDER BY c.n)`;
}
