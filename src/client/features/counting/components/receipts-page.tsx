/**
 * /recus and /analyses/recuManagers (issue #3 point 3): write and edit manager receipts — seller
 * code and name, manager code and name, amount, reason, comment — and list the day's receipts.
 * A receipt is stored on the device and queued (outbox), so it can be written offline; a queued
 * one not yet tried, or refused by the server, can still be edited before it leaves.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { toWireDate } from '../../../../contract/dates.ts';
import { notify } from '../../../lib/notifications.ts';
import { findLocalRecord, findWrite } from '../../../lib/outbox/page-outbox.ts';
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
import { COUNTING_TABLES, type ReceiptInput, saveReceipt } from '../save-counts.ts';
import { useCountingForm } from '../use-counting-form.ts';
import {
  CommentField,
  CountingDayList,
  CountingForm,
  CountingPage,
  CountingPart,
  UnsentItem,
} from './counting-shell.tsx';
import { MoneyField } from './money-field.tsx';

/** The receipt's required free-text fields (the amount is a money field). */
type TextFieldName = 'codeVendeur' | 'nomVendeur' | 'codeManager' | 'nomManager' | 'motif';

export function ReceiptsPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const counting = useCountingForm<ReceiptForm, ReceiptField, ReceiptInput>({
    initial: () => emptyReceiptForm(null, toWireDate(new Date()), session.user?.login ?? ''),
    build: (f) => {
      const result = toReceiptInput(f);
      return result.ok ? { ok: true, value: result.input } : result;
    },
    save: saveReceipt,
    successCode: 'receiptSaved',
    next: (f, author) => emptyReceiptForm(f.site, f.dateFiscale ?? toWireDate(new Date()), author.login),
    invalidates: receiptQueries.all(),
    table: COUNTING_TABLES.receipt,
  });
  const { user, ref, form, setForm, errors, setErrors, saving, submit, errorText, unsent } = counting;
  // The queued receipt being edited before it leaves (it is then rewritten in place).
  const { fixing: editingQueued, setFixing: setEditingQueued } = counting;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the page is opened to fix an item
  useEffect(() => {
    if (fixOutboxId) void editQueued(fixOutboxId);
  }, [fixOutboxId]);

  const sellers = ref.sellers.find((s) => s.restaurantId === form.site)?.vendeurs ?? [];
  const listQuery = useQuery({
    ...receiptQueries.list(user?.id ?? 0, form.dateFiscale ?? '', form.site),
    enabled: Boolean(user && form.dateFiscale),
  });

  const money = counting.moneyIn(counting.currencyOf());
  const set = (field: ReceiptField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const requiredText = (field: TextFieldName, labelId: string, maxLength?: number) => (
    <TextField
      label={intl.formatMessage({ id: labelId })}
      value={form[field]}
      onChange={set(field)}
      isRequired
      maxLength={maxLength}
      isInvalid={errorText(field) !== undefined}
      errorMessage={errorText(field)}
    />
  );

  async function editQueued(outboxId: string) {
    const item = await findWrite(outboxId);
    if (item?.record?.table !== COUNTING_TABLES.receipt) return;
    if (item.state === 'sending' || (item.state === 'waiting' && item.attempts > 0)) {
      notify.error('receiptBeingSent');
      return;
    }
    const record = await findLocalRecord(COUNTING_TABLES.receipt, item.record.key);
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
      sites={counting.sites}
      site={form.site}
      onSiteChange={(site) => setForm((f) => ({ ...f, site, codeVendeur: '', nomVendeur: '' }))}
      dateFiscale={form.dateFiscale}
      onDateChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire }))}
    >
      <CountingForm
        testId="receipt-form"
        onSubmit={submit}
        notice={editing ? 'counting.receipts.editing' : null}
        errors={errors}
        errorPrefix={(field) => (
          <>
            <FormattedMessage id={`counting.receipts.field.${field}`} />
            {' : '}
          </>
        )}
        submitLabel={editing ? 'counting.receipts.saveChanges' : 'counting.receipts.create'}
        canSubmit={!saving && Boolean(user)}
        actions={
          editing ? (
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
          ) : null
        }
      >
        <CountingPart legend={<FormattedMessage id="counting.receipts.people" />}>
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
          {requiredText('codeVendeur', 'counting.receipts.sellerCode')}
          {requiredText('nomVendeur', 'counting.receipts.sellerName')}
          {requiredText('codeManager', 'counting.receipts.managerCode')}
          {requiredText('nomManager', 'counting.receipts.managerName')}
        </CountingPart>
        <CountingPart legend={<FormattedMessage id="counting.receipts.complements" />}>
          <MoneyField
            testId="receipt-amount"
            label={intl.formatMessage({ id: 'counting.receipts.amount' })}
            value={form.amount}
            onChange={set('amount')}
            isRequired
            errorMessage={errorText('amount')}
          />
          {requiredText('motif', 'counting.receipts.reason', 200)}
          <CommentField value={form.commentaire} onChange={set('commentaire')} />
        </CountingPart>
      </CountingForm>
      <CountingDayList
        titleId="receipts-list-title"
        title="counting.receipts.dayList"
        dateFiscale={form.dateFiscale}
        testId="receipt-list"
      >
        {unsent.map((r) => {
          const input = r.data as unknown as ReceiptInput;
          return (
            <UnsentItem
              key={r.localId}
              record={r}
              testId="receipt-local"
              after={
                r.outboxId ? (
                  <Button onPress={() => void editQueued(r.outboxId ?? '')}>
                    <FormattedMessage id="counting.receipts.edit" />
                  </Button>
                ) : null
              }
            >
              <span>
                {input.nomVendeur} ({input.codeVendeur}) · {money(input.complements.montantCents)} ·{' '}
                {input.complements.motif}
              </span>
            </UnsentItem>
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
