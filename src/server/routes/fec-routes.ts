/**
 * GET bo/fec/plan, POST bo/fec/savePlan: the company's account plan, read and saved (a write:
 * one transaction with its audit entry, Idempotency-Key honoured), same right and scope as the export.
 *
 * GET bo/fec/export (issue #29, docs/decisions/0037): the FEC of one company (`societe`) for a
 * period, as `<SIREN>FEC<AAAAMMJJ>.txt` in ISO 8859-15. The file is built and checked by
 * ../fec/company-fec.ts; a file that fails its checks is never sent: the answer is then the
 * SPEC.md §8 error `FecCheckFailed` (400) naming the first entry and rule (the violations in details).
 * Right FEC_CONFIGURATION; the company's sites must all be in the caller's scope.
 */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysInclusive, parseWireDate, toWireDate } from '../../contract/dates.ts';
import { INT4_MAX } from '../../contract/integers.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { FecPlanInputSchema, FecPlanSchema } from '../../contract/fec.ts';
import {
  companyFec,
  ForeignCurrencySitesError,
  NoSirenError,
  requireCompanyScope,
} from '../fec/company-fec.ts';
import { MissingAccountError } from '../fec/entries.ts';
import { companyPlan, companyPlanAnswer, saveCompanyPlan } from '../fec/plan-store.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { auditActor } from './admin-write-helpers.ts';
import { documentAnswer, errorResponses, ownSession, UserIdParam } from './common.ts';

/** The longest period one FEC covers: two years, for a long first fiscal year. */
const MAX_FEC_DAYS = 731;

const WireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');

const Societe = z.coerce.number().int().positive().max(INT4_MAX).describe('company (société) id');

const FecPlanQuerySchema = z.object({ id: UserIdParam, societe: Societe });

const FecExportQuerySchema = z.object({
  id: UserIdParam,
  societe: Societe,
  dateDebut: WireDate.describe('first fiscal date, YYYY-MM-DD'),
  dateFin: WireDate.describe('last fiscal date, YYYY-MM-DD (included); the file is named after it'),
  exclureHorsEuro: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true: leave out the sites not kept in EUR (listed in the X-Fec-Sites-Exclus header); ' +
        'absent or false: a company with such sites answers 400 FecForeignCurrency',
    ),
});

/** The answer header naming the sites left out of the file: `<site id>:<currency>`, comma separated. */
export const EXCLUDED_SITES_HEADER = 'X-Fec-Sites-Exclus';

/** Registers bo/fec/plan and bo/fec/savePlan. */
function registerPlanRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/bo/fec/plan',
    {
      config: { rights: 'GET bo/fec/plan' },
      schema: {
        summary: "A company's FEC account plan",
        description:
          'Every role of the plan (sales and VAT per rate, each payment method, rounding 658 / 758) with the ' +
          "company's account and label, and the default of decision 0037 beside it; `saved` false while the " +
          "company has none saved. 403 when a site of the company is outside the caller's scope.",
        tags: ['fec'],
        querystring: FecPlanQuerySchema,
        response: { 200: FecPlanSchema, ...errorResponses },
      },
    },
    async function fecPlan(request) {
      const session = ownSession(request, request.query.id);
      await requireCompanyScope(database.pool, request.query.societe, session.siteIds);
      return companyPlanAnswer(database.pool, request.query.societe);
    },
  );

  api.post(
    '/bo/fec/savePlan',
    {
      config: { rights: 'POST bo/fec/savePlan', write: true },
      schema: {
        summary: "Replaces a company's FEC account plan",
        description:
          'The body lists accounts by role; a role left out takes its default (so an empty list resets the plan). ' +
          'Every account must be a PCG number (digits, class 1 to 8, at least 3 digits). 400 InvalidField with ' +
          'details.field `account`, `label` or `role` and details.role, nothing saved. Audit-logged ' +
          "(`fecPlan.save`); the next exports use it. 403 when a site of the company is outside the caller's scope.",
        tags: ['fec'],
        querystring: FecPlanQuerySchema,
        body: FecPlanInputSchema,
        response: { 200: FecPlanSchema, ...errorResponses },
      },
    },
    async function saveFecPlan(request) {
      const session = ownSession(request, request.query.id);
      const tx = writeTx(request);
      await requireCompanyScope(tx, request.query.societe, session.siteIds);
      return saveCompanyPlan(tx, auditActor(request), request.query.societe, request.body);
    },
  );
}

/** Registers bo/fec/plan, bo/fec/savePlan and bo/fec/export. */
export async function fecRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;
  registerPlanRoutes(app, database);

  api.get(
    '/bo/fec/export',
    {
      config: { rights: 'GET bo/fec/export' },
      schema: {
        summary: "A company's FEC (Fichier des Écritures Comptables) for a period",
        description:
          'The sales journal (VE) of company `societe` from `dateDebut` to `dateFin` as the FEC of article A47 A-1 ' +
          'of the Livre des procédures fiscales: the 18 fields, tab separated, ISO 8859-15, one balanced entry per ' +
          'site and fiscal date (debit per payment method, credit sales excl. VAT and VAT collected per rate), named ' +
          '`<SIREN>FEC<AAAAMMJJ>.txt` after `dateFin`. The file is checked against the official rules before it is ' +
          'sent; a failed check answers 400 FecCheckFailed (details.violations: line, entry, rule) and no file. ' +
          '400 FecMissingAccount when the account plan lacks an account met (details: key, site, date), 400 ' +
          'FecNoSiren when the company has no SIREN. A FEC is kept in euros and we have no exchange rate for its ' +
          'foreign-currency fields: a company with sites not kept in EUR answers 400 FecForeignCurrency ' +
          '(details.sites: id, libelle, devise; details.noms: "name (currency)", comma separated) and no file, unless `exclureHorsEuro=true`, which writes the EUR ' +
          'sites only and names the others in the `X-Fec-Sites-Exclus` header (`<site id>:<currency>`, comma ' +
          "separated; absent when none). 403 when a site of the company is outside the caller's scope.",
        tags: ['fec'],
        querystring: FecExportQuerySchema,
        response: {
          200: documentAnswer(
            z.unknown().describe('text/plain; charset=ISO-8859-15: the FEC file'),
            ['text/plain'],
            {
              [EXCLUDED_SITES_HEADER]:
                'With exclureHorsEuro=true, the sites left out because they are not kept in EUR: ' +
                '`<site id>:<currency>`, comma separated; absent when none.',
            },
          ),
          ...errorResponses,
        },
      },
    },
    async function exportFec(request, reply) {
      const session = ownSession(request, request.query.id);
      const { societe, dateDebut, dateFin, exclureHorsEuro } = request.query;
      if (dateFin < dateDebut) throw new DomainError('invalid', 'BadRequest', 'dateFin is before dateDebut');
      if (daysInclusive(dateDebut, dateFin) > MAX_FEC_DAYS) {
        throw new DomainError('invalid', 'MaxReportDays', 'period too long for one FEC', {
          maxDays: MAX_FEC_DAYS,
        });
      }
      await requireCompanyScope(database.pool, societe, session.siteIds);
      const fec = await companyFec(
        database,
        societe,
        dateDebut,
        dateFin,
        toWireDate(new Date()),
        await companyPlan(database.pool, societe),
        { excludeForeign: exclureHorsEuro === 'true' },
      ).catch((error: unknown) => {
        if (error instanceof ForeignCurrencySitesError) {
          throw new DomainError('invalid', 'FecForeignCurrency', error.message, {
            sites: error.sites,
            noms: error.sites.map((s) => `${s.libelle} (${s.devise})`).join(', '),
          });
        }
        if (error instanceof NoSirenError) {
          throw new DomainError('invalid', 'FecNoSiren', 'the company has no SIREN');
        }
        if (error instanceof MissingAccountError) {
          throw new DomainError('invalid', 'FecMissingAccount', error.message, {
            key: error.key,
            site: error.siteId,
            date: error.date,
          });
        }
        throw error;
      });
      if (!fec) throw new DomainError('notFound', 'NotFound', 'no such company');
      const first = fec.violations[0];
      if (first) {
        throw new DomainError('invalid', 'FecCheckFailed', `entry ${first.entry}: ${first.rule}`, {
          entry: first.entry,
          rule: first.rule,
          violations: fec.violations.slice(0, 100),
        });
      }
      if (fec.excludedSites.length > 0) {
        reply.header(EXCLUDED_SITES_HEADER, fec.excludedSites.map((s) => `${s.id}:${s.devise}`).join(','));
      }
      reply.header('Content-Type', 'text/plain; charset=ISO-8859-15');
      reply.header('Content-Disposition', contentDisposition(fec.fileName));
      return reply.send(fec.bytes);
    },
  );
}
