/**
 * The /fec screen's calls (issue #29): the companies behind the user's sites (GET bo/getSirets),
 * a company's account plan (GET bo/fec/plan, POST bo/fec/savePlan) and the FEC file of one of
 * them for a period (GET bo/fec/export, decision record 0037); the FEC recurrences and the files
 * they kept (bo/fec/recurrences, saveRecurrence, deleteRecurrence, runRecurrenceNow, files, file;
 * decision record 0043).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { SiretSchema } from '../../../contract/api.ts';
import { type FecPlan, type FecPlanInput, FecPlanSchema } from '../../../contract/fec.ts';
import {
  FecFilesAnswerSchema,
  type FecRecurrence,
  type FecRecurrenceInput,
  FecRecurrenceSchema,
  FecRecurrencesAnswerSchema,
} from '../../../contract/fec-recurrences.ts';
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
 * and its name `<SIREN>FEC<AAAAMMJJ>.txt` from the answer's Content-Disposition. With
 * `excludeForeign`, the company's sites not kept in EUR are left out (decision 0037).
 * @throws ApiFailure with FecCheckFailed, FecMissingAccount, FecNoSiren, FecForeignCurrency,
 *   Forbidden… (no file).
 */
export function downloadFec(
  userId: number,
  societe: number,
  dateDebut: string,
  dateFin: string,
  onProgress: (fraction: number | null) => void,
  excludeForeign = false,
): Promise<{ blob: Blob; filename: string }> {
  const params = { id: userId, societe, dateDebut, dateFin };
  return download(
    'bo/fec/export',
    excludeForeign ? { ...params, exclureHorsEuro: 'true' } : params,
    onProgress,
  );
}

/** The FEC recurrences of company `societe` and the files they kept (issue #29, decision 0043). */
export const fecRecurrenceQueries = {
  recurrences: (userId: number, societe: number) =>
    queryOptions({
      queryKey: ['fec', userId, 'recurrences', societe] as const,
      queryFn: () => getJson('bo/fec/recurrences', FecRecurrencesAnswerSchema, { id: userId, societe }),
    }),
  files: (userId: number, societe: number) =>
    queryOptions({
      queryKey: ['fec', userId, 'files', societe] as const,
      queryFn: () => getJson('bo/fec/files', FecFilesAnswerSchema, { id: userId, societe }),
    }),
};

/**
 * POST bo/fec/saveRecurrence: creates (no `input.id`) or replaces a recurrence of company
 * `societe`, with Idempotency-Key `key`. Resolves to the saved recurrence.
 * @throws ApiFailure BadRequest (a field refused), Forbidden, NotFound, `Network Error`….
 */
export function saveFecRecurrence(
  userId: number,
  societe: number,
  input: FecRecurrenceInput,
  key: string,
): Promise<FecRecurrence> {
  return sendKeyed({
    method: 'post',
    path: 'bo/fec/saveRecurrence',
    params: { id: userId, societe },
    key,
    json: input,
    parse: (body) => FecRecurrenceSchema.parse(body),
  });
}

/**
 * POST bo/fec/deleteRecurrence or bo/fec/runRecurrenceNow on recurrence `recurrence` of company
 * `societe`, with Idempotency-Key `key`.
 * @throws ApiFailure Forbidden, NotFound, BadRequest (run of an inactive one), `Network Error`….
 */
export function actOnFecRecurrence(
  action: 'deleteRecurrence' | 'runRecurrenceNow',
  userId: number,
  societe: number,
  recurrence: number,
  key: string,
): Promise<unknown> {
  return sendKeyed({
    method: 'post',
    path: `bo/fec/${action}`,
    params: { id: userId, societe, recurrence },
    key,
    json: {},
    parse: (body) => body,
  });
}

/** Downloads kept file `fichier` of company `societe` (GET bo/fec/file). */
export function downloadFecFile(
  userId: number,
  societe: number,
  fichier: number,
  onProgress: (fraction: number | null) => void,
): Promise<{ blob: Blob; filename: string }> {
  return download('bo/fec/file', { id: userId, societe, fichier }, onProgress);
}
