/**
 * What the rights guard (rights-guard.ts) adds to Fastify's types: the caller's session on the request
 * and the route option naming a route's entry in the rights table (`config.rights`, DESIGN.md
 * §4). Types only; a module that reads `request.session` imports it (`import type {} from`).
 */
import type { ApiRoute } from '../../contract/rights.ts';
import type { Session } from '../auth/session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the rights guard on every route whose requirement is not `public`; null otherwise. */
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** The route's key in API_RIGHTS (`'GET bo/getSites'`); required on every API route. */
    rights?: ApiRoute;
  }
}
