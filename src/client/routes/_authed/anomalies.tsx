import { createFileRoute } from '@tanstack/react-router';
import { AnomaliesPage } from '../../features/anomalies/components/anomalies-page.tsx';

/** The search params a link into /anomalies may carry (features/anomalies/anomalies.ts applyAnomalyLink reads them). */
const LINK_PARAMS = ['site', 'dateDebut', 'dateFin'] as const;
type AnomalyLinkSearch = Partial<Record<(typeof LINK_PARAMS)[number], string | number>>;

/**
 * /anomalies (issue #19): sellers and terminals that stand out (right RAPPORTS_ANOMALIES,
 * src/contract/rights.ts). `?site&dateDebut&dateFin` opens it on that site and period (the
 * "new anomaly" alert's mail, issue #28); the values are only kept here and checked by the page
 * (no zod in route options, decision 0003).
 */
export const Route = createFileRoute('/_authed/anomalies')({
  validateSearch: (search: Record<string, unknown>): AnomalyLinkSearch => {
    const kept: AnomalyLinkSearch = {};
    for (const key of LINK_PARAMS) {
      const value = search[key];
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') kept[key] = value;
    }
    return kept;
  },
  component: AnomaliesRoute,
});

function AnomaliesRoute() {
  return <AnomaliesPage link={Route.useSearch()} />;
}
