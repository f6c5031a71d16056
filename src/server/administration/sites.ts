/**
 * Sites as the chain's administration sees and changes them (issue #18, `/config/sites`): every
 * site with its terminals and sellers, including the one labelled 'NON REMPLI' (flagged
 * `hidden`, SPEC.md §3), and POST bo/infra/newSite / saveSite. Shapes in
 * src/contract/administration.ts (AdminSiteSchema, SiteInputSchema).
 *
 * Guarantees:
 * - `code_implant` is kept in the `code_implant` column AND in `extras.code_implant`, the place
 *   SPEC.md §3 reads it from (bo/getSites answers the column's value under that key);
 * - the time zone is an IANA zone Intl knows, stored under its canonical spelling; `dayStart`
 *   is `HH:mm` (the contract checks it). Changing them changes how later imports assign fiscal
 *   dates; tickets already imported keep theirs;
 * - terminals and sellers given are renamed or added, never removed (tickets name them);
 * - every change is written to the audit log in the caller's transaction, with before/after.
 *
 * Caches holding sites (the session check's scope, the reports' site lookup) are emptied by
 * the change feed's triggers on `sites` and `companies` (db/changes.ts, migration 0007).
 */
import type { z } from 'zod';
import type { AdminSite, SiteInputSchema } from '../../contract/administration.ts';
import type { Seller, Terminal } from '../../contract/api.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import { sequentialOnCitus } from '../db/citus.ts';
import type { Queryable } from '../db/queryable.ts';
import {
  requireCompanyAdministered,
  requireSiteAdministered,
  requireSiteStillReached,
  siteReach,
} from './admin-scope.ts';
import {
  invalidField,
  notFound,
  requireExisting,
  requireFreeName,
  uniqueName,
} from './company-site-checks.ts';

/** A site to save as the contract's schema parsed it. */
export type SiteToSave = z.output<typeof SiteInputSchema>;

/** The label of a site hidden everywhere but here (SPEC.md §3). */
export const HIDDEN_SITE_LABEL = 'NON REMPLI';

interface AdminSiteRow {
  id: number;
  libelle: string;
  company_id: number;
  code_implant: string | null;
  currency: string;
  time_zone: string;
  day_start: string;
  caisses: Terminal[];
  vendeurs: Seller[];
}

function toAdminSite(r: AdminSiteRow): AdminSite {
  return {
    restaurantId: r.id,
    libelle: r.libelle,
    societeId: r.company_id,
    codeImplant: r.code_implant,
    currency: r.currency,
    timeZone: r.time_zone,
    dayStart: r.day_start,
    hidden: r.libelle.trim().toUpperCase() === HIDDEN_SITE_LABEL,
    caisses: r.caisses,
    vendeurs: r.vendeurs,
  };
}

/**
 * Every site (or only sites `ids` when given), ascending restaurantId, with its terminals (by
 * number) and sellers (by code). Sites labelled 'NON REMPLI' are listed with `hidden: true`.
 *
 * Terminals and sellers are aggregated per `site_id` in subqueries, then joined to the sites: on
 * a Citus cluster `sites` is a reference table and `terminals` / `sellers` are distributed by
 * `site_id`, and Citus plans no correlated subquery from the one into the others (decision 0042,
 * 2026-12-07). For the same cluster, the caller's transaction reaches the workers over one
 * connection each from here on ({@link sequentialOnCitus}): the saves read the sites before
 * writing `sites` or `companies`, reference tables Citus will not write after a parallel read.
 */
export async function listAdminSites(db: Queryable, ids?: readonly number[]): Promise<AdminSite[]> {
  await sequentialOnCitus(db);
  const { rows } = await db.query<AdminSiteRow>(
    `SELECT s.id, s.libelle, s.company_id, s.code_implant, s.currency, s.time_zone, s.day_start,
          coalesce(t.caisses, '[]') AS caisses, coalesce(v.vendeurs, '[]') AS vendeurs
     FROM sites s
     LEFT JOIN (SELECT site_id, json_agg(json_build_object('id', terminal_id, 'libelle', libelle) ORDER BY terminal_id) AS caisses
                  FROM terminals WHERE $1::int[] IS NULL OR site_id = ANY($1::int[]) GROUP BY site_id) t ON t.site_id = s.id
     LEFT JOIN (SELECT site_id, json_agg(json_build_object('code', code, 'nom', nom) ORDER BY code) AS vendeurs
                  FROM sellers WHERE $1::int[] IS NULL OR site_id = ANY($1::int[]) GROUP BY site_id) v ON v.site_id = s.id
     WHERE $1::int[] IS NULL OR s.id = ANY($1::int[]) ORDER BY s.id`,
    [ids ? [...ids] : null],
  );
  return rows.map(toAdminSite);
}

/**
 * The canonical spelling of IANA time zone `timeZone` (e.g. `europe/paris` → `Europe/Paris`).
 * @throws DomainError invalid `InvalidField` `{ field: 'timeZone' }` when Intl does not know it.
 */
export function canonicalTimeZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: timeZone.trim() }).resolvedOptions().timeZone;
  } catch {
    throw invalidField('timeZone', `unknown time zone "${timeZone}"`);
  }
}

/**
 * Refuses terminal numbers or seller codes given twice, and empty names.
 * @throws DomainError invalid `InvalidField` `{ field: 'caisses' | 'vendeurs', duplicate? }`.
 */
function checkTerminalsAndSellers(input: SiteToSave): void {
  const check = (field: string, keys: string[], names: string[]) => {
    if (new Set(keys).size !== keys.length)
      throw invalidField(field, `${field}: a key is given twice`, { duplicate: true });
    if (names.some((n) => n.trim() === '')) throw invalidField(field, `${field}: a name is empty`);
  };
  const caisses = input.caisses ?? [];
  const vendeurs = input.vendeurs ?? [];
  check(
    'caisses',
    caisses.map((c) => String(c.id)),
    caisses.map((c) => c.libelle),
  );
  check(
    'vendeurs',
    vendeurs.map((v) => v.code.trim()),
    vendeurs.map((v) => v.nom),
  );
  if (vendeurs.some((v) => v.code.trim() === '')) throw invalidField('vendeurs', 'vendeurs: a code is empty');
}

/**
 * Checks a site to save and answers it with its time zone in canonical spelling.
 * @throws DomainError invalid `InvalidField` for a duplicate libelle (`duplicate: true`), an
 *   unknown company (`societeId`), time zone, or bad terminals and sellers.
 */
async function checkedSite(db: Queryable, input: SiteToSave, exceptId: number | null): Promise<SiteToSave> {
  const timeZone = canonicalTimeZone(input.timeZone);
  checkTerminalsAndSellers(input);
  await requireFreeName(db, 'sites', 'libelle', input.libelle, exceptId);
  await requireExisting(db, 'companies', 'societeId', [input.societeId]);
  return { ...input, timeZone };
}

/** Renames or adds the terminals and sellers `input` lists on site `siteId`; others are kept. */
async function writeTerminalsAndSellers(db: Queryable, siteId: number, input: SiteToSave): Promise<void> {
  if (input.caisses && input.caisses.length > 0) {
    await db.query(
      `INSERT INTO terminals (site_id, terminal_id, libelle)
       SELECT $1, t.id, t.libelle FROM unnest($2::int[], $3::text[]) AS t(id, libelle)
       ON CONFLICT (site_id, terminal_id) DO UPDATE SET libelle = EXCLUDED.libelle`,
      [siteId, input.caisses.map((c) => c.id), input.caisses.map((c) => c.libelle.trim())],
    );
  }
  if (input.vendeurs && input.vendeurs.length > 0) {
    await db.query(
      `INSERT INTO sellers (site_id, code, nom)
       SELECT $1, v.code, v.nom FROM unnest($2::text[], $3::text[]) AS v(code, nom)
       ON CONFLICT (site_id, code) DO UPDATE SET nom = EXCLUDED.nom`,
      [siteId, input.vendeurs.map((v) => v.code.trim()), input.vendeurs.map((v) => v.nom.trim())],
    );
  }
}

/** What the audit log keeps of a site (terminals and sellers included: they are few and named). */
function auditView(site: AdminSite): Record<string, unknown> {
  const { hidden: _hidden, ...rest } = site;
  return rest;
}

/**
 * Creates a site (POST bo/infra/newSite) with its terminals and sellers; audit `site.create`.
 * Call inside a transaction.
 * @throws DomainError invalid `InvalidField` (see {@link checkedSite}).
 */
export async function createSite(db: Queryable, actor: AuditActor, input: SiteToSave): Promise<AdminSite> {
  const site = await checkedSite(db, input, null);
  const { rows } = await uniqueName('libelle', site.libelle, () =>
    db.query<{ id: number }>(
      `INSERT INTO sites (libelle, company_id, code_implant, currency, time_zone, day_start, extras)
       VALUES ($1, $2, $3, $4, $5, $6, jsonb_build_object('code_implant', $3::text)) RETURNING id`,
      [site.libelle, site.societeId, site.codeImplant, site.currency, site.timeZone, site.dayStart],
    ),
  );
  const id = rows[0]!.id;
  await requireSiteStillReached(db, actor.userId, id);
  await writeTerminalsAndSellers(db, id, site);
  const [created] = await listAdminSites(db, [id]);
  await recordAudit(db, actor, {
    action: 'site.create',
    targetId: id,
    before: null,
    after: auditView(created!),
  });
  return created!;
}

/**
 * Saves site `id` (POST bo/infra/saveSite?id): its fields replaced by `input`, terminals and
 * sellers renamed or added; audit `site.save` with before/after. A new `societeId` moves the
 * site to that company (the scope of users holding companies changes with it). Call inside a
 * transaction.
 * @throws DomainError notFound `NotFound` for an unknown site; invalid `InvalidField` (see
 *   {@link checkedSite}).
 */
export async function saveSite(
  db: Queryable,
  actor: AuditActor,
  id: number,
  input: SiteToSave,
): Promise<AdminSite> {
  const locked = await db.query('SELECT id FROM sites WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rows.length === 0) throw notFound('site', id);
  const reach = await siteReach(db, actor.userId);
  await requireSiteAdministered(db, reach, id);
  const [before] = await listAdminSites(db, [id]);
  if (input.societeId !== before!.societeId) await requireCompanyAdministered(db, reach, input.societeId);
  const site = await checkedSite(db, input, id);
  await uniqueName('libelle', site.libelle, () =>
    db.query(
      `UPDATE sites SET libelle = $2, company_id = $3, code_implant = $4, currency = $5, time_zone = $6,
              day_start = $7, extras = extras || jsonb_build_object('code_implant', $4::text)
        WHERE id = $1`,
      [id, site.libelle, site.societeId, site.codeImplant, site.currency, site.timeZone, site.dayStart],
    ),
  );
  if (site.societeId !== before!.societeId) await requireSiteStillReached(db, actor.userId, id);
  await writeTerminalsAndSellers(db, id, site);
  const [after] = await listAdminSites(db, [id]);
  await recordAudit(db, actor, {
    action: 'site.save',
    targetId: id,
    before: auditView(before!),
    after: auditView(after!),
  });
  return after!;
}

/**
 * Moves site `siteId` into company `companyId` (newSociete's `restaurantId`, SPEC.md §7); audit
 * `site.save` with the old and new `societeId`. Nothing happens when it is there already.
 * @throws DomainError invalid `InvalidField` `{ field: 'restaurantId' }` for an unknown site.
 */
export async function moveSite(
  db: Queryable,
  actor: AuditActor,
  siteId: number,
  companyId: number,
): Promise<void> {
  const { rows } = await db.query<{ company_id: number }>(
    'SELECT company_id FROM sites WHERE id = $1 FOR UPDATE',
    [siteId],
  );
  const from = rows[0]?.company_id;
  if (from === undefined) throw invalidField('restaurantId', `unknown site ${siteId}`, { unknown: [siteId] });
  if (from === companyId) return;
  const reach = await siteReach(db, actor.userId);
  await requireSiteAdministered(db, reach, siteId);
  await requireCompanyAdministered(db, reach, companyId);
  await db.query('UPDATE sites SET company_id = $2 WHERE id = $1', [siteId, companyId]);
  await requireSiteStillReached(db, actor.userId, siteId);
  await recordAudit(db, actor, {
    action: 'site.save',
    targetId: siteId,
    before: { societeId: from },
    after: { societeId: companyId },
  });
}
