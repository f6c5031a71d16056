/**
 * HTTP of the partner integrations (issue #29 "Integrations", src/contract/integrations.ts,
 * decision 0044), for CONFIGURATION holders (the right guarding /config/*):
 * - `GET bo/integrations/config?id&partenaire` — the partner's integration (its defaults when
 *   never saved); credentials never sent back, only `identifiantsEnregistres`;
 * - `POST bo/integrations/save?id` — creates or replaces it, audit-logged (credentials redacted),
 *   Idempotency-Key honoured (`config.write`);
 * - `POST bo/integrations/preview?id` — the first lines of the file a layout being edited gives on
 *   real data (one site and day), reads only;
 * - `POST bo/integrations/runNow?id` — queues a run of the partner's job for a day (default:
 *   yesterday), a test file, or "send again" of days already sent; audit-logged;
 * - `GET bo/integrations/runs?id&partenaire` — the run history (job_runs) and the deliveries.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IntegrationPreviewAnswerSchema,
  IntegrationPreviewBodySchema,
  IntegrationRunNowAnswerSchema,
  IntegrationRunNowBodySchema,
  IntegrationRunsAnswerSchema,
  IntegrationSaveBodySchema,
  IntegrationSchema,
  PARTNERS,
} from '../../contract/integrations.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { previewIntegration } from '../integrations/preview.ts';
import type { IntegrationRunData } from '../integrations/run.ts';
import { integrationKind } from '../integrations/run.ts';
import {
  listDeliveries,
  loadIntegration,
  publicIntegration,
  saveIntegration,
} from '../integrations/store.ts';
import { listRuns } from '../jobs/run-records.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['integrations'];
const IdQuery = z.object({ id: UserIdParam });
const PartnerQuery = z.object({
  id: UserIdParam,
  partenaire: z.enum(PARTNERS).describe('adoria, easilys, ecash or consolidations'),
});

type Options = { database: Database; config: Pick<Config, 'secretKey'> };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Registers the integration routes. */
export async function integrationRoutes(app: FastifyInstance, options: Options) {
  configRoutes(app, options);
  runRoutes(app, options);
}

/** `GET bo/integrations/config` and `POST bo/integrations/save`. */
function configRoutes(app: FastifyInstance, options: Options) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.get(
    '/bo/integrations/config',
    {
      config: { rights: 'GET bo/integrations/config' },
      schema: {
        summary: 'A partner integration',
        description: 'Its defaults (disabled, no site) when never saved. Credentials are never answered.',
        tags,
        querystring: PartnerQuery,
        response: { 200: IntegrationSchema, ...errorResponses },
      },
    },
    async function integrationConfig(request) {
      ownSession(request, request.query.id);
      return publicIntegration(await loadIntegration(pool, request.query.partenaire));
    },
  );
  api.post(
    '/bo/integrations/save',
    {
      config: { rights: 'POST bo/integrations/save', write: true },
      schema: {
        summary: 'Saves a partner integration',
        description:
          '400 InvalidField (details.field destination, entetes, colonnes, regleId or sites) for a folder leaving ' +
          'DATA_DIR/exports/, a URL not https:// or holding credentials, an unknown rule, a site out of scope; for a ' +
          'header (details.index, details.reason BadName: not an RFC 9110 token, ReservedName: Host, Content-Length, ' +
          'Content-Type, Transfer-Encoding, Connection, Proxy-… , DuplicateName, BadValue: a control character, ' +
          'MissingValue, SecretKeyMissing: a secret header while COMPTOIR_SECRET_KEY is unset); for a column ' +
          '(details.index, details.reason UnknownField, EmptyName, DuplicateName, BadName: holding the separator, a ' +
          'quote or a line break). A secret header is stored encrypted and answered without its value; sent without ' +
          '`valeur` it keeps the stored one.',
        tags,
        querystring: IdQuery,
        body: IntegrationSaveBodySchema,
        response: { 200: IntegrationSchema, ...errorResponses },
      },
    },
    async function saveIntegrationConfig(request) {
      const session = ownSession(request, request.query.id);
      return saveIntegration(
        writeTx(request),
        { userId: session.userId, address: request.ip },
        request.body,
        options.config.secretKey,
      );
    },
  );
  api.post(
    '/bo/integrations/preview',
    {
      config: { rights: 'POST bo/integrations/preview' },
      schema: {
        summary: 'Previews the file of a partner layout',
        description:
          'The first lines of the file the layout gives on real data: the first of `sites` within the scope (else ' +
          'the scope’s first site), on `dateFiscale` or that site’s last day with sales. Reads only. 400 ' +
          'InvalidField (details.field colonnes, details.index, details.reason) as the save.',
        tags,
        querystring: IdQuery,
        body: IntegrationPreviewBodySchema,
        response: { 200: IntegrationPreviewAnswerSchema, ...errorResponses },
      },
    },
    async function previewIntegrationFile(request) {
      const session = ownSession(request, request.query.id);
      return previewIntegration(pool, session.userId, request.body);
    },
  );
}

/** `POST bo/integrations/runNow` and `GET bo/integrations/runs`. */
function runRoutes(app: FastifyInstance, options: Options) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.post(
    '/bo/integrations/runNow',
    {
      config: { rights: 'POST bo/integrations/runNow', write: true },
      schema: {
        summary: 'Runs a partner integration now',
        description:
          'Queues a run of the partner’s job for `dateFiscale` (default: the day before, in each site’s zone). A site-day ' +
          'already delivered to the same destination is skipped unless `renvoyer`; `test` sends files named TEST_… ' +
          'that count as nothing. A failed delivery retries with backoff. 404 NotFound when never saved.',
        tags,
        querystring: IdQuery,
        body: IntegrationRunNowBodySchema,
        response: { 200: IntegrationRunNowAnswerSchema, ...errorResponses },
      },
    },
    async function runIntegrationNow(request) {
      const session = ownSession(request, request.query.id);
      const { partenaire, dateFiscale: date, test, renvoyer } = request.body;
      const integration = await loadIntegration(pool, partenaire);
      if (integration.id === null)
        throw new DomainError('notFound', 'NotFound', `the ${partenaire} integration was never saved`);
      const tx = writeTx(request);
      await recordAudit(
        tx,
        { userId: session.userId, address: request.ip },
        {
          action: 'integration.runNow',
          targetId: integration.id,
          after: { partenaire, date: date ?? null, test, renvoyer },
        },
      );
      const data: IntegrationRunData = {
        integrationId: integration.id,
        plannedAt: new Date().toISOString(),
        ...(date ? { date } : {}),
        ...(test ? { test } : {}),
        ...(renvoyer ? { again: renvoyer } : {}),
      };
      return { runId: await app.jobs.enqueueIn(tx, integrationKind(partenaire), data) };
    },
  );
  api.get(
    '/bo/integrations/runs',
    {
      config: { rights: 'GET bo/integrations/runs' },
      schema: {
        summary: 'Runs and deliveries of a partner integration',
        description:
          'The last 50 runs of its job and the last 200 deliveries (one per site, day and destination).',
        tags,
        querystring: PartnerQuery,
        response: { 200: IntegrationRunsAnswerSchema, ...errorResponses },
      },
    },
    async function integrationRuns(request) {
      ownSession(request, request.query.id);
      const partner = request.query.partenaire;
      const runs = await listRuns(pool, { kind: integrationKind(partner), limit: 50 });
      return {
        executions: runs.map((r) => {
          const data = (r.data ?? {}) as Partial<IntegrationRunData>;
          return {
            planifie: r.plannedAt.toISOString(),
            termine: iso(r.endedAt),
            statut: r.status,
            tentatives: r.attempts,
            dateFiscale: data.date ?? null,
            test: data.test === true,
            fichiers: r.files.map((f) => ({ nom: f.name, octets: f.bytes })),
            erreur: r.error,
          };
        }),
        livraisons: await listDeliveries(pool, partner),
      };
    },
  );
}
