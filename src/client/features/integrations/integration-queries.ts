/**
 * The /config/<partner> screens' calls (issue #29 "Integrations", decision 0044): the partner's
 * integration (GET bo/integrations/config), saving it (POST bo/integrations/save), running it now
 * (POST bo/integrations/runNow), its history (GET bo/integrations/runs) and the preview of a
 * layout being edited (POST bo/integrations/preview).
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type Integration,
  type IntegrationPreview,
  IntegrationPreviewAnswerSchema,
  type IntegrationPreviewBodySchema,
  IntegrationRunNowAnswerSchema,
  IntegrationRunsAnswerSchema,
  IntegrationSchema,
  type Partner,
} from '../../../contract/integrations.ts';
import { getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { sendKeyed } from '../../lib/request-keys.ts';

/** The partner's integration and its history. */
export const integrationQueries = {
  config: (userId: number, partenaire: Partner) =>
    queryOptions({
      queryKey: ['integrations', userId, partenaire, 'config'] as const,
      queryFn: () => getJson('bo/integrations/config', IntegrationSchema, { id: userId, partenaire }),
    }),
  runs: (userId: number, partenaire: Partner) =>
    queryOptions({
      queryKey: ['integrations', userId, partenaire, 'runs'] as const,
      queryFn: () => getJson('bo/integrations/runs', IntegrationRunsAnswerSchema, { id: userId, partenaire }),
      refetchInterval: 5_000,
    }),
};

/**
 * POST bo/integrations/save with Idempotency-Key `key`; resolves to the saved integration.
 * @throws ApiFailure InvalidField (details.field destination, colonnes, sites…), Forbidden, `Network Error`.
 */
export function saveIntegration(
  userId: number,
  body: Omit<Integration, 'identifiantsEnregistres'>,
  key: string,
) {
  return sendKeyed({
    method: 'post',
    path: 'bo/integrations/save',
    params: { id: userId },
    key,
    json: body,
    parse: (answer) => IntegrationSchema.parse(answer),
  });
}

/**
 * POST bo/integrations/runNow: queues a run for `dateFiscale` (a test file with `test`, days
 * already sent again with `renvoyer`).
 * @throws ApiFailure NotFound (never saved), Forbidden, `Network Error`.
 */
export function runIntegrationNow(
  userId: number,
  body: { partenaire: Partner; dateFiscale?: string; test: boolean; renvoyer: boolean },
  key: string,
) {
  return sendKeyed({
    method: 'post',
    path: 'bo/integrations/runNow',
    params: { id: userId },
    key,
    json: body,
    parse: (answer) => IntegrationRunNowAnswerSchema.parse(answer),
  });
}

/**
 * POST bo/integrations/preview: the first lines of the file `body.mise` gives on real data. A read:
 * no Idempotency-Key.
 * @throws ApiFailure InvalidField (details.field colonnes, index, reason), Forbidden, `Network Error`.
 */
export async function previewIntegration(
  userId: number,
  body: z.input<typeof IntegrationPreviewBodySchema>,
): Promise<IntegrationPreview> {
  try {
    const answer = await http
      .post('bo/integrations/preview', { searchParams: toSearchParams({ id: userId }), json: body })
      .json<unknown>();
    return IntegrationPreviewAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** Re-exported for the page: the answer of the runs call. */
export type IntegrationRuns = z.output<typeof IntegrationRunsAnswerSchema>;
