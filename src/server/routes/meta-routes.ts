/** GET version and GET distribution (SPEC.md §4, §7): public, asked before sign-in. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION, DistributionAnswerSchema, VersionAnswerSchema } from '../../contract/api.ts';
import type { Config } from '../config.ts';
import { errorResponses } from './common.ts';

/** Registers GET version and GET distribution (public, no client header needed). */
export async function metaRoutes(app: FastifyInstance, options: { config: Pick<Config, 'distribution'> }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/version',
    {
      config: { rights: 'GET version' },
      schema: {
        summary: 'Server version (global mode when it contains "CAS", SPEC.md §4)',
        tags: ['session'],
        response: { 200: VersionAnswerSchema, ...errorResponses },
      },
    },
    async function getVersion() {
      return { version: APP_VERSION };
    },
  );
  api.get(
    '/distribution',
    {
      config: { rights: 'GET distribution' },
      schema: {
        summary: 'Distribution (client) name; "TOTAL" switches total mode off (SPEC.md §4)',
        tags: ['session'],
        response: { 200: DistributionAnswerSchema, ...errorResponses },
      },
    },
    async function getDistribution() {
      return { nom: options.config.distribution };
    },
  );
}
