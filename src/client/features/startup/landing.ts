/**
 * Where a user lands after signing in (issue #30): the start-up wizard while a new installation
 * (no demo chain) is not started up, for a user whose rights open it; /home otherwise. Pure, so
 * the server tests drive it with the server's real state (tests/server/startup-landing.test.ts).
 */
import type { ConnexionAnswer } from '../../../contract/api.ts';
import { satisfies, screenRequirement } from '../../../contract/rights.ts';
import type { StartupState } from '../../../contract/startup.ts';

/** The wizard's address. */
export const STARTUP_PATH = '/config/miseenroute' as const;

/**
 * Where a user lands after signing in: the wizard when their rights open it and the server says
 * to lead there (`state.guider`: no demo chain, start-up not complete), else /home.
 */
export function landingOf(
  rights: readonly string[],
  state: Pick<StartupState, 'guider'> | null,
): '/home' | typeof STARTUP_PATH {
  if (!satisfies(screenRequirement(STARTUP_PATH), rights)) return '/home';
  return state?.guider ? STARTUP_PATH : '/home';
}

/**
 * {@link landingOf} for `user`, reading the state only when their rights open the wizard; /home
 * when the state cannot be read (offline, an older server): signing in never waits on it. The
 * start-up's calls (and their zod schemas) are imported here only then, so the login route's
 * start graph stays without zod (bench/bundle.ts, decision 0026).
 */
export async function landingAfterSignIn(
  user: Pick<ConnexionAnswer, 'droits'>,
): Promise<'/home' | typeof STARTUP_PATH> {
  if (!satisfies(screenRequirement(STARTUP_PATH), user.droits)) return '/home';
  try {
    const [{ queryClient }, { startupQueries }] = await Promise.all([
      import('../../lib/query-client.ts'),
      import('./startup-queries.ts'),
    ]);
    return landingOf(user.droits, await queryClient.fetchQuery(startupQueries.state()));
  } catch {
    return '/home';
  }
}
