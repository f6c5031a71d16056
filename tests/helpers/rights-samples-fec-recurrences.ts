/**
 * Rights-matrix samples (tests/helpers/rights-samples.ts) of the FEC recurrences (issue #29,
 * decision 0043): right FEC_CONFIGURATION, every site of the company in the caller's scope. As
 * the FEC's own samples, each acts on a company made for it without sites (in any scope), so the
 * scope case is tested in tests/server/fec/fec-recurrences.test.ts. A recurrence and a kept file
 * are written straight into the tables (and the file into the test configuration's DATA_DIR).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sample, SampleContext } from './rights-samples.ts';

const SCOPE =
  "none: a FEC recurrence is a company's, refused unless every site of the company is in the scope; the " +
  "sample's company has no site, so the scope case is tested in tests/server/fec/fec-recurrences.test.ts";

let serial = 0;

function api(route: string, params: Record<string, string | number>): string {
  return `/api/${route}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
}

/** A company without sites, with a SIREN; its id. */
async function company(ctx: SampleContext): Promise<number> {
  const { rows } = await ctx.t.database.pool.query<{ id: number }>(
    "INSERT INTO companies (raison_sociale, siren) VALUES ($1, '552100554') RETURNING id",
    [`fec-recurrence-${process.pid}-${++serial}`],
  );
  return rows[0]!.id;
}

/** A recurrence of `companyId` (monthly, previous month); its id. */
async function recurrence(ctx: SampleContext, companyId: number): Promise<number> {
  const { rows } = await ctx.t.database.pool.query<{ id: number }>(
    `INSERT INTO fec_recurrences (company_id, libelle, type, hour, minute, period, recipients, language)
     VALUES ($1, 'FEC du mois précédent', 'MONTHLY', 6, 0, 'PREVIOUS_MONTH', '{}', 'fr') RETURNING id`,
    [companyId],
  );
  return rows[0]!.id;
}

/** A kept file of `companyId` (an empty FEC's header line) under DATA_DIR; its id. */
async function keptFile(ctx: SampleContext, companyId: number): Promise<number> {
  const relative = path.join('fec', String(companyId), 'matrix', '552100554FEC20260331.txt');
  const absolute = path.join(ctx.t.config.dataDir, relative);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, 'JournalCode\tJournalLib\r\n');
  const { rows } = await ctx.t.database.pool.query<{ id: number }>(
    `INSERT INTO fec_files (company_id, libelle, date_debut, date_fin, file_name, path, bytes)
     VALUES ($1, 'FEC', '2026-03-01', '2026-03-31', '552100554FEC20260331.txt', $2, 24) RETURNING id`,
    [companyId, relative],
  );
  return rows[0]!.id;
}

export const FEC_RECURRENCE_SAMPLES: Readonly<Record<string, Sample>> = {
  'GET bo/fec/recurrences': {
    site: SCOPE,
    request: async (ctx) => ({
      method: 'GET',
      url: api('bo/fec/recurrences', { id: ctx.caller.id, societe: await company(ctx) }),
    }),
  },
  'POST bo/fec/saveRecurrence': {
    site: SCOPE,
    request: async (ctx) => ({
      method: 'POST',
      url: api('bo/fec/saveRecurrence', { id: ctx.caller.id, societe: await company(ctx) }),
      payload: { libelle: 'FEC mensuel' },
    }),
  },
  'POST bo/fec/deleteRecurrence': {
    site: SCOPE,
    request: async (ctx) => {
      const societe = await company(ctx);
      return {
        method: 'POST',
        url: api('bo/fec/deleteRecurrence', {
          id: ctx.caller.id,
          societe,
          recurrence: await recurrence(ctx, societe),
        }),
      };
    },
  },
  'POST bo/fec/runRecurrenceNow': {
    site: SCOPE,
    request: async (ctx) => {
      const societe = await company(ctx);
      return {
        method: 'POST',
        url: api('bo/fec/runRecurrenceNow', {
          id: ctx.caller.id,
          societe,
          recurrence: await recurrence(ctx, societe),
        }),
      };
    },
  },
  'GET bo/fec/files': {
    site: SCOPE,
    request: async (ctx) => ({
      method: 'GET',
      url: api('bo/fec/files', { id: ctx.caller.id, societe: await company(ctx) }),
    }),
  },
  'GET bo/fec/file': {
    site: SCOPE,
    request: async (ctx) => {
      const societe = await company(ctx);
      return {
        method: 'GET',
        url: api('bo/fec/file', { id: ctx.caller.id, societe, fichier: await keptFile(ctx, societe) }),
      };
    },
  },
};
