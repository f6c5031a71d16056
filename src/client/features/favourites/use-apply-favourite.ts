/**
 * Applying a favourite from a screen: fills the selection of /rapports (SPEC.md §4: selecting a
 * favourite selects it and leaves new mode), against the sites and groups the user sees now.
 */
import type { Favourite } from '../../../contract/favourites.ts';
import { notify } from '../../lib/notifications.ts';
import { selection } from '../selection/selection-state.ts';
import { visibleSites } from '../selection/site-scope.ts';
import { useReferenceData } from '../selection/use-reference-data.ts';
import { dispatchFavouriteMode } from './favourite-mode.ts';
import { selectionFromFavourite } from './favourite-selection.ts';

/**
 * `apply(favourite)` fills the selection and says whether it could (else the error is notified);
 * `ready` is false until the user's sites are known (applying earlier would drop every site).
 */
export function useApplyFavourite(): { ready: boolean; apply: (favourite: Favourite) => boolean } {
  const ref = useReferenceData();
  const apply = (favourite: Favourite): boolean => {
    const outcome = selectionFromFavourite(
      favourite,
      visibleSites(ref.sites).map((s) => s.restaurantId),
      ref.groups.map((g) => g.id),
    );
    if (!outcome.ok) {
      notify.error(outcome.code);
      return false;
    }
    Object.assign(selection, outcome.selection);
    dispatchFavouriteMode({ type: 'select', id: favourite.id });
    return true;
  };
  return { ready: !ref.isLoading && ref.error === null, apply };
}
