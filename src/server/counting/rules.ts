/**
 * Counting rules (SPEC.md §3 "Rule: libelle, active"): every site has the rules of
 * RULE_LIBELLES; a rule never changed has its default (RULE_DEFAULTS), only changes are stored
 * (`counting_rules`), so a new site needs no seeding. An active rule makes the matching part of
 * a cash count required.
 */
import {
  RULE_DEFAULTS,
  RULE_LIBELLES,
  type RequiredCounts,
  type Rule,
  type RuleLibelle,
} from '../../contract/counting.ts';
import type { Queryable } from '../db/queryable.ts';

/** The rules of `siteIds` (ascending site, then RULE_LIBELLES order), defaults filled in. */
export async function rulesOf(db: Queryable, siteIds: readonly number[]): Promise<Rule[]> {
  const { rows } = await db.query<{ site_id: number; libelle: string; active: boolean }>(
    'SELECT site_id, libelle, active FROM counting_rules WHERE site_id = ANY($1)',
    [siteIds],
  );
  const stored = new Map(rows.map((r) => [`${r.site_id}:${r.libelle}`, r.active]));
  return [...siteIds]
    .sort((a, b) => a - b)
    .flatMap((restaurantId) =>
      RULE_LIBELLES.map((libelle) => ({
        restaurantId,
        libelle,
        active: stored.get(`${restaurantId}:${libelle}`) ?? RULE_DEFAULTS[libelle],
      })),
    );
}

/** Which parts of a cash count the (one site's) `rules` require. */
export function requiredCounts(rules: readonly Rule[]): RequiredCounts {
  const on = (l: RuleLibelle) => rules.some((r) => r.libelle === l && r.active);
  return {
    cash: on('comptageEspeces'),
    cheques: on('comptageCheques'),
    mealVouchers: on('comptageTicketsRestaurant'),
    cardSlips: on('comptageCartes'),
  };
}

/**
 * Turns rule `libelle` on or off on every site of `siteIds`, recorded as changed by `userId`;
 * answers the rule as it now stands on each of those sites (ascending site). The update takes
 * the inserted row's `now()` (`EXCLUDED.updated_at`, the same transaction time): Citus refuses a
 * function that is not IMMUTABLE in `DO UPDATE SET` on a distributed table.
 */
export async function setRule(
  db: Queryable,
  siteIds: readonly number[],
  libelle: RuleLibelle,
  active: boolean,
  userId: number,
): Promise<Rule[]> {
  await db.query(
    `INSERT INTO counting_rules (site_id, libelle, active, updated_by, updated_at)
     SELECT s, $2, $3, $4, now() FROM unnest($1::int[]) AS s
     ON CONFLICT (site_id, libelle) DO UPDATE
       SET active = EXCLUDED.active, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [siteIds, libelle, active, userId],
  );
  return (await rulesOf(db, siteIds)).filter((r) => r.libelle === libelle);
}
