/**
 * /recus and /analyses/recuManagers (issue #3 point 3): write and edit manager receipts — seller
 * code and name, manager code and name, amount, reason, comment — and list the day's receipts.
 * A receipt is stored on the device and queued (outbox), so it can be written offline; a queued
 * one not yet tried, or refused by the server, can still be edited before it leaves.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Receipt } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { notify } from '../../../lib/notifications.ts';
import { findLocalRecord, findWrite } from '../../../lib/outbox/page-outbox.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Select } from '../../../ui/select.tsx';
import { RequiredLabel } from '../../../ui/form.tsx';
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

/** The receipt form's state, from useCountingForm. */
type ReceiptCounting = ReturnType<typeof useCountingForm<ReceiptForm, ReceiptField, ReceiptInput>>;

/**
 * The receipt a queued write carries, to edit it before it leaves: `beingSent` while it is being
 * sent or was already tried (its first send may have been stored), null when it is gone or is
 * not a receipt.
 */
async function queuedReceipt(outboxId: string): Promise<ReceiptInput | 'beingSent' | null> {
  const item = await findWrite(outboxId);
  if (item?.record?.table !== COUNTING_TABLES.receipt) return null;
  if (item.state === 'sending' || (item.state === 'waiting' && item.attempts > 0)) return 'beingSent';
  const record = await findLocalRecord(COUNTING_TABLES.receipt, item.record.key);
  return record ? (record.data as unknown as ReceiptInput) : null;
}

interface ReceiptEntryProps {
  counting: ReceiptCounting;
  /** The site's sellers (a picker fills the seller's code and name). */
  sellers: ReadonlyArray<{ code: string; nom: string }>;
  /** A stored or queued receipt is being edited. */
  editing: boolean;
  onCancelEdit: () => void;
}

/** The receipt form: who (seller, manager), then the amount, reason and comment. */
function ReceiptEntry({ counting, sellers, editing, onCancelEdit }: ReceiptEntryProps) {
  const intl = useIntl();
  const { user, form, setForm, errors, saving, submit, errorText } = counting;
  const set = (field: ReceiptField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const requiredText = (field: TextFieldName, labelId: string, maxLength?: number) => (
    <TextField
      label={
        <RequiredLabel
          label={intl.formatMessage({ id: labelId })}
          mark={intl.formatMessage({ id: 'counting.required' })}
        />
      }
      value={form[field]}
      onChange={set(field)}
      isRequired
      maxLength={maxLength}
      isInvalid={errorText(field) !== undefined}
      errorMessage={errorText(field)}
    />
  );
  return (
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
          <Button onPress={onCancelEdit}>
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
  );
}

interface ReceiptDayListProps {
  dateFiscale: string | null;
  /** Receipts of the day still on the device (waiting or refused). */
  unsent: ReceiptCounting['unsent'];
  /** The server's receipts of the day. */
  receipts: readonly Receipt[];
  /** Formats cents; an unknown amount (null) shows as "—". */
  money: (cents: number | null) => string;
  onEditQueued: (outboxId: string) => void;
  onEditStored: (receipt: Receipt) => void;
  /** True once the day's list has arrived (or failed): only then does an empty list mean "none". */
  listSettled: boolean;
}

/** The day's receipts: those still on the device, then the server's, each editable. */
function ReceiptDayList({
  dateFiscale,
  unsent,
  receipts,
  money,
  onEditQueued,
  onEditStored,
  listSettled,
}: ReceiptDayListProps) {
  const nothing = listSettled && unsent.length === 0 && receipts.length === 0;
  return (
    <CountingDayList
      titleId="receipts-list-title"
      title="counting.receipts.dayList"
      dateFiscale={dateFiscale}
      testId="receipt-list"
      empty={nothing ? <FormattedMessage id="counting.receipts.emptyDay" /> : null}
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
                <Button onPress={() => onEditQueued(r.outboxId ?? '')}>
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
      {receipts.map((r) => (
        <li key={r.id} className="counting-list__item" data-testid="receipt-server">
          <span>
            {r.libVendeur} ({r.numVendeur}) · {money(r.complements.montantCents)} · {r.complements.motif}
          </span>
          <span className="counting-list__time">
            <FormattedMessage id="counting.receipts.byManager" values={{ manager: r.nomManager }} />
          </span>
          <Button onPress={() => onEditStored(r)}>
            <FormattedMessage id="counting.receipts.edit" />
          </Button>
        </li>
      ))}
    </CountingDayList>
  );
}

/** The receipts screen: site and date, the form (new or editing), the day's receipts. */
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
  const { user, ref, form, setForm, setErrors, unsent } = counting;
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

  async function editQueued(outboxId: string) {
    const input = await queuedReceipt(outboxId);
    if (input === 'beingSent') {
      notify.error('receiptBeingSent');
      return;
    }
    if (!input) return;
    setForm(receiptFormFromInput(input, intl.locale));
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
      <ReceiptEntry
        counting={counting}
        sellers={sellers}
        editing={editing}
        onCancelEdit={() => {
          setEditingQueued(null);
          setForm((f) =>
            emptyReceiptForm(f.site, f.dateFiscale ?? toWireDate(new Date()), user?.login ?? ''),
          );
        }}
      />
      <ReceiptDayList
        dateFiscale={form.dateFiscale}
        unsent={unsent}
        receipts={listQuery.data?.response ?? []}
        money={money}
        listSettled={listQuery.isSuccess}
        onEditQueued={(outboxId) => void editQueued(outboxId)}
        onEditStored={(r) => {
          setEditingQueued(null);
          setForm(receiptFormFromReceipt(r, intl.locale));
        }}
      />
    </CountingPage>
  );
}
