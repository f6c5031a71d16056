/**
 * The save of the company, site and group forms: one write at a time (`busy`), the server's
 * refusal kept (`refusal`, at its field or under the form) until the field changes or the next
 * save, and the success told in words that say what happened (issue #32 D.12: a creation says
 * what was created, a change that it was saved).
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { notify } from '../../../lib/notifications.ts';
import { type AdminRefusal, adminRefusal } from '../admin-failure.ts';

/** What is saved: its success message when created is `success.<kind>Created` with `{ name }`. */
export type SavedKind = 'company' | 'site' | 'group';

/** Tells a save: `success.<kind>Created` naming it when `created`, else SPEC.md §8's SuccessMod. */
export function notifySaved(kind: SavedKind, created: boolean, name: string): void {
  if (created) notify.success(`${kind}Created`, { name });
  else notify.success('SuccessMod');
}

/** The save state of one form; `run` does one write and keeps its refusal. */
export function useAdminSave() {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<AdminRefusal | null>(null);

  /** Runs `write` unless one runs already; `done` gets what the server saved. A failure becomes `refusal`. */
  async function run<R>(write: () => Promise<R>, done: (saved: R) => void): Promise<void> {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      done(await write());
    } catch (e) {
      setRefusal(adminRefusal(e, intl.messages));
    } finally {
      setBusy(false);
    }
  }

  /** The refusal's text for under the form, naming what is in the way for `InUse`; undefined without one. */
  function refusalText(): string | undefined {
    if (!refusal) return undefined;
    return intl.formatMessage({ id: refusal.messageId }, { names: refusal.inUse?.join(', ') ?? '' });
  }

  return { busy, refusal, setRefusal, run, refusalText };
}
