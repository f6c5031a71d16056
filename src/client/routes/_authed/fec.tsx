import { createFileRoute } from '@tanstack/react-router';
import { FecPage } from '../../features/fec/components/fec-page.tsx';

/** /fec (issue #29): a company's FEC for a period (right FEC_CONFIGURATION, src/contract/rights.ts). */
export const Route = createFileRoute('/_authed/fec')({
  component: FecPage,
});
