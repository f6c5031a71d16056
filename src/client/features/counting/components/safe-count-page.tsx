/**
 * /analyses/coffre (issue #3 point 2): count a site's safe for a fiscal date — opening float
 * (suggested from the last count), deposits, withdrawals, content by denomination — with the
 * expected content and the variance live. Saved on the device and queued (outbox), so it works
 * offline. Each save is a new version, waiting for a manager's countersignature.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { SafeCountBody } from '../../../../contract/counting.ts';
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
import { safeQueries } from '../counting-queries.ts';
import { centsToInput } from '../money-input.ts';
import {
  emptySafeCountForm,
  type SafeCountForm,
  type SafeField,
  safeFigures,
  safeFormFromBody,
  toSafeCountBody,
} from '../safe-count-model.ts';
import { saveSafeCount } from '../save-counts.ts';
import { DenominationGrid } from './denomination-grid.tsx';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';
import { useQueuedWrite } from '../use-queued-write.ts';
import '../counting.css';

export function SafeCountPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const ref = useReferenceData();
  const queryClient = useQueryClient();
  const sites = visibleSites(ref.sites);
  const [form, setForm] = useState<SafeCountForm>(() => emptySafeCountForm(null, toWireDate(new Date())));
  const [errors, setErrors] = useState<{ field: SafeField; messageId: string }[]>([]);
  const [saving, setSaving] = useState(false);
  const [fixing, setFixing] = useState<string | null>(null);

  useEffect(() => {
    if (form.site === null && sites[0]) setForm((f) => ({ ...f, site: sites[0]?.restaurantId ?? null }));
  }, [form.site, sites]);
  // Fixing a write the server refused: the form opens with what was queued.
  useQueuedWrite<SafeCountBody>(
    fixOutboxId,
    'safeCount',
    (body, itemId) => {
      setForm(safeFormFromBody(body, intl.locale));
      setFixing(itemId);
    },
    [intl.locale],
  );

  const dayQuery = useQuery({
    ...safeQueries.day(user?.id ?? 0, form.dateFiscale ?? ''),
    enabled: Boolean(user && form.dateFiscale),
  });
  const siteDay = dayQuery.data?.sites.find((s) => s.restaurantId === form.site);
  // The suggested opening float fills an untouched field.
  useEffect(() => {
    if (siteDay && form.opening === '' && !fixing) {
      setForm((f) =>
        f.opening === '' ? { ...f, opening: centsToInput(siteDay.suggestedOpeningCents, intl.locale) } : f,
      );
    }
  }, [siteDay, form.opening, fixing, intl.locale]);
  const localCounts = useLiveQuery(
    () =>
      form.site === null || form.dateFiscale === null
        ? Promise.resolve([])
        : db()
            .safeCounts.where('[siteId+fiscalDate]')
            .equals([form.site, form.dateFiscale])
            .filter((r) => r.syncState === 'pending' || r.syncState === 'needsAttention')
            .sortBy('savedAt'),
    [form.site, form.dateFiscale],
  );

  const site = sites.find((s) => s.restaurantId === form.site);
  const currency = siteDay?.currency ?? site?.currency ?? user?.currency ?? 'EUR';
  const money = (cents: number | null) => (cents === null ? '—' : formatMoney(cents, currency, intl.locale));
  const figures = safeFigures(form);
  const errorOf = (field: SafeField) => {
    const e = errors.find((x) => x.field === field);
    return e ? intl.formatMessage({ id: e.messageId }) : undefined;
  };

  const submit = async () => {
    if (!user) return;
    const result = toSafeCountBody(form, new Date().toISOString());
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors([]);
    setSaving(true);
    try {
      await saveSafeCount({ id: user.id, login: user.login }, result.body, fixing);
      notify.success('safeCountSaved');
      setFixing(null);
      setForm((f) => emptySafeCountForm(f.site, f.dateFiscale ?? toWireDate(new Date())));
      void queryClient.invalidateQueries({ queryKey: safeQueries.all() });
    } catch (e) {
      notifyFailure(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="counting-page" aria-labelledby="safe-count-title">
      <h1 id="safe-count-title">
        <FormattedMessage id="counting.safe.title" />
      </h1>
      <div className="counting-page__context">
        <Select
          label={intl.formatMessage({ id: 'counting.site' })}
          options={sites.map((s) => ({ id: s.restaurantId, label: s.libelle }))}
          value={form.site}
          onChange={(key) => setForm((f) => ({ ...f, site: Number(key), opening: '' }))}
        />
        <DateField
          label={intl.formatMessage({ id: 'counting.fiscalDate' })}
          value={form.dateFiscale}
          onChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire, opening: '' }))}
          invalidMessage={intl.formatMessage({ id: 'counting.error.date' })}
          placeholder={intl.formatMessage({ id: 'counting.datePlaceholder' })}
          isRequired
        />
      </div>
      <form
        className="counting-form"
        data-testid="safe-count-form"
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
        <fieldset className="counting-form__part">
          <legend>
            <FormattedMessage id="counting.safe.contents" />
          </legend>
          <DenominationGrid
            idPrefix="safe"
            currency={currency}
            quantities={form.quantities}
            onChange={(d, q) => setForm((f) => ({ ...f, quantities: { ...f.quantities, [d]: q } }))}
          />
        </fieldset>
        <fieldset className="counting-form__part">
          <legend>
            <FormattedMessage id="counting.safe.movements" />
          </legend>
          <MoneyField
            testId="safe-opening"
            label={intl.formatMessage({ id: 'counting.safe.opening' })}
            value={form.opening}
            onChange={(opening) => setForm((f) => ({ ...f, opening }))}
            isRequired
            errorMessage={errorOf('opening')}
          />
          <MoneyField
            testId="safe-deposits"
            label={intl.formatMessage({ id: 'counting.safe.deposits' })}
            value={form.deposits}
            onChange={(deposits) => setForm((f) => ({ ...f, deposits }))}
            errorMessage={errorOf('deposits')}
          />
          <MoneyField
            testId="safe-withdrawals"
            label={intl.formatMessage({ id: 'counting.safe.withdrawals' })}
            value={form.withdrawals}
            onChange={(withdrawals) => setForm((f) => ({ ...f, withdrawals }))}
            errorMessage={errorOf('withdrawals')}
          />
          <TextField
            label={intl.formatMessage({ id: 'counting.comment' })}
            value={form.comment}
            onChange={(comment) => setForm((f) => ({ ...f, comment }))}
            maxLength={1000}
          />
        </fieldset>
        <table className="counting-summary" data-testid="safe-count-summary">
          <caption>
            <FormattedMessage id="counting.summary" />
          </caption>
          <tbody>
            <tr>
              <th scope="row">
                <FormattedMessage id="counting.expected" />
              </th>
              <td data-testid="safe-expected">{money(figures.expected)}</td>
            </tr>
            <tr>
              <th scope="row">
                <FormattedMessage id="counting.counted" />
              </th>
              <td data-testid="safe-counted">{money(figures.counted)}</td>
            </tr>
            <tr>
              <th scope="row">
                <FormattedMessage id="counting.variance" />
              </th>
              <td
                data-testid="safe-variance"
                className={
                  figures.variance === null || figures.variance === 0
                    ? ''
                    : figures.variance < 0
                      ? 'variance--short'
                      : 'variance--over'
                }
              >
                {money(figures.variance)}
              </td>
            </tr>
          </tbody>
        </table>
        {errors.length > 0 ? (
          <ul className="counting-errors" role="alert">
            {errors.map((e) => (
              <li key={`${e.field}-${e.messageId}`}>
                <FormattedMessage id={e.messageId} />
              </li>
            ))}
          </ul>
        ) : null}
        <div className="counting-form__actions">
          <Button type="submit" variant="primary" isDisabled={saving || !user || form.site === null}>
            <FormattedMessage id={fixing ? 'counting.resend' : 'counting.save'} />
          </Button>
        </div>
      </form>
      <section className="counting-list" aria-labelledby="safe-list-title">
        <h2 id="safe-list-title">
          <FormattedMessage
            id="counting.safe.dayCounts"
            values={{ date: form.dateFiscale ? formatDate(form.dateFiscale) : '—' }}
          />
        </h2>
        <ul className="counting-list__items" data-testid="safe-count-list">
          {(localCounts ?? []).map((r) => (
            <li key={r.localId} className="counting-list__item" data-testid="safe-count-local">
              <SyncStateTag state={r.syncState} reason={r.reason} />
              <span className="counting-list__time">
                {intl.formatTime(r.savedAt, { hour: '2-digit', minute: '2-digit' })}
              </span>
            </li>
          ))}
          {(siteDay?.counts ?? []).map((c) => (
            <li key={c.id} className="counting-list__item" data-testid="safe-count-server">
              <span>
                <FormattedMessage id="counting.version" values={{ version: c.version }} />
              </span>
              <span>
                <FormattedMessage
                  id="counting.countedVariance"
                  values={{ counted: money(c.countedCents), variance: money(c.varianceCents) }}
                />
              </span>
              <span className={`counting-tag ${c.countersignature ? 'counting-tag--synced' : ''}`}>
                <FormattedMessage
                  id={c.countersignature ? 'counting.safe.countersigned' : 'counting.safe.awaitingSignature'}
                  values={{ manager: c.countersignature?.managerName ?? '' }}
                />
              </span>
              <span className="counting-list__time">
                {intl.formatTime(c.countedAt, { hour: '2-digit', minute: '2-digit' })} · {c.countedBy.login}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}
