/**
 * The signed-in user as every authenticated route sees it (`request.session`), and the route
 * option that names a route's entry in the rights table (`config.rights`, DESIGN.md §4).
 */
import type { ApiRoute } from '../../contract/rights.ts';

/**
 * The session of the caller, resolved from `Authorization: Basic base64(login:token)`.
 * `siteIds` is the user's site scope (SPEC.md §6): the profile's sites (every site when the
 * profile has `allSites`) plus the sites of `societesPlus`, minus those of `societesMoins`.
 */
export interface Session {
  userId: number;
  login: string;
  droits: string[];
  role: string;
  currency: string;
  codeExploitant: string | null;
  language: string | null;
  /** Sites the user may see, ascending restaurantId. */
  siteIds: number[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth plugin on every route whose requirement is not `public`; null otherwise. */
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** The route's key in API_RIGHTS (`'GET bo/getSites'`); required on every API route. */
    rights?: ApiRoute;
  }
}
