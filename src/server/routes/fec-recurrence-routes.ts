/**
 * FEC recurrences (issue #29 "FEC recurrences", docs/decisions/0043): `GET bo/fec/recurrences`,
 * `POST bo/fec/saveRecurrence`, `POST bo/fec/deleteRecurrence`, `POST bo/fec/runRecurrenceNow`,
 * `GET bo/fec/files` and `GET bo/fec/file` (the kept file, as `GET bo/fec/export` sends it).
 * Right FEC_CONFIGURATION and every site of the company in the caller's scope, as the export;
 * writes are `config.write` (one transaction with their audit entry, Idempotency-Key honoured).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FecFilesAnswerSchema,
  FecRecurrenceInputSchema,
  FecRecurrenceSchema,
  FecRecurrencesAnswerSchema,
  FecRunNowAnswerSchema,
} from '../../contract/fec-recurrences.ts';
import { INT4_MAX } from '../../contract/integers.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { requireCompanyScope } from '../fec/company-fec.ts';
import type { FecRecurrenceRunData } from '../fec/recurrence-run.ts';
import {
  companyFile,
  companyFiles,
  companyRecurrence,
  companyRecurrences,
  FEC_RECURRENCE_RUN,
  removeRecurrence,
  saveRecurrence,
} from '../fec/recurrence-store.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor } from './admin-write-helpers.ts';
import { documentAnswer, errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['fec'];
const Positive = z.coerce.number().int().positive().max(INT4_MAX);
const CompanyQuery = z.object({ id: UserIdParam, societe: Positive.describe('company (société) id') });
const RecurrenceQuery = CompanyQuery.extend({ recurrence: Positive.describe('recurrence id') });
const FileQuery = CompanyQuery.extend({ fichier: Positive.describe('file id (GET bo/fec/files)') });
const NoBody = z.object({}).strict().nullish().describe('nothing: the row is named by the query');
const SCOPE =
  "403 when a site of the company is outside the caller's scope; 404 for an unknown company or row.";

/** Registers the FEC recurrence calls. */
export async function fecRecurrenceRoutes(
  app: FastifyInstance,
  options: { database: Database; dataDir: string },
) {
  registerRecurrenceRoutes(app, options);
  registerRunRoute(app);
  registerFileRoutes(app, options);
}

/** Registers bo/fec/recurrences, bo/fec/saveRecurrence and bo/fec/deleteRecurrence. */
function registerRecurrenceRoutes(
  app: FastifyInstance,
  options: { database: Database; dataDir: string },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/fec/recurrences',
    {
      config: { rights: 'GET bo/fec/recurrences' },
      schema: {
        summary: "A company's FEC recurrences",
        description: `Each recurrence with its rule, period, recipients and newest run (\`dernierEnvoi\`). ${SCOPE}`,
        tags,
        querystring: CompanyQuery,
        response: { 200: FecRecurrencesAnswerSchema, ...errorResponses },
      },
    },
    async function fecRecurrences(request) {
      const session = ownSession(request, request.query.id);
      await requireCompanyScope(pool, request.query.societe, session.siteIds);
      return { recurrences: await companyRecurrences(pool, request.query.societe) };
    },
  );

  api.post(
    '/bo/fec/saveRecurrence',
    {
      config: { rights: 'POST bo/fec/saveRecurrence', write: true },
      schema: {
        summary: 'Creates or replaces a FEC recurrence',
        description:
          'Without `id` creates, with `id` replaces that recurrence. The rule (monthly on the 1st at 06:00 by default) ' +
          "runs in the company's zone; `periode` (PREVIOUS_MONTH by default) is what each run exports; `destinataires` " +
          `get the file by mail in \`langue\`. Audit-logged (\`fecRecurrence.save\`). ${SCOPE}`,
        tags,
        querystring: CompanyQuery,
        body: FecRecurrenceInputSchema,
        response: { 200: FecRecurrenceSchema, ...errorResponses },
      },
    },
    async function saveFecRecurrence(request) {
      const session = ownSession(request, request.query.id);
      const tx = writeTx(request);
      await requireCompanyScope(tx, request.query.societe, session.siteIds);
      return saveRecurrence(tx, auditActor(request), request.query.societe, request.body);
    },
  );

  api.post(
    '/bo/fec/deleteRecurrence',
    {
      config: { rights: 'POST bo/fec/deleteRecurrence', write: true },
      schema: {
        summary: 'Removes a FEC recurrence (its files stay)',
        description: `Audit-logged (\`fecRecurrence.remove\`). ${SCOPE}`,
        tags,
        querystring: RecurrenceQuery,
        body: NoBody,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async function deleteFecRecurrence(request) {
      const session = ownSession(request, request.query.id);
      const tx = writeTx(request);
      await requireCompanyScope(tx, request.query.societe, session.siteIds);
      await removeRecurrence(tx, auditActor(request), request.query.societe, request.query.recurrence);
      return { id: request.query.recurrence };
    },
  );
}

/** Registers bo/fec/runRecurrenceNow. */
function registerRunRoute(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/bo/fec/runRecurrenceNow',
    {
      config: { rights: 'POST bo/fec/runRecurrenceNow', write: true },
      schema: {
        summary: 'Runs a FEC recurrence now, as its rule would',
        description:
          'Queues a run (job `fec.recurrence.run`) planned now: it exports the period the rule gives for today, once ' +
          'that period is closed in every site of the company (otherwise the run waits and retries, its error says ' +
          'why). A period already exported by this recurrence gives no second file and no second mail. ' +
          `Audit-logged (\`fecRecurrence.run\`). 400 when the recurrence is inactive. ${SCOPE}`,
        tags,
        querystring: RecurrenceQuery,
        body: NoBody,
        response: { 200: FecRunNowAnswerSchema, ...errorResponses },
      },
    },
    async function runFecRecurrenceNow(request) {
      const session = ownSession(request, request.query.id);
      const { societe, recurrence: id } = request.query;
      const tx = writeTx(request);
      await requireCompanyScope(tx, societe, session.siteIds);
      const recurrence = await companyRecurrence(tx, societe, id);
      if (!recurrence.active) throw new DomainError('invalid', 'BadRequest', 'the recurrence is not active');
      await recordAudit(tx, auditActor(request), { action: 'fecRecurrence.run', targetId: id });
      const plannedAt = new Date();
      const data: FecRecurrenceRunData = { recurrenceId: id, plannedAt: plannedAt.toISOString() };
      const runId = await request.server.jobs.enqueueIn(tx, FEC_RECURRENCE_RUN, data, {
        singletonKey: `fec:${id}:now:${randomUUID()}`,
        plannedAt,
      });
      return { runId: runId ?? '', statut: 'QUEUED' as const };
    },
  );
}

/** Registers bo/fec/files and bo/fec/file. */
function registerFileRoutes(app: FastifyInstance, options: { database: Database; dataDir: string }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  api.get(
    '/bo/fec/files',
    {
      config: { rights: 'GET bo/fec/files' },
      schema: {
        summary: 'The FEC files the recurrences of a company kept',
        description: `Newest first (200 at most), each with its period and the run that wrote it. ${SCOPE}`,
        tags,
        querystring: CompanyQuery,
        response: { 200: FecFilesAnswerSchema, ...errorResponses },
      },
    },
    async function fecFiles(request) {
      const session = ownSession(request, request.query.id);
      await requireCompanyScope(pool, request.query.societe, session.siteIds);
      return { fichiers: await companyFiles(pool, request.query.societe) };
    },
  );

  api.get(
    '/bo/fec/file',
    {
      config: { rights: 'GET bo/fec/file' },
      schema: {
        summary: 'Downloads a kept FEC file',
        description: `The file as the run kept it (ISO 8859-15, \`<SIREN>FEC<AAAAMMJJ>.txt\`). 404 when it is gone from the disk. ${SCOPE}`,
        tags,
        querystring: FileQuery,
        response: {
          200: documentAnswer(z.unknown().describe('text/plain; charset=ISO-8859-15: the FEC file'), [
            'text/plain',
          ]),
          ...errorResponses,
        },
      },
    },
    async function fecFile(request, reply) {
      const session = ownSession(request, request.query.id);
      await requireCompanyScope(pool, request.query.societe, session.siteIds);
      const file = await companyFile(pool, request.query.societe, request.query.fichier);
      const bytes = await readFile(path.join(options.dataDir, file.path)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new DomainError('notFound', 'NotFound', 'the file is gone from the disk');
        }
        throw error;
      });
      reply.header('Content-Type', 'text/plain; charset=ISO-8859-15');
      reply.header('Content-Disposition', contentDisposition(file.fileName));
      return reply.send(bytes);
    },
  );
}
