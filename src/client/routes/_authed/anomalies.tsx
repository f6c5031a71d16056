import { createFileRoute } from '@tanstack/react-router';
import { AnomaliesPage } from '../../features/anomalies/components/anomalies-page.tsx';

/** /anomalies (issue #19): sellers and terminals that stand out (right RAPPORTS_ANOMALIES, src/contract/rights.ts). */
export const Route = createFileRoute('/_authed/anomalies')({
  component: AnomaliesPage,
});
