import { createFileRoute } from '@tanstack/react-router';
import { AdministrationHub } from '../../-components/administration-hub.tsx';

/** /config: the administration page listing the screens the user's rights open (SPEC.md §2). */
export const Route = createFileRoute('/_authed/config/')({
  component: AdministrationHub,
});
