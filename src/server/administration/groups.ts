/**
 * Groups of sites (regroupements, SPEC.md §3) as the chain's administration sees and changes
 * them (issue #18, `/config/groupes`): GET bo/infra/getRegroupements without `id`, POST
 * newRegroupement, saveRegroupement?id, GET removeRegroupement?id. Shapes in
 * src/contract/administration.ts (AdminRegroupementSchema, RegroupementInputSchema).
 *
 * A group's effective sites are its own sites (`restaurantIds`) plus the sites of the companies
 * it adds (`societesPlus`), minus those of the companies it removes (`societesMoins`): removal
 * wins, as in a user's scope (auth/scope.ts). Their one definition is reference/site-groups.ts's
 * GROUP_SITES_SQL, which bo/getSites, getRegroupements?id and the reports read too.
 *
 * Removal: no profile, user or message refers to a group by id (profiles and messages target
 * sites and companies), so a group is always removable. Favourite reports may name a group
 * (`groupement`); the client already ignores a favourite's group that no longer exists.
 * Groups feed no server cache (the session holds sites, not groups; the report-site cache holds
 * each site's clock, currency and brand): a change shows at once, so the group routes need not
 * wait for the change feed as the site routes do (routes/admin-write-helpers.ts settleCaches).
 */
import type { z } from 'zod';
import type { AdminRegroupement, RegroupementInputSchema } from '../../contract/administration.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';
import { requireGroupAdministered, requireGroupSitesHeld, siteReach } from './admin-scope.ts';
import { notFound, requireExisting, requireFreeName, uniqueName } from './company-site-checks.ts';

/** A group to save as the contract's schema parsed it. */
export type GroupToSave = z.output<typeof RegroupementInputSchema>;

interface GroupRow {
  id: number;
  raison_sociale: string;
  restaurant_ids: number[];
  societes_plus: number[];
  societes_moins: number[];
  sites: number[];
  raisons_sociales: string[];
}

/**
 * Every group (or only group `id`), by name: its own sites, added and removed companies, its
 * effective sites (ascending) and the raisons sociales of the companies running them.
 */
export async function listAdminGroups(db: Queryable, id?: number): Promise<AdminRegroupement[]> {
  const { rows } = await db.query<GroupRow>(
    `WITH effective AS (SELECT * FROM ${GROUP_SITES_SQL} e WHERE $1::int IS NULL OR e.group_id = $1)
     SELECT g.id, g.raison_sociale, g.societes_plus, g.societes_moins,
            array(SELECT gs.site_id FROM group_sites gs WHERE gs.group_id = g.id ORDER BY gs.site_id) AS restaurant_ids,
            array(SELECT e.site_id FROM effective e WHERE e.group_id = g.id ORDER BY e.site_id) AS sites,
            array(SELECT DISTINCT c.raison_sociale
                    FROM effective e JOIN sites s ON s.id = e.site_id JOIN companies c ON c.id = s.company_id
                   WHERE e.group_id = g.id ORDER BY c.raison_sociale) AS raisons_sociales
       FROM groups g WHERE $1::int IS NULL OR g.id = $1
      ORDER BY g.raison_sociale, g.id`,
    [id ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    raisonSociale: r.raison_sociale,
    raisonsSociales: r.raisons_sociales,
    restaurantIds: r.restaurant_ids,
    societesPlus: r.societes_plus,
    societesMoins: r.societes_moins,
    sites: r.sites,
  }));
}

/** Ids given once each, ascending. */
function distinct(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * Checks a group to save.
 * @throws DomainError invalid `InvalidField`: `{ field: 'raisonSociale', duplicate: true }`;
 *   `{ field: 'restaurantIds' | 'societesIdPlus' | 'societesIdMoins', unknown }` for ids that
 *   do not exist.
 */
async function checkGroup(db: Queryable, input: GroupToSave, exceptId: number | null): Promise<void> {
  await requireFreeName(db, 'groups', 'raisonSociale', input.raisonSociale, exceptId);
  await requireExisting(db, 'sites', 'restaurantIds', input.restaurantIds);
  await requireExisting(db, 'companies', 'societesIdPlus', input.societesIdPlus);
  await requireExisting(db, 'companies', 'societesIdMoins', input.societesIdMoins);
}

/** Replaces the own sites of group `id` by `siteIds`. */
async function writeGroupSites(db: Queryable, id: number, siteIds: readonly number[]): Promise<void> {
  await db.query('DELETE FROM group_sites WHERE group_id = $1', [id]);
  await db.query('INSERT INTO group_sites (group_id, site_id) SELECT $1, unnest($2::int[])', [
    id,
    distinct(siteIds),
  ]);
}

/** What the audit log keeps of a group: all it answers. */
function auditView(group: AdminRegroupement): Record<string, unknown> {
  return { ...group };
}

/** Group `id` as listed. */
async function readGroup(db: Queryable, id: number): Promise<AdminRegroupement> {
  const [group] = await listAdminGroups(db, id);
  if (!group) throw notFound('group', id);
  return group;
}

/**
 * Creates a group (POST bo/infra/newRegroupement); audit `group.create`. Call inside a transaction.
 * @throws DomainError invalid `InvalidField` (see {@link checkGroup}).
 */
export async function createGroup(
  db: Queryable,
  actor: AuditActor,
  input: GroupToSave,
): Promise<AdminRegroupement> {
  await checkGroup(db, input, null);
  await requireGroupSitesHeld(db, await siteReach(db, actor.userId), input);
  const { rows } = await uniqueName('raisonSociale', input.raisonSociale, () =>
    db.query<{ id: number }>(
      'INSERT INTO groups (raison_sociale, societes_plus, societes_moins) VALUES ($1, $2, $3) RETURNING id',
      [input.raisonSociale, distinct(input.societesIdPlus), distinct(input.societesIdMoins)],
    ),
  );
  const id = rows[0]!.id;
  await writeGroupSites(db, id, input.restaurantIds);
  const created = await readGroup(db, id);
  await recordAudit(db, actor, {
    action: 'group.create',
    targetId: id,
    before: null,
    after: auditView(created),
  });
  return created;
}

/**
 * Saves group `id` (POST bo/infra/saveRegroupement?id): name, sites and company lists replaced
 * by `input`; audit `group.save` with before/after. Call inside a transaction.
 * @throws DomainError notFound `NotFound` for an unknown group; invalid `InvalidField` (see
 *   {@link checkGroup}).
 */
export async function saveGroup(
  db: Queryable,
  actor: AuditActor,
  id: number,
  input: GroupToSave,
): Promise<AdminRegroupement> {
  const locked = await db.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rows.length === 0) throw notFound('group', id);
  const before = await readGroup(db, id);
  await checkGroup(db, input, id);
  const reach = await siteReach(db, actor.userId);
  await requireGroupAdministered(db, reach, id);
  await requireGroupSitesHeld(db, reach, input);
  await uniqueName('raisonSociale', input.raisonSociale, () =>
    db.query('UPDATE groups SET raison_sociale = $2, societes_plus = $3, societes_moins = $4 WHERE id = $1', [
      id,
      input.raisonSociale,
      distinct(input.societesIdPlus),
      distinct(input.societesIdMoins),
    ]),
  );
  await writeGroupSites(db, id, input.restaurantIds);
  const after = await readGroup(db, id);
  await recordAudit(db, actor, {
    action: 'group.save',
    targetId: id,
    before: auditView(before),
    after: auditView(after),
  });
  return after;
}

/**
 * Removes group `id` (GET bo/infra/removeRegroupement?id) with its list of sites (the sites
 * stay); audit `group.remove` with the group before. Call inside a transaction.
 * @throws DomainError notFound `NotFound` for an unknown group.
 */
export async function removeGroup(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  const locked = await db.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [id]);
  if (locked.rows.length === 0) throw notFound('group', id);
  await requireGroupAdministered(db, await siteReach(db, actor.userId), id);
  const before = await readGroup(db, id);
  await db.query('DELETE FROM groups WHERE id = $1', [id]);
  await recordAudit(db, actor, {
    action: 'group.remove',
    targetId: id,
    before: auditView(before),
    after: null,
  });
}
