/**
 * Reads of the counting screens (issue #3), one key factory per domain (DESIGN.md §8). Offline,
 * the service worker answers these from its copies (they are on its allow-list), so a screen
 * opened once online still shows what the server last said; with no copy, the screens work
 * without (expected amounts unknown, the rules' defaults apply).
 */
import { queryOptions } from '@tanstack/react-query';
import {
  CashCountListAnswerSchema,
  ExpectedAnswerSchema,
  ReceiptListAnswerSchema,
  SafeDayAnswerSchema,
  SignaturesAnswerSchema,
} from '../../../contract/counting.ts';
import { getJson } from '../../lib/http.ts';

/** Reads are not retried offline: the form must stay usable at once. */
const READ = { retry: 1, staleTime: 30_000, networkMode: 'always' } as const;

export const countingQueries = {
  all: () => ['counting'] as const,
  /** GET bo/comptage/expected — expected amounts of a terminal's day and the required parts. */
  expected: (userId: number, site: number, dateFiscale: string, caisse: number) =>
    queryOptions({
      queryKey: [...countingQueries.all(), userId, 'expected', site, dateFiscale, caisse] as const,
      queryFn: () =>
        getJson('bo/comptage/expected', ExpectedAnswerSchema, { id: userId, site, dateFiscale, caisse }),
      ...READ,
    }),
  /** GET bo/comptage/list — every version of the day's counts of a site. */
  list: (userId: number, site: number, dateFiscale: string) =>
    queryOptions({
      queryKey: [...countingQueries.all(), userId, 'list', site, dateFiscale] as const,
      queryFn: () =>
        getJson('bo/comptage/list', CashCountListAnswerSchema, { id: userId, site, dateFiscale }),
      ...READ,
    }),
};

export const safeQueries = {
  all: () => ['safe'] as const,
  /** GET coffre?dateFiscale — the day's safe counts per site and the suggested opening float. */
  day: (userId: number, dateFiscale: string) =>
    queryOptions({
      queryKey: [...safeQueries.all(), userId, 'day', dateFiscale] as const,
      queryFn: () => getJson('coffre', SafeDayAnswerSchema, { id: userId, dateFiscale }),
      ...READ,
    }),
  /**
   * GET fluxfin/declare_et_en_attente_de_signatures — the latest safe count of each site and day
   * of the period with its status (EN_ATTENTE or CONTRE_SIGNE).
   */
  signatures: (userId: number, dateDebut: string, dateFin: string) =>
    queryOptions({
      queryKey: [...safeQueries.all(), userId, 'signatures', dateDebut, dateFin] as const,
      queryFn: () =>
        getJson('fluxfin/declare_et_en_attente_de_signatures', SignaturesAnswerSchema, {
          id: userId,
          dateDebut,
          dateFin,
        }),
      ...READ,
    }),
};

export const receiptQueries = {
  all: () => ['receipts'] as const,
  /** GET bo/documentsManager/readRecusManager — the day's receipts (answer field `response`). */
  list: (userId: number, dateFiscale: string, site: number | null) =>
    queryOptions({
      queryKey: [...receiptQueries.all(), userId, 'list', dateFiscale, site] as const,
      queryFn: () =>
        getJson('bo/documentsManager/readRecusManager', ReceiptListAnswerSchema, {
          id: userId,
          dateFiscale,
          site: site ?? undefined,
        }),
      ...READ,
    }),
};
