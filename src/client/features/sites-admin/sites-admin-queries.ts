/**
 * Calls of /config/sites and /config/groupes (src/contract/administration.ts, right
 * CONFIGURATION): the companies with their sites and the groups through TanStack Query (one key
 * factory), and the writes. Every write answers the saved object (or `{ id }` for a removal),
 * refreshes the lists and the user's reference data (a renamed site or group shows in every
 * picker), and throws {@link ApiFailure} with the server's code so the form can show it at the
 * field (`InvalidField` with `details.field`) or name what is in the way (`InUse`).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type AdminRegroupement,
  AdminRegroupementSchema,
  type AdminSite,
  AdminSiteSchema,
  type RegroupementInput,
  type Societe,
  type SocieteInput,
  SocieteSchema,
  type SiteInput,
} from '../../../contract/administration.ts';
import { getJson, http, type SearchParams, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';
import { referenceQueries } from '../../selection/reference-queries.ts';

const SocietesAnswerSchema = z.array(SocieteSchema);
const RegroupementsAnswerSchema = z.array(AdminRegroupementSchema);
const RemovedSchema = z.object({ id: z.number().int() });

/**
 * Query-key factory of the chain's companies, sites and groups (administration view), keyed by
 * the signed-in user so another administrator on the device never reads the first one's cache.
 */
export const sitesAdminQueries = {
  all: () => ['sites-admin', session.user?.id ?? null] as const,
  /** GET bo/infra/getSocietes — every company with its sites, 'NON REMPLI' ones included (`hidden`). */
  companies: () =>
    queryOptions({
      queryKey: [...sitesAdminQueries.all(), 'companies'] as const,
      queryFn: () => getJson('bo/infra/getSocietes', SocietesAnswerSchema),
      staleTime: 30_000,
    }),
  /** GET bo/infra/getRegroupements (no `id`): every group with its added/removed companies. */
  groups: () =>
    queryOptions({
      queryKey: [...sitesAdminQueries.all(), 'groups'] as const,
      queryFn: () => getJson('bo/infra/getRegroupements', RegroupementsAnswerSchema),
      staleTime: 30_000,
    }),
};

/** Refreshes the administration lists and the signed-in user's own sites and groups. */
async function refreshAfterWrite(): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: sitesAdminQueries.all() }),
    queryClient.invalidateQueries({ queryKey: referenceQueries.all() }),
  ]);
}

/** POST `path` with `json` (and `searchParams`), answer parsed with `schema`. @throws ApiFailure */
async function postJson<T>(path: string, schema: z.ZodType<T>, json: unknown, searchParams?: SearchParams) {
  try {
    const answer = await http
      .post(path, { json, searchParams: toSearchParams(searchParams) })
      .json<unknown>();
    const parsed = schema.parse(answer);
    await refreshAfterWrite();
    return parsed;
  } catch (e) {
    throw toApiFailure(e);
  }
}

/**
 * A GET that removes (SPEC.md §7 `remove*`): sent with a fresh Idempotency-Key, as the server
 * treats it as a write. @throws ApiFailure (`InUse` with the names in `details`, NotFound…).
 */
async function removeBy(path: string, id: number): Promise<number> {
  try {
    const answer = await http
      .get(path, {
        searchParams: toSearchParams({ id }),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      })
      .json<unknown>();
    const { id: removed } = RemovedSchema.parse(answer);
    await refreshAfterWrite();
    return removed;
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** POST bo/infra/newSociete, or saveSociete?id when `id` is given. @throws ApiFailure */
export function saveCompany(input: SocieteInput, id?: number): Promise<Societe> {
  return id === undefined
    ? postJson('bo/infra/newSociete', SocieteSchema, input)
    : postJson('bo/infra/saveSociete', SocieteSchema, input, { id });
}

/** GET bo/infra/removeSociete?id — refused with `InUse` (details.sites) while it has sites. */
export function removeCompany(id: number): Promise<number> {
  return removeBy('bo/infra/removeSociete', id);
}

/** POST bo/infra/newSite, or saveSite?id when `id` is given. @throws ApiFailure */
export function saveSite(input: SiteInput, id?: number): Promise<AdminSite> {
  return id === undefined
    ? postJson('bo/infra/newSite', AdminSiteSchema, input)
    : postJson('bo/infra/saveSite', AdminSiteSchema, input, { id });
}

/** POST bo/infra/newRegroupement, or saveRegroupement?id when `id` is given. @throws ApiFailure */
export function saveGroup(input: RegroupementInput, id?: number): Promise<AdminRegroupement> {
  return id === undefined
    ? postJson('bo/infra/newRegroupement', AdminRegroupementSchema, input)
    : postJson('bo/infra/saveRegroupement', AdminRegroupementSchema, input, { id });
}

/** GET bo/infra/removeRegroupement?id — refused with `InUse` (details.users…) while used. */
export function removeGroup(id: number): Promise<number> {
  return removeBy('bo/infra/removeRegroupement', id);
}
