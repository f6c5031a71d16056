import { createFileRoute, notFound } from '@tanstack/react-router';
import { satisfies, screenRequirement } from '../../../../contract/rights.ts';
import { session } from '../../../lib/session.ts';

/**
 * Any `/config/*` screen the app has no route for (SPEC.md §2's administration screens not built
 * yet, or a mistyped one). A user without the screen's right (contract/rights.ts SCREEN_RIGHTS:
 * CONFIGURATION, ACCES_BASE for /config/bdd) gets the layout's "no access" screen, as on the
 * built ones, so the answer does not tell which administration screens exist (issue #18); a user
 * holding the right gets the not-found screen.
 */
export const Route = createFileRoute('/_authed/config/$')({
  beforeLoad: function unknownConfigScreen({ location }) {
    if (satisfies(screenRequirement(location.pathname), session.user?.droits ?? [])) throw notFound();
  },
  component: NoConfigScreen,
});

/** Nothing: the layout shows "no access" in place of this screen to a user without the right. */
function NoConfigScreen() {
  return null;
}
