/**
 * Calls of /config/audit: GET bo/infra/getAudit (administration.ts AuditQuerySchema: filters
 * userId, kind, dateDebut, dateFin; newest first; `limit` from `offset`) and the users the "who"
 * filter offers (GET bo/infra/getUtilisateurs), which with the profiles (GET bo/infra/getProfils) and
 * companies (GET bo/infra/getSocietes) name
 * the entries' ids. Read only: the log is never edited from the API.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AuditAnswerSchema,
  ProfileSchema,
  SocieteSchema,
  UtilisateurSchema,
} from '../../../contract/administration.ts';
import { getJson } from '../../lib/http.ts';
import { session } from '../../lib/session.ts';

/** Entries shown per page. */
export const AUDIT_PAGE_SIZE = 25;

/** The filters of the screen; wire dates `YYYY-MM-DD`, null when not filtered. */
export interface AuditFilters {
  userId: number | null;
  kind: string | null;
  dateDebut: string | null;
  dateFin: string | null;
}

const UsersAnswerSchema = z.array(UtilisateurSchema);
/** What naming a profile needs: its id and title. GET bo/infra/getProfils answers the list, bare or as `{ profils }`. */
const ProfileNameSchema = ProfileSchema.pick({ id: true, titre: true });
const CompanyNamesSchema = z.array(SocieteSchema.pick({ id: true, raisonSociale: true }));
const ProfileNamesSchema = z.union([
  z.array(ProfileNameSchema),
  z.object({ profils: z.array(ProfileNameSchema) }).transform((a) => a.profils),
]);

/** Query-key factory of /config/audit, keyed by the signed-in user. */
export const auditQueries = {
  all: () => ['audit', session.user?.id ?? null] as const,
  /** One page (`page` from 0) of the entries matching `filters`; the previous page stays shown while the next loads. */
  page: (filters: AuditFilters, page: number) =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'page', filters, page] as const,
      queryFn: () =>
        getJson('bo/infra/getAudit', AuditAnswerSchema, {
          userId: filters.userId ?? undefined,
          kind: filters.kind ?? undefined,
          dateDebut: filters.dateDebut ?? undefined,
          dateFin: filters.dateFin ?? undefined,
          limit: AUDIT_PAGE_SIZE,
          offset: page * AUDIT_PAGE_SIZE,
        }),
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
  /** GET bo/infra/getUtilisateurs — the logins the "who" filter offers. */
  users: () =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'users'] as const,
      queryFn: () => getJson('bo/infra/getUtilisateurs', UsersAnswerSchema),
      staleTime: 60_000,
    }),
  /** GET bo/infra/getProfils — the titles naming the profiles an entry records by id. */
  profiles: () =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'profiles'] as const,
      queryFn: () => getJson('bo/infra/getProfils', ProfileNamesSchema),
      staleTime: 60_000,
    }),
  /** GET bo/infra/getSocietes — the names of the companies an entry records by id. */
  companies: () =>
    queryOptions({
      queryKey: [...auditQueries.all(), 'companies'] as const,
      queryFn: () => getJson('bo/infra/getSocietes', CompanyNamesSchema),
      staleTime: 60_000,
    }),
};
