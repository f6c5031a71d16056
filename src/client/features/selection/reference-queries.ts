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
} from '../../../contract/api.ts';
import { z } from 'zod';
import { ApiFailure, getJson } from '../../lib/http.ts';
import { session } from '../../lib/session.ts';
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

/** Query-key factory and query options of the reference data (DESIGN.md §8: no inline keys). */
export const referenceQueries = {
  /** Prefix of every reference-data key (invalidate it to reload all). */
  all: () => ['reference'] as const,
  /** GET bo/getSites?id — the user's sites, 'NON REMPLI' included (hidden by the pickers). */
  sites: () => {
    const id = session.user?.id ?? null;
    return queryOptions({
      queryKey: [...referenceQueries.all(), id, 'sites'] as const,
      queryFn: () => getJson('bo/getSites', SitesAnswerSchema, { id: currentUserId() }),
      staleTime: STALE_MS,
    });
  },
  /** GET bo/infra/getRegroupements?id — groups of sites. */
  groups: () => {
    const id = session.user?.id ?? null;
    return queryOptions({
      queryKey: [...referenceQueries.all(), id, 'groups'] as const,
      queryFn: () => getJson('bo/infra/getRegroupements', RegroupementsAnswerSchema, { id: currentUserId() }),
      staleTime: STALE_MS,
    });
  },
  /** GET bo/getCaisses?id — terminals keyed by restaurantId, flattened to one entry per site. */
  terminals: () => {
    const id = session.user?.id ?? null;
    return queryOptions({
      queryKey: [...referenceQueries.all(), id, 'terminals'] as const,
      queryFn: async (): Promise<SiteTerminals[]> => {
        const answer = await getJson('bo/getCaisses', CaissesAnswerSchema, { id: currentUserId() });
        return Object.values(answer).map((e) => ({
          restaurantId: e.site.restaurantId,
          libelle: e.site.libelle,
          caisses: e.caisses,
        }));
      },
      staleTime: STALE_MS,
    });
  },
  /** GET bo/getVendeurs?id — sellers keyed by restaurantId, flattened to one entry per site. */
  sellers: () => {
    const id = session.user?.id ?? null;
    return queryOptions({
      queryKey: [...referenceQueries.all(), id, 'sellers'] as const,
      queryFn: async (): Promise<SiteSellers[]> => {
        const answer = await getJson('bo/getVendeurs', VendeursAnswerSchema, { id: currentUserId() });
        return Object.values(answer).map((e) => ({
          restaurantId: e.site.restaurantId,
          libelle: e.site.libelle,
          vendeurs: e.vendeurs,
        }));
      },
      staleTime: STALE_MS,
    });
  },
};
