/**
 * The kind of a ticket and its marks (corrected, employee meal, training) as short badges, shared
 * by the results table and the ticket's own page.
 */
import { useIntl } from 'react-intl';
import type { TicketSummary } from '../../../../contract/tickets.ts';

export function TicketKind({
  ticket,
}: {
  ticket: Pick<TicketSummary, 'kind' | 'corrected' | 'employeeMeal' | 'trainingMode'>;
}) {
  const intl = useIntl();
  const marks: { id: string; tone: string }[] = [];
  if (ticket.corrected) marks.push({ id: 'tickets.mark.corrected', tone: 'warn' });
  if (ticket.employeeMeal) marks.push({ id: 'tickets.mark.employeeMeal', tone: 'info' });
  if (ticket.trainingMode) marks.push({ id: 'tickets.mark.training', tone: 'info' });
  return (
    <span className="tk-kind">
      <span className={ticket.kind === 'SALE' ? 'tk-badge' : 'tk-badge tk-badge--alert'}>
        {intl.formatMessage({ id: `tickets.kind.${ticket.kind}` })}
      </span>
      {marks.map((m) => (
        <span key={m.id} className={`tk-badge tk-badge--${m.tone}`}>
          {intl.formatMessage({ id: m.id })}
        </span>
      ))}
    </span>
  );
}
