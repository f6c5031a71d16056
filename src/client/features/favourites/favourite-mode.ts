/**
 * Which favourite /configFavoris and /rapports are working with (SPEC.md §4 "Favourites: a
 * favourite is selected, or a new-favourite mode is on. Saving a new one adds it and leaves new
 * mode; selecting an existing one leaves new mode"). The transitions are a pure function, so the
 * tests pin SPEC.md §4; the store (valtio, DESIGN.md §8 UI state) applies them and is emptied at
 * sign-out with the rest of the report state (SPEC.md §2).
 */
import { proxy } from 'valtio';
import { onSignOut } from '../../lib/session.ts';

/** Either one favourite is selected, or new mode is on, or neither — never both. */
export interface FavouriteMode {
  /** Id of the selected favourite, or null. */
  selectedId: number | null;
  /** The user is creating a new favourite. */
  newMode: boolean;
}

export type FavouriteModeEvent =
  /** An existing favourite is picked (list or quick picker): it is selected, new mode ends. */
  | { type: 'select'; id: number }
  /** "New favourite": new mode starts, no favourite is selected. */
  | { type: 'startNew' }
  /** New mode abandoned. */
  | { type: 'cancelNew' }
  /** A new favourite was saved: it is added (and selected), new mode ends. */
  | { type: 'savedNew'; id: number }
  /** A favourite was deleted: it is no longer selected. */
  | { type: 'removed'; id: number };

export const NO_FAVOURITE: FavouriteMode = { selectedId: null, newMode: false };

/** The state after `event` (SPEC.md §4). */
export function nextFavouriteMode(state: FavouriteMode, event: FavouriteModeEvent): FavouriteMode {
  switch (event.type) {
    case 'select':
    case 'savedNew':
      return { selectedId: event.id, newMode: false };
    case 'startNew':
      return { selectedId: null, newMode: true };
    case 'cancelNew':
      return { ...state, newMode: false };
    case 'removed':
      return state.selectedId === event.id ? { ...state, selectedId: null } : state;
  }
}

/** The store; read it with `useSnapshot`, change it only through {@link dispatchFavouriteMode}. */
export const favouriteMode = proxy<FavouriteMode>({ ...NO_FAVOURITE });

export function dispatchFavouriteMode(event: FavouriteModeEvent): void {
  Object.assign(favouriteMode, nextFavouriteMode(favouriteMode, event));
}

onSignOut(() => {
  Object.assign(favouriteMode, NO_FAVOURITE);
});
