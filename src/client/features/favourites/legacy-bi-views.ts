/**
 * Views of the BI explorer saved in this browser's local storage before a favourite could hold
 * one (key `comptoir.bi.views.<userId>`, shape contract/bi.ts BiViewSchema). They are no longer
 * written: /bi offers once to move them into the user's favourites (bi-legacy-views.tsx), then
 * the slot is emptied, whether they were moved or dismissed.
 */
import { z } from 'zod';
import { type BiView, BiViewSchema } from '../../../contract/bi.ts';
import { FAVOURITE_NAME_MAX } from '../../../contract/favourites.ts';

const storageKey = (userId: number) => `comptoir.bi.views.${userId}`;

/** The views `userId` saved on this device, in the order saved (empty when none or unreadable). */
export function readLegacyViews(userId: number): BiView[] {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(userId));
    if (!raw) return [];
    const parsed = z.array(BiViewSchema).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Keeps only `views` on this device (removes the slot when none is left). */
export function keepLegacyViews(userId: number, views: readonly BiView[]): void {
  try {
    if (views.length === 0) globalThis.localStorage?.removeItem(storageKey(userId));
    else globalThis.localStorage?.setItem(storageKey(userId), JSON.stringify(views));
  } catch {
    // Storage refused (private mode, quota): nothing to keep or clear.
  }
}

/**
 * A favourite name for `name` that none of `taken` has (compared without case or outer spaces):
 * the name itself, else followed by " (2)", " (3)"…, cut to the longest name a favourite keeps.
 */
export function freeName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map((n) => n.trim().toLocaleLowerCase()));
  const base = name.trim().slice(0, FAVOURITE_NAME_MAX);
  if (!used.has(base.toLocaleLowerCase())) return base;
  for (let i = 2; ; i++) {
    const suffix = ` (${i})`;
    const candidate = `${base.slice(0, FAVOURITE_NAME_MAX - suffix.length)}${suffix}`;
    if (!used.has(candidate.toLocaleLowerCase())) return candidate;
  }
}
