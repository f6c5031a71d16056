/**
 * The state every counting form shares (cash, safe, receipts — issue #3 points 1–3), so the three
 * screens behave alike: the signed-in user and the sites they may count, the form values with the
 * first visible site chosen by default, the field errors, the queued write being fixed, the
 * records of the site and day still on the device, the currency of the amounts, and one submit
 * path — validate, save through the outbox (save-counts.ts), say so, reset the form for the next
 * entry and refresh the day's lists. A refused save keeps everything typed.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import {
  type LocalRecord,
  type LocalTableName,
  listUnsentLocalRecords,
} from '../../lib/outbox/page-outbox.ts';
import { formatMoney } from '../../lib/format.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { useLiveQuery } from '../../lib/outbox/use-live-query.ts';
import { session } from '../../lib/session.ts';
import { visibleSites } from '../../selection/site-scope.ts';
import { useReferenceData } from '../../selection/use-reference-data.ts';
import type { Author } from './save-counts.ts';
import { useQueuedWrite } from './use-queued-write.ts';

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
  /**
   * Stores it (on the device and in the outbox); rejects when even that fails. `fixing` is the
   * outbox item being fixed (resent in place), or null for a new write.
   */
  save: (author: Author, value: Value, fixing: string | null) => Promise<void>;
  /** Success code shown once saved (message id `success.<code>`). */
  successCode: string;
  /** The form for the next entry, from the one just saved (same site and date, values emptied). */
  next: (saved: Form, author: Author) => Form;
  /** Query keys whose answers the save changes. */
  invalidates: readonly unknown[];
  /** The device's table of these records (their unsent ones of the site and day are listed). */
  table: LocalTableName;
  /**
   * Opening the form on a queued write the server refused (`?outbox=<id>` from /sync): the item
   * of `kind` is read back into the form with `fromBody` (amounts in the user's locale) and saving
   * resends it in place. Without it, the page sets `fixing` itself.
   */
  fix?: { outboxId: string | undefined; kind: string; fromBody: (body: Value, locale: string) => Form };
}

const NO_RECORDS: LocalRecord[] = [];

/**
 * The shared state and submit of a counting form. `submit` does nothing without a signed-in user;
 * on invalid values it shows the errors and saves nothing.
 */
export function useCountingForm<Form extends CountingFormBase, Field extends string, Value>(
  options: CountingFormOptions<Form, Field, Value>,
) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const queryClient = useQueryClient();
  const sites = visibleSites(ref.sites);
  const [form, setForm] = useState<Form>(options.initial);
  const [errors, setErrors] = useState<CountingFieldError<Field>[]>([]);
  const [saving, setSaving] = useState(false);
  const [fixing, setFixing] = useState<string | null>(null);

  // The first site the user may count is chosen by default.
  const firstSite = sites[0]?.restaurantId ?? null;
  useEffect(() => {
    if (form.site === null && firstSite !== null) setForm((f) => ({ ...f, site: firstSite }));
  }, [form.site, firstSite]);

  // Fixing a write the server refused: the form opens with what was queued.
  useQueuedWrite<Value>(
    options.fix?.outboxId,
    options.fix?.kind ?? '',
    (body, itemId) => {
      if (!options.fix) return;
      setForm(options.fix.fromBody(body, intl.locale));
      setFixing(itemId);
    },
    [intl.locale],
  );

  // What is still on the device for this site and day: waiting to leave, or refused.
  const unsent =
    useLiveQuery(() => {
      if (form.site === null || form.dateFiscale === null) return Promise.resolve(NO_RECORDS);
      return listUnsentLocalRecords(options.table, form.site, form.dateFiscale);
    }, [form.site, form.dateFiscale]) ?? NO_RECORDS;

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
      await options.save(author, built.value, fixing);
      notify.success(options.successCode);
      setFixing(null);
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
  /** The first error of `field`, as text, or undefined. */
  const errorText = (field: Field): string | undefined => {
    const id = errorOf(field);
    return id ? intl.formatMessage({ id }) : undefined;
  };

  /** The site chosen in the form, once the reference data knows it. */
  const site = sites.find((s) => s.restaurantId === form.site);
  /** The amounts' currency: `preferred` (what the server says for the day), else the site's, the user's, EUR. */
  const currencyOf = (preferred?: string): string => preferred ?? site?.currency ?? user?.currency ?? 'EUR';
  /** Formats cents in `currency` for the user's locale; an unknown amount (null) shows as "—". */
  const moneyIn =
    (currency: string) =>
    (cents: number | null): string =>
      cents === null ? '—' : formatMoney(cents, currency, intl.locale);

  return {
    user,
    ref,
    sites,
    site,
    form,
    setForm,
    errors,
    setErrors,
    saving,
    submit,
    errorOf,
    errorText,
    fixing,
    setFixing,
    unsent,
    currencyOf,
    moneyIn,
  };
}
