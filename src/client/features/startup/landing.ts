/**
 * Where a user lands after signing in (issue #30): the start-up wizard while a new installation
 * (no demo chain) is not started up, for a user whose rights open it; /home otherwise. Pure, so
 * the server tests drive it with the server's real state (tests/server/startup-landing.test.ts).
 */
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
