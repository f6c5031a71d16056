/**
 * Applying a favourite from a screen: fills the selection of /rapports (SPEC.md §4: selecting a
 * favourite selects it and leaves new mode), against the sites and groups the user sees now. A
 * BI favourite sets only the sites, group and period, and hands back the explorer's view (the
 * caller opens /bi with it); it is not "selected" for /rapports, whose favourite it is not.
 */
import type { BiFavouriteView, Favourite } from '../../../contract/favourites.ts';
import { notify } from '../../lib/notifications.ts';
import { type SelectionState, selection } from '../../selection/selection-state.ts';
import { visibleSites } from '../../selection/site-scope.ts';
import { useReferenceData } from '../../selection/use-reference-data.ts';
import { dispatchFavouriteMode } from './favourite-mode.ts';
import { biSelectionFromFavourite, selectionFromFavourite } from './favourite-selection.ts';

/** What applying did: refused (the error is already notified), or applied with some sites dropped. */
export type ApplyResult = { applied: false } | { applied: true; droppedSites: number };

/**
 * Tells the user that `count` sites of the favourite are no longer theirs and were left out.
 * Call it once on the screen that shows the result (a route change clears notifications).
 */
export function notifyDroppedSites(count: number): void {
  if (count > 0) notify.error('favouriteSitesDropped', { count });
}

/** What applying a BI favourite did: refused (already notified), or applied with its view. */
export type BiApplyResult =
  | { applied: false }
  | { applied: true; droppedSites: number; view: BiFavouriteView };

/** A favourite read against the user's sites and groups (favourite-selection.ts): refused, or what it selects. */
type Outcome = { ok: true; selection: Partial<SelectionState> } | { ok: false; code: string };

/**
 * The core both kinds of favourite share: a refusal is notified (null back); an outcome fills
 * the selection with what it chose and is handed back for its kind's own result.
 */
function fillSelection<O extends Outcome>(outcome: O): Extract<O, { ok: true }> | null {
  if (!outcome.ok) {
    notify.error(outcome.code);
    return null;
  }
  Object.assign(selection, outcome.selection);
  return outcome as Extract<O, { ok: true }>;
}

/**
 * `apply(favourite)` fills the selection and says what it did; `applyBi` does so for a BI
 * favourite; `ready` is false until the user's sites are known (applying earlier would drop
 * every site).
 */
export function useApplyFavourite(): {
  ready: boolean;
  apply: (favourite: Favourite) => ApplyResult;
  applyBi: (favourite: Favourite & { bi: BiFavouriteView }) => BiApplyResult;
} {
  const ref = useReferenceData();
  /** The sites and groups the user sees now, as favourite-selection.ts takes them. */
  const scope = (): [number[], number[]] => [
    visibleSites(ref.sites).map((s) => s.restaurantId),
    ref.groups.map((g) => g.id),
  ];
  const applyBi = (favourite: Favourite & { bi: BiFavouriteView }): BiApplyResult => {
    const outcome = fillSelection(biSelectionFromFavourite(favourite, ...scope()));
    if (!outcome) return { applied: false };
    return { applied: true, droppedSites: outcome.droppedSites, view: outcome.view };
  };
  const apply = (favourite: Favourite): ApplyResult => {
    const outcome = fillSelection(selectionFromFavourite(favourite, ...scope()));
    if (!outcome) return { applied: false };
    dispatchFavouriteMode({ type: 'select', id: favourite.id });
    return { applied: true, droppedSites: outcome.droppedSites };
  };
  return { ready: !ref.isLoading && ref.error === null, apply, applyBi };
}
