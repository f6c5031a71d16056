/**
 * How a refused administration write is told (issue #18: "refusals shown at the field or as
 * persistent errors, translated"): `InvalidField` at the field the server names, `InUse` as a
 * persistent error naming what still uses the thing (sites, groups, profiles, users), anything
 * else by its SPEC.md §8 code. `InvalidField` says why when the server does: a name already taken
 * (`duplicate`), or ids that no longer exist (`unknown`).
 */
import { ApiFailure } from '../../lib/http.ts';

/** A refusal, ready to show. */
export interface AdminRefusal {
  /** The form field the server refused (`InvalidField` details.field), if any. */
  field: string | null;
  /** The message id to show: `error.<code>` when the catalogue has it, else `error.savedError`. */
  messageId: string;
  /** For `InUse`: the names of what still uses the thing (sites, groups, users). */
  inUse: string[] | null;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The refusal of a failed write `error`. `messages` is the catalogue in use (react-intl's
 * `intl.messages`): a code it cannot say reads `savedError`.
 */
export function adminRefusal(error: unknown, messages: Record<string, unknown>): AdminRefusal {
  if (!(error instanceof ApiFailure)) return { field: null, messageId: 'error.savedError', inUse: null };
  const details = error.details ?? {};
  if (error.code === 'InUse') {
    const inUse = [
      ...names(details.sites),
      ...names(details.groups),
      ...names(details.profiles),
      ...names(details.users),
    ];
    return { field: null, messageId: 'sitesAdmin.error.inUse', inUse };
  }
  if (error.code === 'InvalidField' && typeof details.field === 'string') {
    // A name another company, site or group already has; ids that no longer exist (removed meanwhile).
    const messageId =
      details.duplicate === true
        ? 'sitesAdmin.error.duplicate'
        : Array.isArray(details.unknown)
          ? 'sitesAdmin.error.unknown'
          : 'sitesAdmin.error.invalidField';
    return { field: details.field, messageId, inUse: null };
  }
  const id = `error.${error.code}`;
  return { field: null, messageId: id in messages ? id : 'error.savedError', inUse: null };
}
