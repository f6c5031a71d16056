/**
 * Reference data of the signed-in user (SPEC.md §7 "Session and data"): sites, groups (regroupements),
 * terminals (caisses) and sellers (vendeurs), through TanStack Query with one key factory
 * (DESIGN.md §8). Keys carry the user id, so a second user on the same device never reads the
 * first one's cached sites. Every call sends `id` = the signed-in user's id.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  CaissesAnswerSchema,
  RegroupementSchema,
  SitesAnswerSchema,
  VendeursAnswerSchema,
} from '../../contract/api.ts';
import { z } from 'zod';
import { ApiFailure, getJson } from '../lib/http.ts';
import { session } from '../lib/session.ts';
import type { SiteSellers, SiteTerminals } from './site-scope.ts';

const RegroupementsAnswerSchema = z.array(RegroupementSchema);

/**
 * Id of the signed-in user. Throws ApiFailure `NoConnectedUser` (SPEC.md §8) when nobody is
 * signed in, which the loader answers by signing out.
 */
export function currentUserId(): number {
  const user = session.user;
  if (!user) throw new ApiFailure('NoConnectedUser', null);
  return user.id;
}

/** Reference data does not change during a working session; a reload or a new sign-in refetches it. */
const STALE_MS = 30 * 60_000;

/**
 * Query options of one piece of reference data: keyed by the signed-in user's id (read when the
 * options are made) and `name`, fetched by `fetch`, fresh for STALE_MS.
 */
function referenceQuery<T>(name: string, fetch: () => Promise<T>) {
  return queryOptions({
    queryKey: [...referenceQueries.all(), session.user?.id ?? null, name] as const,
    queryFn: fetch,
    staleTime: STALE_MS,
  });
}

/**
 * bo/getCaisses and bo/getVendeurs answer one entry per site keyed by restaurantId: flattened to
 * a list, the site's id and label beside its terminals or sellers.
 */
function perSite<E extends { site: { restaurantId: number; libelle: string } }>(answer: Record<string, E>) {
  return Object.values(answer).map(({ site, ...list }) => ({
    restaurantId: site.restaurantId,
    libelle: site.libelle,
    ...list,
  }));
}

/** Query-key factory and query options of the reference data (DESIGN.md §8: no inline keys). */
export const referenceQueries = {
  /** Prefix of every reference-data key (invalidate it to reload all). */
  all: () => ['reference'] as const,
  /** GET bo/getSites?id — the user's sites, 'NON REMPLI' included (hidden by the pickers). */
  sites: () =>
    referenceQuery('sites', () => getJson('bo/getSites', SitesAnswerSchema, { id: currentUserId() })),
  /** GET bo/infra/getRegroupements?id — groups of sites. */
  groups: () =>
    referenceQuery('groups', () =>
      getJson('bo/infra/getRegroupements', RegroupementsAnswerSchema, { id: currentUserId() }),
    ),
  /** GET bo/getCaisses?id — terminals keyed by restaurantId, flattened to one entry per site. */
  terminals: () =>
    referenceQuery(
      'terminals',
      async (): Promise<SiteTerminals[]> =>
        perSite(await getJson('bo/getCaisses', CaissesAnswerSchema, { id: currentUserId() })),
    ),
  /** GET bo/getVendeurs?id — sellers keyed by restaurantId, flattened to one entry per site. */
  sellers: () =>
    referenceQuery(
      'sellers',
      async (): Promise<SiteSellers[]> =>
        perSite(await getJson('bo/getVendeurs', VendeursAnswerSchema, { id: currentUserId() })),
    ),
};
