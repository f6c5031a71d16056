/**
 * Saved views of the explorer (issue #19 "save the view as a favourite"), kept in the browser's
 * local storage per user. A favourite of bo/favoris holds a report request (a report class and
 * its parameters, contract/favourites.ts) and cannot hold a measure and two dimensions without a
 * schema change, so the views stay on this device for now. What is read back is checked with the
 * contract's BiViewSchema; anything else in the slot is ignored.
 */
import { z } from 'zod';
import { type BiView, BiViewSchema } from '../../../contract/bi.ts';

/** Most views kept per user: the oldest go first. */
export const MAX_VIEWS = 20;

const storageKey = (userId: number) => `comptoir.bi.views.${userId}`;

/** The saved views of `userId`, in the order saved (empty when none or unreadable). */
export function readViews(userId: number): BiView[] {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(userId));
    if (!raw) return [];
    const parsed = z.array(BiViewSchema).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function writeViews(userId: number, views: readonly BiView[]): void {
  globalThis.localStorage?.setItem(storageKey(userId), JSON.stringify(views.slice(-MAX_VIEWS)));
}

/** Saves `view` (replacing one of the same name); returns the views now saved. */
export function saveView(userId: number, view: BiView): BiView[] {
  const views = [...readViews(userId).filter((v) => v.name !== view.name), BiViewSchema.parse(view)];
  writeViews(userId, views);
  return readViews(userId);
}

/** Removes the view named `name`; returns the views now saved. */
export function removeView(userId: number, name: string): BiView[] {
  writeViews(
    userId,
    readViews(userId).filter((v) => v.name !== name),
  );
  return readViews(userId);
}
