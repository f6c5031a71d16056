/**
 * /analyses/comptageCaisses/{action} (issue #3 point 1): count a terminal's drawer for a site and
 * fiscal date (today by default) — notes and coins by denomination, cheques, meal vouchers and
 * card slips as totals — and see expected, counted and variance live. The site's rules say which
 * parts are required. Saving stores the count on the device and queues it (outbox): it works the
 * same offline, and reaches the server exactly once. A recount is a new version, never an
 * overwrite. `action` `liste` shows only the day's counts; any other action shows the form too.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { CashCountBody } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { db } from '../../../lib/db.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useLiveQuery } from '../../../lib/outbox/use-live-query.ts';
import { Button } from '../../../ui/button.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  type CashCountForm,
  type CountPart,
  emptyCashCountForm,
  type FieldError,
  formFromBody,
  requiredParts,
  summary,
  toCashCountBody,
} from '../cash-count-model.ts';
import { countingQueries } from '../counting-queries.ts';
import { saveCashCount } from '../save-counts.ts';
import { useCountingForm } from '../use-counting-form.ts';
import { useQueuedWrite } from '../use-queued-write.ts';
import { CountingDayList, CountingForm, CountingPage } from './counting-shell.tsx';
import { DenominationGrid } from './denomination-grid.tsx';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';

export interface CashCountPageProps {
  action: string;
  /** Outbox item to fix (from /sync), or undefined. */
  fixOutboxId: string | undefined;
}

export function CashCountPage({ action, fixOutboxId }: CashCountPageProps) {
  const intl = useIntl();
  const [fixing, setFixing] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const showForm = action !== 'liste';
  const { user, ref, sites, form, setForm, errors, setErrors, saving, submit, errorOf } = useCountingForm<
    CashCountForm,
    FieldError['field'],
    CashCountBody
  >({
    initial: () => emptyCashCountForm(null, toWireDate(new Date()), null),
    // `required` (below) is read at submit time: the rules of the terminal's day.
    build: (f) => {
      const result = toCashCountBody(f, required, new Date().toISOString());
      return result.ok ? { ok: true, value: result.body } : result;
    },
    save: (author, body) => saveCashCount(author, body, fixing),
    successCode: 'cashCountSaved',
    // Same site, date and terminal: ready for the next drawer or a recount.
    next: (f) => emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), f.caisse),
    invalidates: countingQueries.all(),
    onSaved: () => setFixing(null),
  });

  // The site's first terminal by default.
  const terminals = ref.terminals.find((t) => t.restaurantId === form.site)?.caisses ?? [];
  useEffect(() => {
    if (form.caisse === null && terminals[0]) setForm((f) => ({ ...f, caisse: terminals[0]?.id ?? null }));
  }, [form.caisse, terminals, setForm]);

  // Fixing a write the server refused: the form opens with what was queued.
  useQueuedWrite<CashCountBody>(
    fixOutboxId,
    'cashCount',
    (body, itemId) => {
      setForm(formFromBody(body, intl.locale));
      setFixing(itemId);
    },
    [intl.locale],
  );

  const site = sites.find((s) => s.restaurantId === form.site);
  const ready = user && form.site !== null && form.dateFiscale !== null && form.caisse !== null;
  const expectedQuery = useQuery({
    ...countingQueries.expected(user?.id ?? 0, form.site ?? 0, form.dateFiscale ?? '', form.caisse ?? 0),
    enabled: Boolean(ready),
  });
  const listQuery = useQuery({
    ...countingQueries.list(user?.id ?? 0, form.site ?? 0, form.dateFiscale ?? ''),
    enabled: Boolean(user && form.site !== null && form.dateFiscale !== null),
  });
  const localCounts = useLiveQuery(
    () =>
      form.site === null || form.dateFiscale === null
        ? Promise.resolve([])
        : db()
            .cashCounts.where('[siteId+fiscalDate]')
            .equals([form.site, form.dateFiscale])
            .filter((r) => r.syncState === 'pending' || r.syncState === 'needsAttention')
            .sortBy('savedAt'),
    [form.site, form.dateFiscale],
  );

  const currency = expectedQuery.data?.currency ?? site?.currency ?? user?.currency ?? 'EUR';
  const money = (cents: number | null) => (cents === null ? '—' : formatMoney(cents, currency, intl.locale));
  const required = requiredParts(expectedQuery.data?.rules ?? null, expectedQuery.data?.required ?? null);
  const rows = useMemo(
    () => summary(form, expectedQuery.data?.expected ?? null, required),
    [form, expectedQuery.data, required],
  );
  const errorText = (field: FieldError['field']) => {
    const id = errorOf(field);
    return id ? intl.formatMessage({ id }) : undefined;
  };
  const partLabel = (part: CountPart) => intl.formatMessage({ id: `counting.part.${part}` });

  const recount = (caisse: number) => {
    setForm((f) => ({ ...emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), caisse) }));
    setErrors([]);
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const terminalName = (id: number) => terminals.find((t) => t.id === id)?.libelle ?? String(id);

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
        <CountingForm testId="cash-count-form" formRef={formRef} onSubmit={submit}>
          {fixing ? (
            <p className="counting-form__fixing" role="status">
              <FormattedMessage id="counting.fixing" />
            </p>
          ) : null}
          {expectedQuery.isError ? (
            <p className="counting-form__note" role="status">
              <FormattedMessage id="counting.expectedUnknown" />
            </p>
          ) : null}
          <fieldset className="counting-form__part">
            <legend>
              {partLabel('cash')}{' '}
              {required.cash ? (
                <span className="counting-required">
                  <FormattedMessage id="counting.required" />
                </span>
              ) : null}
            </legend>
            <DenominationGrid
              idPrefix="cash"
              currency={currency}
              quantities={form.quantities}
              onChange={(d, q) =>
                setForm((f) => ({ ...f, cashTouched: true, quantities: { ...f.quantities, [d]: q } }))
              }
            />
          </fieldset>
          <fieldset className="counting-form__part counting-form__totals">
            <legend>
              <FormattedMessage id="counting.otherMeans" />
            </legend>
            {(['cheques', 'mealVouchers', 'cardSlips'] as const).map((part) => (
              <MoneyField
                key={part}
                testId={`count-${part}`}
                label={partLabel(part)}
                value={form[part]}
                onChange={(text) => setForm((f) => ({ ...f, [part]: text }))}
                isRequired={required[part]}
                errorMessage={errorText(part)}
                description={required[part] ? undefined : intl.formatMessage({ id: 'counting.optionalHint' })}
              />
            ))}
            <TextField
              label={intl.formatMessage({ id: 'counting.comment' })}
              value={form.comment}
              onChange={(comment) => setForm((f) => ({ ...f, comment }))}
              maxLength={1000}
            />
          </fieldset>

          <table className="counting-summary" data-testid="cash-count-summary">
            <caption>
              <FormattedMessage id="counting.summary" />
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <FormattedMessage id="counting.means" />
                </th>
                <th scope="col">
                  <FormattedMessage id="counting.expected" />
                </th>
                <th scope="col">
                  <FormattedMessage id="counting.counted" />
                </th>
                <th scope="col">
                  <FormattedMessage id="counting.variance" />
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.part} data-part={r.part}>
                  <th scope="row">{partLabel(r.part)}</th>
                  <td>{money(r.expected)}</td>
                  <td data-testid={`counted-${r.part}`}>{money(r.counted)}</td>
                  <td
                    data-testid={`variance-${r.part}`}
                    className={
                      r.variance === null
                        ? ''
                        : r.variance < 0
                          ? 'variance--short'
                          : r.variance > 0
                            ? 'variance--over'
                            : ''
                    }
                  >
                    {r.variance === null ? '—' : money(r.variance)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>

          {errors.length > 0 ? (
            <ul className="counting-errors" role="alert">
              {errors.map((e) => (
                <li key={`${e.field}-${e.messageId}`}>
                  {e.field === 'cash' ||
                  e.field === 'cheques' ||
                  e.field === 'mealVouchers' ||
                  e.field === 'cardSlips'
                    ? `${partLabel(e.field)} : `
                    : ''}
                  <FormattedMessage id={e.messageId} />
                </li>
              ))}
            </ul>
          ) : null}
          <div className="counting-form__actions">
            <Button type="submit" variant="primary" isDisabled={saving || !ready}>
              <FormattedMessage id={fixing ? 'counting.resend' : 'counting.save'} />
            </Button>
          </div>
        </CountingForm>
      ) : null}

      <CountingDayList
        titleId="cash-count-list-title"
        title="counting.cash.dayCounts"
        dateFiscale={form.dateFiscale}
        testId="cash-count-list"
        before={
          listQuery.isError && (localCounts ?? []).length === 0 ? (
            <p>
              <FormattedMessage id="counting.listUnavailable" />
            </p>
          ) : null
        }
      >
        {(localCounts ?? []).map((r) => (
          <li key={r.localId} className="counting-list__item" data-testid="cash-count-local">
            <span>
              <FormattedMessage
                id="counting.terminalNamed"
                values={{ name: terminalName(Number(r.data.caisse)) }}
              />
            </span>
            <SyncStateTag state={r.syncState} reason={r.reason} />
            <span className="counting-list__time">
              {intl.formatTime(r.savedAt, { hour: '2-digit', minute: '2-digit' })}
            </span>
          </li>
        ))}
        {(listQuery.data?.counts ?? []).map((c) => (
          <li key={c.id} className="counting-list__item" data-testid="cash-count-server">
            <span>
              <FormattedMessage
                id="counting.terminalVersion"
                values={{ name: terminalName(c.caisse), version: c.version }}
              />
            </span>
            <span>
              <FormattedMessage
                id="counting.countedVariance"
                values={{
                  counted: money(
                    (c.cashCents ?? 0) +
                      (c.chequesCents ?? 0) +
                      (c.mealVouchersCents ?? 0) +
                      (c.cardSlipsCents ?? 0),
                  ),
                  variance: money(
                    (c.variance.cashCents ?? 0) +
                      (c.variance.chequesCents ?? 0) +
                      (c.variance.mealVouchersCents ?? 0) +
                      (c.variance.cardSlipsCents ?? 0),
                  ),
                }}
              />
            </span>
            <span className="counting-list__time">
              {intl.formatTime(c.countedAt, { hour: '2-digit', minute: '2-digit' })} · {c.countedBy.login}
            </span>
            {showForm ? (
              <Button onPress={() => recount(c.caisse)}>
                <FormattedMessage id="counting.recount" />
              </Button>
            ) : null}
          </li>
        ))}
      </CountingDayList>
    </CountingPage>
  );
}
