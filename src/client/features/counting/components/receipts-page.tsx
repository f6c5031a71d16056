/**
 * /recus and /analyses/recuManagers (issue #3 point 3): write and edit manager receipts — seller
 * code and name, manager code and name, amount, reason, comment — and list the day's receipts.
 * A receipt is stored on the device and queued (outbox), so it can be written offline; a queued
 * one not yet tried, or refused by the server, can still be edited before it leaves.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toWireDate } from '../../../../contract/dates.ts';
import { db, type LocalRecord } from '../../../lib/db.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications.ts';
import { useLiveQuery } from '../../../lib/outbox/use-live-query.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
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
import { useCountingForm } from '../use-counting-form.ts';
import { CountingDayList, CountingForm, CountingPage } from './counting-shell.tsx';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';

export function ReceiptsPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const [editingQueued, setEditingQueued] = useState<string | null>(null);
  const { user, ref, sites, form, setForm, errors, setErrors, saving, submit, errorOf } = useCountingForm<
    ReceiptForm,
    ReceiptField,
    ReceiptInput
  >({
    initial: () => emptyReceiptForm(null, toWireDate(new Date()), session.user?.login ?? ''),
    build: (f) => {
      const result = toReceiptInput(f);
      return result.ok ? { ok: true, value: result.input } : result;
    },
    save: (author, input) => saveReceipt(author, input, editingQueued),
    successCode: 'receiptSaved',
    next: (f, author) => emptyReceiptForm(f.site, f.dateFiscale ?? toWireDate(new Date()), author.login),
    invalidates: receiptQueries.all(),
    onSaved: () => setEditingQueued(null),
  });

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
  const errorText = (field: ReceiptField) => {
    const id = errorOf(field);
    return id ? intl.formatMessage({ id }) : undefined;
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

  const editing = form.documentId !== null || editingQueued !== null;
  return (
    <CountingPage
      titleId="receipts-title"
      title="counting.receipts.title"
      sites={sites}
      site={form.site}
      onSiteChange={(site) => setForm((f) => ({ ...f, site, codeVendeur: '', nomVendeur: '' }))}
      dateFiscale={form.dateFiscale}
      onDateChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire }))}
    >
      <CountingForm testId="receipt-form" onSubmit={submit}>
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
            isInvalid={errorText('codeVendeur') !== undefined}
            errorMessage={errorText('codeVendeur')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.sellerName' })}
            value={form.nomVendeur}
            onChange={set('nomVendeur')}
            isRequired
            isInvalid={errorText('nomVendeur') !== undefined}
            errorMessage={errorText('nomVendeur')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.managerCode' })}
            value={form.codeManager}
            onChange={set('codeManager')}
            isRequired
            isInvalid={errorText('codeManager') !== undefined}
            errorMessage={errorText('codeManager')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.managerName' })}
            value={form.nomManager}
            onChange={set('nomManager')}
            isRequired
            isInvalid={errorText('nomManager') !== undefined}
            errorMessage={errorText('nomManager')}
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
            errorMessage={errorText('amount')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.receipts.reason' })}
            value={form.motif}
            onChange={set('motif')}
            isRequired
            maxLength={200}
            isInvalid={errorText('motif') !== undefined}
            errorMessage={errorText('motif')}
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
      </CountingForm>
      <CountingDayList
        titleId="receipts-list-title"
        title="counting.receipts.dayList"
        dateFiscale={form.dateFiscale}
        testId="receipt-list"
      >
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
      </CountingDayList>
    </CountingPage>
  );
}
