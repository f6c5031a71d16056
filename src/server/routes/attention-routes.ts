/**
 * `GET bo/attention?id` (issues #29 and #30, decision 0045; not a SPEC.md §7 call): what failed
 * while nobody was signed in and has not succeeded since, for the "Needs attention" card of
 * /home. Read-only. Right: any of ACCES_BASE, CONFIGURATION and FEC_CONFIGURATION; each kind of
 * line is then filtered by its own right (contract/attention-kinds.ts), and a FEC recurrence by
 * its company's sites being in the caller's scope. The work is attention/attention-store.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attentionKindsFor } from '../../contract/attention-kinds.ts';
import { type AttentionAnswer, AttentionAnswerSchema } from '../../contract/attention.ts';
import { readAttention } from '../attention/attention-store.ts';
import type { Database } from '../db/connect.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

/** Registers `GET bo/attention`. */
export async function attentionRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/attention',
    {
      config: { rights: 'GET bo/attention' },
      schema: {
        summary: 'Scheduled work that failed and has not succeeded since',
        description:
          'For the signed-in user (`id`): the automatic backup (ACCES_BASE), the partner integrations and the report ' +
          'subscriptions, failed or suspended (CONFIGURATION), the FEC recurrences of companies wholly in the scope ' +
          '(FEC_CONFIGURATION), whose last ended run failed after its retries; a later success removes the line. ' +
          '`raison` is a code read from the stored error; `ecran` the screen that shows and retries it. Newest first.',
        tags: ['home'],
        querystring: z.object({ id: UserIdParam }),
        response: { 200: AttentionAnswerSchema, ...errorResponses },
      },
    },
    async function attention(request): Promise<AttentionAnswer> {
      const session = ownSession(request, request.query.id);
      const elements = await readAttention(options.database.pool, {
        kinds: attentionKindsFor(session.droits),
        siteIds: session.siteIds,
      });
      return { elements };
    },
  );
}
