import { createFileRoute } from '@tanstack/react-router';
import { AuditPage } from '../../features/audit-log/components/audit-page.tsx';

/** /config/audit (issue #18): the administration's audit log, read only. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/audit')({
  component: AuditPage,
});
