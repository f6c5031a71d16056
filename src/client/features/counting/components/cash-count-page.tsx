/**
 * /analyses/comptageCaisses/{action} (issue #3 point 1): count a terminal's drawer for a site and
 * fiscal date (today by default) — notes and coins by denomination, cheques, meal vouchers and
 * card slips as totals — and see expected, counted and variance live. The site's rules say which
 * parts are required. Saving stores the count on the device and queues it (outbox): it works the
 * same offline, and reaches the server exactly once. A recount is a new version, never an
 * overwrite. `action` `liste` shows only the day's counts; any other action shows the form too.
 */
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CashCount, CashCountBody, RequiredCounts } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { Button } from '../../../ui/button.tsx';
import { Select } from '../../../ui/select.tsx';
import {
  COUNT_PARTS,
  type CashCountForm,
  type CountPart,
  emptyCashCountForm,
  type FieldError,
  formFromBody,
  type PartSummary,
  requiredParts,
  storedCountTotals,
  summary,
  toCashCountBody,
} from '../cash-count-model.ts';
import { countingQueries } from '../counting-queries.ts';
import { COUNTING_TABLES, saveCashCount } from '../save-counts.ts';
import { useCountingForm } from '../use-counting-form.ts';
import {
  CommentField,
  CountedVariance,
  CountingDayList,
  CountingForm,
  CountingPage,
  CountingPart,
  CountingSummary,
  CountingTime,
  UnsentItem,
  varianceClass,
} from './counting-shell.tsx';
import { DenominationGrid } from './denomination-grid.tsx';
import { MoneyField } from './money-field.tsx';

export interface CashCountPageProps {
  action: string;
  /** Outbox item to fix (from /sync), or undefined. */
  fixOutboxId: string | undefined;
}

/** Whether an error is about one of the means counted (its line then names it). */
const isCountPart = (field: string): field is CountPart => (COUNT_PARTS as readonly string[]).includes(field);

/** The cash-count form's state, from useCountingForm. */
type CashCounting = ReturnType<typeof useCountingForm<CashCountForm, FieldError['field'], CashCountBody>>;

/** Formats cents in the day's currency; an unknown amount (null) shows as "—". */
type Money = (cents: number | null) => string;

/** The translated name of a means counted (cash, cheques…). */
function usePartLabel(): (part: CountPart) => string {
  const intl = useIntl();
  return (part: CountPart) => intl.formatMessage({ id: `counting.part.${part}` });
}

/** The live summary: expected, counted and variance per means. */
function CashCountSummaryTable({ rows, money }: { rows: PartSummary[]; money: Money }) {
  const partLabel = usePartLabel();
  return (
    <CountingSummary testId="cash-count-summary">
      <thead>
        <tr>
          {['counting.means', 'counting.expected', 'counting.counted', 'counting.variance'].map((id) => (
            <th key={id} scope="col">
              <FormattedMessage id={id} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.part} data-part={r.part}>
            <th scope="row">{partLabel(r.part)}</th>
            <td>{money(r.expected)}</td>
            <td data-testid={`counted-${r.part}`}>{money(r.counted)}</td>
            <td data-testid={`variance-${r.part}`} className={varianceClass(r.variance)}>
              {money(r.variance)}
            </td>
          </tr>
        ))}
      </tbody>
    </CountingSummary>
  );
}

interface CashCountEntryProps {
  counting: CashCounting;
  formRef: RefObject<HTMLFormElement | null>;
  required: RequiredCounts;
  currency: string;
  rows: PartSummary[];
  money: Money;
  /** The expected amounts could not be read (the summary then has no expected column figures). */
  expectedUnknown: boolean;
  canSubmit: boolean;
}

/** The form: cash by denomination, the other means as totals, the comment and the live summary. */
function CashCountEntry({
  counting,
  formRef,
  required,
  currency,
  rows,
  money,
  expectedUnknown,
  canSubmit,
}: CashCountEntryProps) {
  const intl = useIntl();
  const partLabel = usePartLabel();
  const { form, setForm, errors, submit, errorText, fixing } = counting;
  return (
    <CountingForm
      testId="cash-count-form"
      formRef={formRef}
      onSubmit={submit}
      notice={fixing ? 'counting.fixing' : null}
      errors={errors}
      errorPrefix={(field) => (isCountPart(field) ? `${partLabel(field)} : ` : '')}
      submitLabel={fixing ? 'counting.resend' : 'counting.save'}
      canSubmit={canSubmit}
    >
      {expectedUnknown ? (
        <p className="counting-form__note" role="status">
          <FormattedMessage id="counting.expectedUnknown" />
        </p>
      ) : null}
      <CountingPart
        legend={
          <>
            {partLabel('cash')}{' '}
            {required.cash ? (
              <span className="counting-required">
                <FormattedMessage id="counting.required" />
              </span>
            ) : null}
          </>
        }
      >
        <DenominationGrid
          idPrefix="cash"
          currency={currency}
          quantities={form.quantities}
          onChange={(d, q) =>
            setForm((f) => ({ ...f, cashTouched: true, quantities: { ...f.quantities, [d]: q } }))
          }
        />
      </CountingPart>
      <CountingPart legend={<FormattedMessage id="counting.otherMeans" />} className="counting-form__totals">
        {(['cheques', 'mealVouchers', 'cardSlips'] as const).map((part) => (
          <MoneyField
            key={part}
            testId={`count-${part}`}
            label={partLabel(part)}
            value={form[part]}
            onChange={(text) => setForm((f) => ({ ...f, [part]: text }))}
            errorMessage={errorText(part)}
            description={intl.formatMessage({
              id: required[part] ? 'counting.zeroHint' : 'counting.optionalHint',
            })}
          />
        ))}
        <CommentField value={form.comment} onChange={(comment) => setForm((f) => ({ ...f, comment }))} />
      </CountingPart>

      <CashCountSummaryTable rows={rows} money={money} />
    </CountingForm>
  );
}

interface CashCountDayListProps {
  dateFiscale: string | null;
  /** Counts of the day still on the device (waiting or refused). */
  unsent: CashCounting['unsent'];
  /** The server's counts of the day (every version). */
  counts: readonly CashCount[];
  listUnavailable: boolean;
  money: Money;
  terminalName: (id: number) => string;
  /** False until a site is chosen: an empty list then says nothing of the day. */
  hasSite: boolean;
  /** Opens the form on a recount of this terminal; absent in list-only mode. */
  onRecount: ((caisse: number) => void) | null;
}

/** The day's counts: those still on the device first, then the server's, each with its totals. */
function CashCountDayList({
  dateFiscale,
  unsent,
  counts,
  listUnavailable,
  money,
  terminalName,
  hasSite,
  onRecount,
}: CashCountDayListProps) {
  const nothing = hasSite && !listUnavailable && unsent.length === 0 && counts.length === 0;
  return (
    <CountingDayList
      titleId="cash-count-list-title"
      title="counting.cash.dayCounts"
      dateFiscale={dateFiscale}
      testId="cash-count-list"
      empty={
        nothing ? (
          <FormattedMessage id={onRecount ? 'counting.cash.emptyDay' : 'counting.cash.emptyDayList'} />
        ) : null
      }
      before={
        listUnavailable && unsent.length === 0 ? (
          <p>
            <FormattedMessage id="counting.listUnavailable" />
          </p>
        ) : null
      }
    >
      {unsent.map((r) => (
        <UnsentItem key={r.localId} record={r} testId="cash-count-local">
          <span>{terminalName(Number(r.data.caisse))}</span>
        </UnsentItem>
      ))}
      {counts.map((c) => {
        const totals = storedCountTotals(c);
        return (
          <li key={c.id} className="counting-list__item" data-testid="cash-count-server">
            <span>
              <FormattedMessage
                id="counting.terminalWithVersion"
                values={{ terminal: terminalName(c.caisse), version: c.version }}
              />
            </span>
            <CountedVariance counted={money(totals.countedCents)} variance={money(totals.varianceCents)} />
            <CountingTime at={c.countedAt} by={c.countedBy.login} />
            {onRecount ? (
              <Button onPress={() => onRecount(c.caisse)}>
                <FormattedMessage id="counting.recount" />
              </Button>
            ) : null}
          </li>
        );
      })}
    </CountingDayList>
  );
}

/** The cash-count screen: site, date and terminal, the form (unless `liste`), the day's counts. */
export function CashCountPage({ action, fixOutboxId }: CashCountPageProps) {
  const intl = useIntl();
  const formRef = useRef<HTMLFormElement>(null);
  const showForm = action !== 'liste';
  const counting = useCountingForm<CashCountForm, FieldError['field'], CashCountBody>({
    initial: () => emptyCashCountForm(null, toWireDate(new Date()), null),
    // `required` (below) is read at submit time: the rules of the terminal's day.
    build: (f) => {
      const result = toCashCountBody(f, required, new Date().toISOString());
      return result.ok ? { ok: true, value: result.body } : result;
    },
    save: saveCashCount,
    successCode: 'cashCountSaved',
    // Same site, date and terminal: ready for the next drawer or a recount.
    next: (f) => emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), f.caisse),
    invalidates: countingQueries.all(),
    table: COUNTING_TABLES.cashCount,
    fix: { outboxId: fixOutboxId, kind: 'cashCount', fromBody: formFromBody },
  });
  const { user, ref, sites, form, setForm, setErrors, saving, unsent, currencyOf, moneyIn } = counting;

  // The site's first terminal by default.
  const terminals = ref.terminals.find((t) => t.restaurantId === form.site)?.caisses ?? [];
  useEffect(() => {
    if (form.caisse === null && terminals[0]) setForm((f) => ({ ...f, caisse: terminals[0]?.id ?? null }));
  }, [form.caisse, terminals, setForm]);

  const ready = user && form.site !== null && form.dateFiscale !== null && form.caisse !== null;
  const expectedQuery = useQuery({
    ...countingQueries.expected(user?.id ?? 0, form.site ?? 0, form.dateFiscale ?? '', form.caisse ?? 0),
    enabled: Boolean(ready),
  });
  const listQuery = useQuery({
    ...countingQueries.list(user?.id ?? 0, form.site ?? 0, form.dateFiscale ?? ''),
    enabled: Boolean(user && form.site !== null && form.dateFiscale !== null),
  });

  const currency = currencyOf(expectedQuery.data?.currency);
  const money = moneyIn(currency);
  const required = requiredParts(expectedQuery.data?.rules ?? null, expectedQuery.data?.required ?? null);
  const rows = useMemo(
    () => summary(form, expectedQuery.data?.expected ?? null, required),
    [form, expectedQuery.data, required],
  );

  const recount = (caisse: number) => {
    setForm((f) => ({ ...emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), caisse) }));
    setErrors([]);
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  // The terminal's own label ("Caisse 1", "Bar"); "Caisse 3" from its number when it has none.
  const terminalName = (id: number) =>
    terminals.find((t) => t.id === id)?.libelle ??
    intl.formatMessage({ id: 'counting.terminalNamed' }, { name: String(id) });

  return (
    <CountingPage
      titleId="cash-count-title"
      title="counting.cash.title"
      sites={sites}
      site={form.site}
      onSiteChange={(site) => setForm((f) => ({ ...f, site, caisse: null }))}
      dateFiscale={form.dateFiscale}
      onDateChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire }))}
      context={
        showForm ? (
          <Select
            label={intl.formatMessage({ id: 'counting.terminal' })}
            options={terminals.map((t) => ({ id: t.id, label: t.libelle }))}
            value={form.caisse}
            onChange={(key) => setForm((f) => ({ ...f, caisse: Number(key) }))}
            placeholder={intl.formatMessage({ id: 'counting.terminalNone' })}
          />
        ) : null
      }
    >
      {showForm ? (
        <CashCountEntry
          counting={counting}
          formRef={formRef}
          required={required}
          currency={currency}
          rows={rows}
          money={money}
          expectedUnknown={expectedQuery.isError}
          canSubmit={!saving && Boolean(ready)}
        />
      ) : null}

      <CashCountDayList
        dateFiscale={form.dateFiscale}
        unsent={unsent}
        counts={listQuery.data?.counts ?? []}
        listUnavailable={listQuery.isError}
        money={money}
        terminalName={terminalName}
        hasSite={form.site !== null}
        onRecount={showForm ? recount : null}
      />
    </CountingPage>
  );
}
