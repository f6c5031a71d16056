/**
 * The state every counting form shares (cash, safe, receipts — issue #3 points 1–3), so the three
 * screens behave alike: the signed-in user and the sites they may count, the form values with the
 * first visible site chosen by default, the field errors, and one submit path — validate, save
 * through the outbox (save-counts.ts), say so, reset the form for the next entry and refresh the
 * day's lists. A refused save keeps everything typed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { session } from '../../lib/session.ts';
import { visibleSites } from '../selection/site-scope.ts';
import { useReferenceData } from '../selection/use-reference-data.ts';
import type { Author } from './save-counts.ts';

/** What every counting form holds: the site (restaurantId) and fiscal date (YYYY-MM-DD). */
export interface CountingFormBase {
  site: number | null;
  dateFiscale: string | null;
}

/** A field error: the field and the message id that explains it. */
export interface CountingFieldError<Field extends string> {
  field: Field;
  messageId: string;
}

/** A form turned into what is saved, or the field errors that stop it. */
export type Built<Value, Field extends string> =
  | { ok: true; value: Value }
  | { ok: false; errors: CountingFieldError<Field>[] };

export interface CountingFormOptions<Form extends CountingFormBase, Field extends string, Value> {
  /** The form when the screen opens (its site may be null: the first visible site is then chosen). */
  initial: () => Form;
  /** Validates the form and builds what is saved. */
  build: (form: Form) => Built<Value, Field>;
  /** Stores it (on the device and in the outbox); rejects when even that fails. */
  save: (author: Author, value: Value) => Promise<void>;
  /** Success code shown once saved (message id `success.<code>`). */
  successCode: string;
  /** The form for the next entry, from the one just saved (same site and date, values emptied). */
  next: (saved: Form, author: Author) => Form;
  /** Query keys whose answers the save changes. */
  invalidates: readonly unknown[];
  /** Called after a successful save (e.g. to leave the "fixing a refused write" mode). */
  onSaved?: () => void;
}

/**
 * The shared state and submit of a counting form. `submit` does nothing without a signed-in user;
 * on invalid values it shows the errors and saves nothing.
 */
export function useCountingForm<Form extends CountingFormBase, Field extends string, Value>(
  options: CountingFormOptions<Form, Field, Value>,
) {
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const queryClient = useQueryClient();
  const sites = visibleSites(ref.sites);
  const [form, setForm] = useState<Form>(options.initial);
  const [errors, setErrors] = useState<CountingFieldError<Field>[]>([]);
  const [saving, setSaving] = useState(false);

  // The first site the user may count is chosen by default.
  const firstSite = sites[0]?.restaurantId ?? null;
  useEffect(() => {
    if (form.site === null && firstSite !== null) setForm((f) => ({ ...f, site: firstSite }));
  }, [form.site, firstSite]);

  const submit = async () => {
    if (!user) return;
    const built = options.build(form);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors([]);
    setSaving(true);
    const author: Author = { id: user.id, login: user.login };
    try {
      await options.save(author, built.value);
      notify.success(options.successCode);
      options.onSaved?.();
      setForm((f) => options.next(f, author));
      void queryClient.invalidateQueries({ queryKey: options.invalidates });
    } catch (e) {
      notifyFailure(e);
    } finally {
      setSaving(false);
    }
  };

  /** The first error of `field`, as its message id, or undefined. */
  const errorOf = (field: Field): string | undefined => errors.find((e) => e.field === field)?.messageId;

  return { user, ref, sites, form, setForm, errors, setErrors, saving, submit, errorOf };
}
