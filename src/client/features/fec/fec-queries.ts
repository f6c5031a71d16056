/**
 * The /fec screen's calls (issue #29): the companies behind the user's sites (GET bo/getSirets),
 * a company's account plan (GET bo/fec/plan, POST bo/fec/savePlan) and the FEC file of one of
 * them for a period (GET bo/fec/export, decision record 0037).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { SiretSchema } from '../../../contract/api.ts';
import { type FecPlan, type FecPlanInput, FecPlanSchema } from '../../../contract/fec.ts';
import { download, getJson } from '../../lib/http.ts';
import { sendKeyed } from '../../lib/request-keys.ts';

/** The companies the user may pick: id, SIRET and raison sociale. */
export const fecQueries = {
  companies: (userId: number) =>
    queryOptions({
      queryKey: ['fec', userId, 'companies'] as const,
      queryFn: () => getJson('bo/getSirets', z.array(SiretSchema), { id: userId }),
      staleTime: 60_000,
    }),
  /** The account plan of company `societe`: every role, the company's and the default account. */
  plan: (userId: number, societe: number) =>
    queryOptions({
      queryKey: ['fec', userId, 'plan', societe] as const,
      queryFn: () => getJson('bo/fec/plan', FecPlanSchema, { id: userId, societe }),
    }),
};

/**
 * POST bo/fec/savePlan: replaces company `societe`'s plan with `input` (roles left out take their
 * default), sent with Idempotency-Key `key`. Resolves to the saved plan.
 * @throws ApiFailure InvalidField (details.field `account` / `label` / `role`, details.role),
 *   Forbidden, `Network Error`…; nothing is saved then.
 */
export function saveFecPlan(
  userId: number,
  societe: number,
  input: FecPlanInput,
  key: string,
): Promise<FecPlan> {
  return sendKeyed({
    method: 'post',
    path: 'bo/fec/savePlan',
    params: { id: userId, societe },
    key,
    json: input,
    parse: (body) => FecPlanSchema.parse(body),
  });
}

/**
 * Downloads the FEC of company `societe` from `dateDebut` to `dateFin` (wire dates): the file
 * and its name `<SIREN>FEC<AAAAMMJJ>.txt` from the answer's Content-Disposition.
 * @throws ApiFailure with FecCheckFailed, FecMissingAccount, FecNoSiren, Forbidden… (no file).
 */
export function downloadFec(
  userId: number,
  societe: number,
  dateDebut: string,
  dateFin: string,
  onProgress: (fraction: number | null) => void,
): Promise<{ blob: Blob; filename: string }> {
  return download('bo/fec/export', { id: userId, societe, dateDebut, dateFin }, onProgress);
}
