/**
 * Whether the signed-in user may open a screen, by the rights table of src/contract/rights.ts
 * (SCREEN_RIGHTS, the same one the server and the layout use). A route's loader asks it before it
 * prefetches: the layout shows "no access" in place of a screen the user may not open, and its
 * loader must not ask the server for what that user may not read either (issue #32 D.14: a 403 in
 * the console on every visit).
 */
import { satisfies, screenRequirement } from '../../contract/rights.ts';
import { session } from './session.ts';

/** True when the signed-in user's rights meet the requirement of the screen at `path`; false when signed out. */
export function mayOpenScreen(path: string): boolean {
  const user = session.user;
  return user !== null && satisfies(screenRequirement(path), user.droits);
}
