/**
 * LIMITATION_SITE (SPEC.md §3, §5: "only one site may be chosen in multi-site mode where limited",
 * message multiSitesTooMuch; issue #32 B): a profile holding it reads reports and tickets one site
 * at a time. The server refuses more than one site on those calls, so a client that shows
 * several pickers anyway, or none, cannot get round it: with no site named, the whole scope would
 * be read, which is refused too when it holds several sites.
 */
import { DomainError } from '../errors.ts';
import type { Session } from './session.ts';

/** The right that limits a profile to one site at a time. */
export const SITE_LIMIT_RIGHT = 'LIMITATION_SITE';

/**
 * Checks the sites a report or ticket call reads (`requested`; none = the caller's whole scope)
 * against the caller's LIMITATION_SITE.
 * @throws DomainError invalid (400) `multiSitesTooMuch` with `details.sites` when the caller holds
 *   LIMITATION_SITE and the call would read more than one site.
 */
export function requireOneSiteWhenLimited(
  session: Pick<Session, 'droits' | 'siteIds'>,
  requested: readonly number[],
): void {
  if (!session.droits.includes(SITE_LIMIT_RIGHT)) return;
  const sites = requested.length > 0 ? [...new Set(requested)] : session.siteIds;
  if (sites.length > 1) {
    throw new DomainError(
      'invalid',
      'multiSitesTooMuch',
      'this profile reads one site at a time (LIMITATION_SITE)',
      {
        sites: [...sites],
      },
    );
  }
}
