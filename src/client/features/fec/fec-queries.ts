/**
 * The /fec screen's calls (issue #29): the companies behind the user's sites (GET bo/getSirets)
 * and the FEC file of one of them for a period (GET bo/fec/export, decision record 0037).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { SiretSchema } from '../../../contract/api.ts';
import { download, getJson } from '../../lib/http.ts';

/** The companies the user may pick: id, SIRET and raison sociale. */
export const fecQueries = {
  companies: (userId: number) =>
    queryOptions({
      queryKey: ['fec', userId, 'companies'] as const,
      queryFn: () => getJson('bo/getSirets', z.array(SiretSchema), { id: userId }),
      staleTime: 60_000,
    }),
};

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
