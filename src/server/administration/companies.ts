/**
 * Companies (sociétés, raisons sociales, SPEC.md §3) as the chain's administration sees and
 * changes them (issue #18, `/config/sites`): GET bo/infra/getSocietes, POST newSociete,
 * saveSociete?id, GET removeSociete?id. Shapes in src/contract/administration.ts.
 *
 * Guarantees:
 * - a SIRET's first nine digits are the SIREN when both are given; raisons sociales are unique
 *   (trimmed, ignoring case);
 * - a company is removed only when nothing uses it: no site runs under it, and no group, profile
 *   or user adds or removes it (`societesPlus` / `societesMoins`), since those lists hold ids
 *   with no foreign key and would silently point at nothing;
 * - every change is written to the audit log in the caller's transaction, with before/after; a
 *   site moved by newSociete's `restaurantId` gets its own `site.save` entry.
 *
 * A site moved to another company changes the scope of users holding companies (SPEC.md §6):
 * the session cache is emptied by the change feed's triggers on `sites` and `companies`.
 */
import type { z } from 'zod';
import type { Societe, SocieteInputSchema } from '../../contract/administration.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { requireAllSitesAdministrator, requireCompanyAdministered, siteReach } from './admin-scope.ts';
import { invalidField, notFound, requireFreeName, uniqueName } from './company-site-checks.ts';
import { listAdminSites, moveSite } from './sites.ts';

/** A company to save as the contract's schema parsed it. */
export type CompanyToSave = z.output<typeof SocieteInputSchema>;

interface CompanyRow {
  id: number;
  raison_sociale: string;
  enseigne: string | null;
  siren: string | null;
  siret: string | null;
  code_licence: string | null;
  code_implant: string | null;
}

/**
 * Every company (or only company `id`), by raison sociale, with its sites (every site, the
 * 'NON REMPLI' one flagged `hidden`), their terminals and sellers.
 */
export async function listSocietes(db: Queryable, id?: number): Promise<Societe[]> {
  const { rows } = await db.query<CompanyRow>(
    `SELECT id, raison_sociale, enseigne, siren, siret, code_licence, code_implant
       FROM companies WHERE $1::int IS NULL OR id = $1 ORDER BY raison_sociale, id`,
    [id ?? null],
  );
  const { rows: siteRows } = await db.query<{ id: number }>(
    'SELECT id FROM sites WHERE company_id = ANY($1::int[])',
    [rows.map((r) => r.id)],
  );
  const sites = await listAdminSites(
    db,
    siteRows.map((s) => s.id),
  );
  return rows.map((r) => {
    const own = sites.filter((s) => s.societeId === r.id);
    return {
      id: r.id,
      raisonSociale: r.raison_sociale,
      enseigne: r.enseigne,
      siren: r.siren,
      siret: r.siret,
      codeLicence: r.code_licence,
      codeImplant: r.code_implant,
      restaurantId: own[0]?.restaurantId ?? null,
      restaurantIds: own.map((s) => s.restaurantId),
      sites: own,
    };
  });
}

/**
 * Checks a company to save.
 * @throws DomainError invalid `InvalidField`: `{ field: 'siret' }` when the SIRET does not start
 *   with the SIREN; `{ field: 'raisonSociale', duplicate: true }` when the name is taken.
 */
async function checkCompany(db: Queryable, input: CompanyToSave, exceptId: number | null): Promise<void> {
  if (input.siren && input.siret && !input.siret.startsWith(input.siren)) {
    throw invalidField('siret', 'the SIRET must start with the SIREN');
  }
  await requireFreeName(db, 'companies', 'raisonSociale', input.raisonSociale, exceptId);
}

/** What the audit log keeps of a company: its own fields and the ids of its sites. */
function auditView(company: Societe): Record<string, unknown> {
  const { sites: _sites, restaurantId: _first, ...rest } = company;
  return rest;
}

/** The company `id` as listed, read inside the caller's transaction. */
async function readCompany(db: Queryable, id: number): Promise<Societe> {
  const [company] = await listSocietes(db, id);
  if (!company) throw notFound('company', id);
  return company;
}

/**
 * Creates a company (POST bo/infra/newSociete); `restaurantId` moves that existing site into it
 * (SPEC.md §7). Audit `company.create` (and `site.save` for the moved site). Call inside a
 * transaction.
 * @throws DomainError invalid `InvalidField` (see {@link checkCompany}; `{ field:
 *   'restaurantId' }` for an unknown site).
 */
export async function createCompany(
  db: Queryable,
  actor: AuditActor,
  input: CompanyToSave,
): Promise<Societe> {
  requireAllSitesAdministrator(await siteReach(db, actor.userId), 'a new company');
  await checkCompany(db, input, null);
  const { rows } = await uniqueName('raisonSociale', input.raisonSociale, () =>
    db.query<{ id: number }>(
      `INSERT INTO companies (raison_sociale, enseigne, siren, siret, code_licence, code_implant)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [input.raisonSociale, input.enseigne, input.siren, input.siret, input.codeLicence, input.codeImplant],
    ),
  );
  const id = rows[0]!.id;
  if (input.restaurantId !== undefined) await moveSite(db, actor, input.restaurantId, id);
  const created = await readCompany(db, id);
  await recordAudit(db, actor, {
    action: 'company.create',
    targetId: id,
    before: null,
    after: auditView(created),
  });
  return created;
}

/**
 * Saves company `id` (POST bo/infra/saveSociete?id): its fields replaced by `input`;
 * `restaurantId`, when given, moves that site into it too (nothing when it is there already).
 * Audit `company.save` with before/after. Call inside a transaction.
 * @throws DomainError notFound `NotFound` for an unknown company; invalid `InvalidField` (see
 *   {@link createCompany}).
 */
export async function saveCompany(
  db: Queryable,
  actor: AuditActor,
  id: number,
  input: CompanyToSave,
): Promise<Societe> {
  const locked = await db.query('SELECT id FROM companies WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rows.length === 0) throw notFound('company', id);
  await requireCompanyAdministered(db, await siteReach(db, actor.userId), id);
  const before = await readCompany(db, id);
  await checkCompany(db, input, id);
  await uniqueName('raisonSociale', input.raisonSociale, () =>
    db.query(
      `UPDATE companies SET raison_sociale = $2, enseigne = $3, siren = $4, siret = $5, code_licence = $6,
              code_implant = $7 WHERE id = $1`,
      [
        id,
        input.raisonSociale,
        input.enseigne,
        input.siren,
        input.siret,
        input.codeLicence,
        input.codeImplant,
      ],
    ),
  );
  if (input.restaurantId !== undefined) await moveSite(db, actor, input.restaurantId, id);
  const after = await readCompany(db, id);
  await recordAudit(db, actor, {
    action: 'company.save',
    targetId: id,
    before: auditView(before),
    after: auditView(after),
  });
  return after;
}

/** Names of what still uses company `id`: its sites, and the groups, profiles and users naming it. */
async function usersOfCompany(db: Queryable, id: number): Promise<Record<string, string[]>> {
  const { rows } = await db.query<{ sites: string[]; groups: string[]; profiles: string[]; users: string[] }>(
    `SELECT
       array(SELECT libelle FROM sites WHERE company_id = $1 ORDER BY libelle) AS sites,
       array(SELECT raison_sociale FROM groups
              WHERE $1 = ANY(societes_plus) OR $1 = ANY(societes_moins) ORDER BY raison_sociale) AS groups,
       array(SELECT titre FROM profiles
              WHERE $1 = ANY(societes_plus) OR $1 = ANY(societes_moins) ORDER BY titre) AS profiles,
       array(SELECT login FROM users
              WHERE $1 = ANY(societes_plus) OR $1 = ANY(societes_moins) ORDER BY login) AS users`,
    [id],
  );
  const found = rows[0]!;
  return Object.fromEntries(Object.entries(found).filter(([, names]) => names.length > 0));
}

/**
 * Removes company `id` (GET bo/infra/removeSociete?id); audit `company.remove` with its fields
 * before. Call inside a transaction.
 * @throws DomainError notFound `NotFound` for an unknown company; conflict `InUse` (409) with
 *   `details` naming what uses it: `{ sites?, groups?, profiles?, users? }` (libelles, names,
 *   titles, logins).
 */
export async function removeCompany(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  const locked = await db.query('SELECT id FROM companies WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rows.length === 0) throw notFound('company', id);
  requireAllSitesAdministrator(await siteReach(db, actor.userId), `company ${id}`);
  const inUse = await usersOfCompany(db, id);
  if (Object.keys(inUse).length > 0) {
    throw new DomainError('conflict', 'InUse', `company ${id} is still used`, inUse);
  }
  const before = await readCompany(db, id);
  await db.query('DELETE FROM companies WHERE id = $1', [id]);
  await recordAudit(db, actor, {
    action: 'company.remove',
    targetId: id,
    before: auditView(before),
    after: null,
  });
}
