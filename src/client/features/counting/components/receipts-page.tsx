/**
 * /recus and /analyses/recuManagers (issue #3 point 3): write and edit manager receipts — seller
 * code and name, manager code and name, amount, reason, comment — and list the day's receipts.
 * A receipt is stored on the device and queued (outbox), so it can be written offline; a queued
 * one not yet tried, or refused by the server, can still be edited before it leaves.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate } from '../../../../contract/dates.ts';
import { db, type LocalRecord } from '../../../lib/db.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { useLiveQuery } from '../../../lib/outbox/use-live-query.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { visibleSites } from '../../selection/site-scope.ts';
import { useReferenceData } from '../../selection/use-reference-data.ts';
import { receiptQueries } from '../counting-queries.ts';
import {
  emptyReceiptForm,
  type ReceiptField,
  type ReceiptForm,
  receiptFormFromInput,
  receiptFormFromReceipt,
  toReceiptInput,
} from '../receipt-model.ts';
import { type ReceiptInput, saveReceipt } from '../save-counts.ts';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';
import '../counting.css';

export function ReceiptsPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const queryClient = useQueryClient();
  const sites = visibleSites(ref.sites);
  const [form, setForm] = useState<ReceiptForm>(() =>
    emptyReceiptForm(null, toWireDate(new Date()), session.user?.login ?? ''),
  );
  const [errors, setErrors] = useState<{ field: ReceiptField; messageId: string }[]>([]);
  const [saving, setSaving] = useState(false);
  const [editingQueued, setEditingQueued] = useState<string | null>(null);

  useEffect(() => {
    if (form.site === null && sites[0]) setForm((f) => ({ ...f, site: sites[0]?.restaurantId ?? null }));
  }, [form.site, sites]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the page is opened to fix an item
  useEffect(() => {
    if (fixOutboxId) void editQueued(fixOutboxId);
  }, [fixOutboxId]);

  const sellers = ref.sellers.find((s) => s.restaurantId === form.site)?.vendeurs ?? [];
  const listQuery = useQuery({
    ...receiptQueries.list(user?.id ?? 0, form.dateFiscale ?? '', form.site),
    enabled: Boolean(user && form.dateFiscale),
  });
  const localReceipts = useLiveQuery(
    () =>
      form.site === null || form.dateFiscale === null
        ? Promise.resolve([] as LocalRecord[])
        : db()
            .receipts.where('[siteId+fiscalDate]')
            .equals([form.site, form.dateFiscale])
            .filter((r) => r.syncState === 'pending' || r.syncState === 'needsAttention')
            .sortBy('savedAt'),
    [form.site, form.dateFiscale],
  );

  const site = sites.find((s) => s.restaurantId === form.site);
  const currency = site?.currency ?? user?.currency ?? 'EUR';
  const money = (cents: number) => formatMoney(cents, currency, intl.locale);
  const errorOf = (field: ReceiptField) => {
    const e = errors.find((x) => x.field === field);
    return e ? intl.formatMessage({ id: e.messageId }) : undefined;
  };
  const set = (field: ReceiptField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  async function editQueued(outboxId: string) {
    const item = await db().outbox.where('id').equals(outboxId).first();
    if (item?.record?.table !== 'receipts') return;
    if (item.state === 'sending' || (item.state === 'waiting' && item.attempts > 0)) {
      notify.error('receiptBeingSent');
      return;
    }
    const record = await db().receipts.get(item.record.key);
    if (!record) return;
    setForm(receiptFormFromInput(record.data as unknown as ReceiptInput, intl.locale));
    setEditingQueued(outboxId);
    setErrors([]);
  }

  const submit = async () => {
    if (!user) return;
    const result = toReceiptInput(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors([]);
    setSaving(true);
    try {
      await saveReceipt({ id: user.id, login: user.login }, result.input, editingQueued);
      notify.success('receiptSaved');
      setEditingQueued(null);
      setForm((f) => emptyReceiptForm(f.site, f.dateFiscale ?? toWireDate(new Date()), user.login));
      void queryClient.invalidateQueries({ queryKey: receiptQueries.all() });
    } catch (e) {
      notifyFailure(e);
    } finally {
      setSaving(false);
    }
  };

  const editing = form.documentId !== null || editingQueued !== null;
  return (
    <section className="counting-page" aria-labelledby="receipts-title">
      <h1 id="receipts-title">
        <FormattedMessage id="counting.receipts.title" />
      </h1>
      <div className="counting-page__context">
        <Select
          label={intl.formatMessage({ id: 'counting.site' })}
          options={sites.map((s) => ({ id: s.restaurantId, label: s.libelle }))}
          value={form.site}
          onChange={(key) => setForm((f) => ({ ...f, site: Number(key), codeVendeur: '', nomVendeur: '' }))}
        />
        <DateField
          label={intl.formatMessage({ id: 'counting.fiscalDate' })}
          value={form.dateFiscale}
          onChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire }))}
          invalidMessage={intl.formatMessage({ id: 'counting.error.date' })}
          placeholder={intl.formatMessage({ id: 'counting.datePlaceholder' })}
          isRequired
        />
      </div>
      <form
        className="counting-form"
        data-testid="receipt-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {editing ? (
          <p className="counting-form__fixing" role="status">
            <FormattedMessage id="counting.receipts.editing" />
          </p>
        ) : null}
        <fieldset className="counting-form__part">
          <legend>
            <FormattedMessage id="counting.receipts.people" />
          </legend>
          {sellers.length > 0 ? (
            <Select
              label={intl.formatMessage({ id: 'counting.receipts.seller' })}
              options={sellers.map((s) => ({ id: s.code, label: `${s.nom} (${s.code})` }))}
              value={form.codeVendeur === '' ? null : form.codeVendeur}
              onChange={(key) => {
                const seller = sellers.find((s) => s.code === String(key));
                setForm((f) => ({ ...f, codeVendeur: String(key), nomVendeur: seller?.nom ?? f.nomVendeur }));
              }}
            />
          ) : null}
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.sellerCode' })}
            value={form.codeVendeur}
            onChange={set('codeVendeur')}
            isRequired
            isInvalid={errorOf('codeVendeur') !== undefined}
            errorMessage={errorOf('codeVendeur')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.sellerName' })}
            value={form.nomVendeur}
            onChange={set('nomVendeur')}
            isRequired
            isInvalid={errorOf('nomVendeur') !== undefined}
            errorMessage={errorOf('nomVendeur')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.managerCode' })}
            value={form.codeManager}
            onChange={set('codeManager')}
            isRequired
            isInvalid={errorOf('codeManager') !== undefined}
            errorMessage={errorOf('codeManager')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.managerName' })}
            value={form.nomManager}
            onChange={set('nomManager')}
            isRequired
            isInvalid={errorOf('nomManager') !== undefined}
            errorMessage={errorOf('nomManager')}
          />
        </fieldset>
        <fieldset className="counting-form__part">
          <legend>
            <FormattedMessage id="counting.receipts.complements" />
          </legend>
          <MoneyField
            testId="receipt-amount"
            label={intl.formatMessage({ id: 'counting.receipts.amount' })}
            value={form.amount}
            onChange={set('amount')}
            isRequired
            errorMessage={errorOf('amount')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.reason' })}
            value={form.motif}
            onChange={set('motif')}
            isRequired
            maxLength={200}
            isInvalid={errorOf('motif') !== undefined}
            errorMessage={errorOf('motif')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.comment' })}
            value={form.commentaire}
            onChange={set('commentaire')}
            maxLength={1000}
          />
        </fieldset>
        {errors.length > 0 ? (
          <ul className="counting-errors" role="alert">
            {errors.map((e) => (
              <li key={`${e.field}-${e.messageId}`}>
                <FormattedMessage id={`counting.receipts.field.${e.field}`} />
                {' : '}
                <FormattedMessage id={e.messageId} />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="counting-form__actions">
          {editing ? (
            <Button
              onPress={() => {
                setEditingQueued(null);
                setForm((f) =>
                  emptyReceiptForm(f.site, f.dateFiscale ?? toWireDate(new Date()), user?.login ?? ''),
                );
              }}
            >
              <FormattedMessage id="sync.cancel" />
            </Button>
          ) : null}
          <Button type="submit" variant="primary" isDisabled={saving || !user}>
            <FormattedMessage id={editing ? 'counting.receipts.saveChanges' : 'counting.receipts.create'} />
          </Button>
        </div>
      </form>
      <section className="counting-list" aria-labelledby="receipts-list-title">
        <h2 id="receipts-list-title">
          <FormattedMessage
            id="counting.receipts.dayList"
            values={{ date: form.dateFiscale ? formatDate(form.dateFiscale) : '—' }}
          />
        </h2>
        <ul className="counting-list__items" data-testid="receipt-list">
          {(localReceipts ?? []).map((r) => {
            const input = r.data as unknown as ReceiptInput;
            return (
              <li key={r.localId} className="counting-list__item" data-testid="receipt-local">
                <span>
                  {input.nomVendeur} ({input.codeVendeur}) · {money(input.complements.montantCents)} ·{' '}
                  {input.complements.motif}
                </span>
                <SyncStateTag state={r.syncState} reason={r.reason} />
                {r.outboxId ? (
                  <Button onPress={() => void editQueued(r.outboxId ?? '')}>
                    <FormattedMessage id="counting.receipts.edit" />
                  </Button>
                ) : null}
              </li>
            );
          })}
          {(listQuery.data?.response ?? []).map((r) => (
            <li key={r.id} className="counting-list__item" data-testid="receipt-server">
              <span>
                {r.libVendeur} ({r.numVendeur}) · {money(r.complements.montantCents)} · {r.complements.motif}
              </span>
              <span className="counting-list__time">
                <FormattedMessage id="counting.receipts.byManager" values={{ manager: r.nomManager }} />
              </span>
              <Button
                onPress={() => {
                  setEditingQueued(null);
                  setForm(receiptFormFromReceipt(r, intl.locale));
                }}
              >
                <FormattedMessage id="counting.receipts.edit" />
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}
