/** The site scope of a profile in words, for the list of /config/profils. */
import type { IntlShape } from 'react-intl';
import type { Profile, Societe } from '../../../contract/administration.ts';

/**
 * "Every site", or the profile's sites in an administrator's words (issue #32 D.12): how many
 * sites are chosen, every site of the companies added and except those of the companies removed,
 * by name ("2 chosen sites, and every site of Alpha SAS, except those of Beta SAS").
 */
export function scopeText(intl: IntlShape, p: Profile, companies: readonly Societe[]): string {
  if (p.allSites) return intl.formatMessage({ id: 'profilesAdmin.scope.all' });
  const byId = new Map(companies.map((c) => [c.id, c.raisonSociale]));
  const names = (ids: readonly number[]) =>
    intl.formatList(
      ids.map((id) => byId.get(id) ?? `#${id}`),
      { type: 'conjunction' },
    );
  return intl.formatMessage(
    { id: 'profilesAdmin.scope.summary' },
    {
      sites: p.restaurantIds.length,
      plus: p.societesPlus.length,
      plusNames: names(p.societesPlus),
      minus: p.societesMoins.length,
      minusNames: names(p.societesMoins),
    },
  );
}
