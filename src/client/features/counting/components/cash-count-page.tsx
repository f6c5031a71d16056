/**
 * /analyses/comptageCaisses/{action} (issue #3 point 1): count a terminal's drawer for a site and
 * fiscal date (today by default) — notes and coins by denomination, cheques, meal vouchers and
 * card slips as totals — and see expected, counted and variance live. The site's rules say which
 * parts are required. Saving stores the count on the device and queues it (outbox): it works the
 * same offline, and reaches the server exactly once. A recount is a new version, never an
 * overwrite. `action` `liste` shows only the day's counts; any other action shows the form too.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { CashCountBody } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { db } from '../../../lib/db.ts';
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
import { DenominationGrid } from './denomination-grid.tsx';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';
import { useQueuedWrite } from '../use-queued-write.ts';
import '../counting.css';

export interface CashCountPageProps {
  action: string;
  /** Outbox item to fix (from /sync), or undefined. */
  fixOutboxId: string | undefined;
}

export function CashCountPage({ action, fixOutboxId }: CashCountPageProps) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const queryClient = useQueryClient();
  const sites = visibleSites(ref.sites);
  const [form, setForm] = useState<CashCountForm>(() =>
    emptyCashCountForm(null, toWireDate(new Date()), null),
  );
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  const [fixing, setFixing] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const showForm = action !== 'liste';

  // First site and its first terminal by default.
  useEffect(() => {
    if (form.site === null && sites[0]) setForm((f) => ({ ...f, site: sites[0]?.restaurantId ?? null }));
  }, [form.site, sites]);
  const terminals = ref.terminals.find((t) => t.restaurantId === form.site)?.caisses ?? [];
  useEffect(() => {
    if (form.caisse === null && terminals[0]) setForm((f) => ({ ...f, caisse: terminals[0]?.id ?? null }));
  }, [form.caisse, terminals]);

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
  const errorOf = (field: FieldError['field']) => {
    const e = errors.find((x) => x.field === field);
    return e ? intl.formatMessage({ id: e.messageId }) : undefined;
  };
  const partLabel = (part: CountPart) => intl.formatMessage({ id: `counting.part.${part}` });

  const submit = async () => {
    if (!user) return;
    const result = toCashCountBody(form, required, new Date().toISOString());
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors([]);
    setSaving(true);
    try {
      await saveCashCount({ id: user.id, login: user.login }, result.body, fixing);
      notify.success('cashCountSaved');
      setFixing(null);
      // Same site, date and terminal: ready for the next drawer or a recount.
      setForm((f) => ({ ...emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), f.caisse) }));
      void queryClient.invalidateQueries({ queryKey: countingQueries.all() });
    } catch (e) {
      notifyFailure(e);
    } finally {
      setSaving(false);
    }
  };

  const recount = (caisse: number) => {
    setForm((f) => ({ ...emptyCashCountForm(f.site, f.dateFiscale ?? toWireDate(new Date()), caisse) }));
    setErrors([]);
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const terminalName = (id: number) => terminals.find((t) => t.id === id)?.libelle ?? String(id);

  return (
    <section className="counting-page" aria-labelledby="cash-count-title">
      <h1 id="cash-count-title">
        <FormattedMessage id="counting.cash.title" />
      </h1>
      <div className="counting-page__context">
        <Select
          label={intl.formatMessage({ id: 'counting.site' })}
          options={sites.map((s) => ({ id: s.restaurantId, label: s.libelle }))}
          value={form.site}
          onChange={(key) => setForm((f) => ({ ...f, site: Number(key), caisse: null }))}
        />
        <DateField
          label={intl.formatMessage({ id: 'counting.fiscalDate' })}
          value={form.dateFiscale}
          onChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire }))}
          invalidMessage={intl.formatMessage({ id: 'counting.error.date' })}
          placeholder={intl.formatMessage({ id: 'counting.datePlaceholder' })}
          isRequired
        />
        {showForm ? (
          <Select
            label={intl.formatMessage({ id: 'counting.terminal' })}
            options={terminals.map((t) => ({ id: t.id, label: t.libelle }))}
            value={form.caisse}
            onChange={(key) => setForm((f) => ({ ...f, caisse: Number(key) }))}
            placeholder={intl.formatMessage({ id: 'counting.terminalNone' })}
          />
        ) : null}
      </div>

      {showForm ? (
        <form
          ref={formRef}
          className="counting-form"
          data-testid="cash-count-form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
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
                errorMessage={errorOf(part)}
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
        </form>
      ) : null}

      <section className="counting-list" aria-labelledby="cash-count-list-title">
        <h2 id="cash-count-list-title">
          <FormattedMessage
            id="counting.cash.dayCounts"
            values={{ date: form.dateFiscale ? formatDate(form.dateFiscale) : '—' }}
          />
        </h2>
        {listQuery.isError && (localCounts ?? []).length === 0 ? (
          <p>
            <FormattedMessage id="counting.listUnavailable" />
          </p>
        ) : null}
        <ul className="counting-list__items" data-testid="cash-count-list">
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
        </ul>
      </section>
    </section>
  );
}
