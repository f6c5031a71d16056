import { describe, expect, it } from 'vitest';
import { testSite } from './sites.ts';
import type { Regroupement, Site } from '../../src/contract/api.ts';
import {
  effectiveSiteIds,
  groupsOfferChoice,
  limitedToOneSite,
  offeredSites,
  pruneTerminalsAndSellers,
  searchSites,
  visibleSites,
} from '../../src/client/selection/site-scope.ts';

function site(
  restaurantId: number,
  libelle: string,
  groupe: string[] = ['TOUS'],
  code: string | null = null,
): Site {
  return testSite(restaurantId, libelle, { groupe, extras: { code_implant: code } });
}

const sites = [
  site(1, 'Lyon Bellecour', ['Sud'], 'LY01'),
  site(2, 'NON REMPLI'),
  site(3, 'Annecy Lac', ['Sud']),
  site(4, 'Lille Flandres', ['Nord'], 'LI01'),
];
const groups: Regroupement[] = [
  {
    id: 10,
    raisonSociale: 'Sud',
    raisonsSociales: [],
    restaurantIds: [1, 3],
    societesPlus: [],
    societesMoins: [],
  },
  {
    id: 11,
    raisonSociale: 'Nord',
    raisonsSociales: [],
    restaurantIds: [],
    societesPlus: [],
    societesMoins: [],
  },
];

describe('which sites a selection stands for', () => {
  it('hides sites labelled NON REMPLI and sorts by label', () => {
    expect(visibleSites(sites).map((s) => s.libelle)).toEqual([
      'Annecy Lac',
      'Lille Flandres',
      'Lyon Bellecour',
    ]);
  });

  it('uses every site of the user when none is chosen, never the hidden one', () => {
    expect(effectiveSiteIds({ restaurantIds: [], groupId: null }, sites, groups)).toEqual([3, 4, 1]);
  });

  it('narrows to a group by its ids or by the group name the site carries', () => {
    expect(offeredSites(sites, groups, 10).map((s) => s.restaurantId)).toEqual([3, 1]);
    expect(offeredSites(sites, groups, 11).map((s) => s.restaurantId)).toEqual([4]);
    expect(effectiveSiteIds({ restaurantIds: [], groupId: 10 }, sites, groups)).toEqual([3, 1]);
  });

  it('keeps only chosen sites that are still offered', () => {
    expect(effectiveSiteIds({ restaurantIds: [4, 1, 2], groupId: null }, sites, groups)).toEqual([4, 1]);
    expect(effectiveSiteIds({ restaurantIds: [4, 1], groupId: 10 }, sites, groups)).toEqual([1]);
  });

  it('finds sites by label without case or accents, by site code and by id', () => {
    const all = visibleSites([...sites, site(5, 'Genève Cornavin')]);
    expect(searchSites(all, 'geneve').map((s) => s.restaurantId)).toEqual([5]);
    expect(searchSites(all, 'li01').map((s) => s.restaurantId)).toEqual([4]);
    expect(searchSites(all, '3').map((s) => s.restaurantId)).toEqual([3]);
  });

  it('drops terminals and sellers of sites no longer chosen', () => {
    expect(pruneTerminalsAndSellers({ terminals: ['1:1', '4:2'], sellers: ['4:A', '3:B'] }, [1, 3])).toEqual({
      terminals: ['1:1'],
      sellers: ['3:B'],
    });
  });
});

describe('one site at a time and pickers that offer no choice (issue #32 B, D.13)', () => {
  it('keeps one site in single mode: the first chosen one still offered, else the first offered', () => {
    expect(effectiveSiteIds({ restaurantIds: [], groupId: null }, sites, groups, true)).toEqual([3]);
    expect(effectiveSiteIds({ restaurantIds: [4, 1], groupId: null }, sites, groups, true)).toEqual([4]);
    expect(effectiveSiteIds({ restaurantIds: [4], groupId: 10 }, sites, groups, true)).toEqual([3]);
    expect(effectiveSiteIds({ restaurantIds: [4, 1], groupId: null }, sites, groups)).toEqual([4, 1]);
  });

  it('limits to one site a profile holding LIMITATION_SITE only', () => {
    expect(limitedToOneSite(['RAPPORTS', 'LIMITATION_SITE'])).toBe(true);
    expect(limitedToOneSite(['RAPPORTS', 'CONFIGURATION'])).toBe(false);
  });

  it('offers a group choice only when a group narrows the visible sites', () => {
    expect(groupsOfferChoice(sites, groups)).toBe(true);
    // One visible site: no group changes anything, whatever groups exist.
    expect(groupsOfferChoice([sites[0]!, sites[1]!], groups)).toBe(false);
    // Every group holds all the visible sites: no choice either.
    expect(
      groupsOfferChoice(
        [sites[0]!, sites[2]!],
        groups.filter((g) => g.raisonSociale === 'Sud'),
      ),
    ).toBe(false);
    expect(groupsOfferChoice(sites, [])).toBe(false);
  });
});
