/**
 * What a group (regroupement) stands for (SPEC.md §3 Group, §6): its own sites, plus the sites of
 * the companies added (`societesPlus`), minus the sites of the companies removed
 * (`societesMoins`) — the same reading as the server's `sites` of AdminRegroupement, so the form
 * can show the effect of a choice before it is saved.
 */
import type { Societe } from '../../../contract/administration.ts';

/** The group form as chosen. */
export interface GroupDraft {
  raisonSociale: string;
  restaurantIds: number[];
  societesPlus: number[];
  societesMoins: number[];
}

/** Effective site ids of `draft`, in the order of `companies`' sites. */
export function effectiveSiteIds(
  draft: Omit<GroupDraft, 'raisonSociale'>,
  companies: readonly Societe[],
): number[] {
  const ids = new Set(draft.restaurantIds);
  for (const c of companies) {
    if (draft.societesPlus.includes(c.id)) for (const s of c.sites) ids.add(s.restaurantId);
  }
  for (const c of companies) {
    if (draft.societesMoins.includes(c.id)) for (const s of c.sites) ids.delete(s.restaurantId);
  }
  return companies.flatMap((c) => c.sites.map((s) => s.restaurantId)).filter((id) => ids.has(id));
}

/** Site id → label, over every company's sites. */
export function siteNames(companies: readonly Societe[]): Map<number, string> {
  return new Map(companies.flatMap((c) => c.sites.map((s) => [s.restaurantId, s.libelle] as const)));
}

/** Why the group form is refused before any call; message id `groupsAdmin.error.<code>`. */
export type GroupProblem = 'required' | 'tooLong' | 'plusAndMinus';

/**
 * Problems of a draft: a name is required (SPEC.md §5); a company cannot be both added and
 * removed (the result would depend on the order the server applies them).
 */
export function groupProblems(draft: GroupDraft): { name?: GroupProblem; companies?: GroupProblem } {
  const out: { name?: GroupProblem; companies?: GroupProblem } = {};
  const name = draft.raisonSociale.trim();
  if (name === '') out.name = 'required';
  else if (name.length > 200) out.name = 'tooLong';
  if (draft.societesPlus.some((id) => draft.societesMoins.includes(id))) out.companies = 'plusAndMinus';
  return out;
}
