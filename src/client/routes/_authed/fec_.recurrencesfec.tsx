import { createFileRoute } from '@tanstack/react-router';
import { FecRecurrencesPage } from '../../features/fec/components/fec-recurrences-page.tsx';

/** /fec/recurrencesfec (issue #29): a company's FEC recurrences (right FEC_CONFIGURATION, src/contract/rights.ts). */
export const Route = createFileRoute('/_authed/fec_/recurrencesfec')({
  component: FecRecurrencesPage,
});
