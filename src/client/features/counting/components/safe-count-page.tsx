/**
 * /analyses/coffre (issue #3 point 2): count a site's safe for a fiscal date — opening float
 * (suggested from the last count), deposits, withdrawals, content by denomination — with the
 * expected content and the variance live. Saved on the device and queued (outbox), so it works
 * offline. Each save is a new version, waiting for a manager's countersignature: the latest
 * count of the day can be countersigned here, the counts still waiting over the last month are
 * listed, a receipt can be e-mailed, and a day with no count reported missing. Those actions
 * need the network (safe-signatures.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SafeCountBody } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { db } from '../../../lib/db.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useLiveQuery } from '../../../lib/outbox/use-live-query.ts';
import { Button } from '../../../ui/button.tsx';
import { TextField } from '../../../ui/text-field.tsx';
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
import { useCountingForm } from '../use-counting-form.ts';
import { useQueuedWrite } from '../use-queued-write.ts';
import { AwaitingSignatures } from './awaiting-signatures.tsx';
import { CountersignDialog, type CountersignTarget } from './countersign-dialog.tsx';
import { CountingDayList, CountingForm, CountingPage } from './counting-shell.tsx';
import { DenominationGrid } from './denomination-grid.tsx';
import { MailDialog, type MailRequest } from './mail-dialog.tsx';
import { ManagerCodeDialog } from './manager-code-dialog.tsx';
import { MoneyField } from './money-field.tsx';
import { SyncStateTag } from './sync-state-tag.tsx';

export function SafeCountPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const [fixing, setFixing] = useState<string | null>(null);
  const [countersigning, setCountersigning] = useState<CountersignTarget | null>(null);
  const [mailing, setMailing] = useState<MailRequest | null>(null);
  const [settingCode, setSettingCode] = useState(false);
  const { user, sites, form, setForm, errors, saving, submit, errorOf } = useCountingForm<
    SafeCountForm,
    SafeField,
    SafeCountBody
  >({
    initial: () => emptySafeCountForm(null, toWireDate(new Date())),
    build: (f) => {
      const result = toSafeCountBody(f, new Date().toISOString());
      return result.ok ? { ok: true, value: result.body } : result;
    },
    save: (author, body) => saveSafeCount(author, body, fixing),
    successCode: 'safeCountSaved',
    next: (f) => emptySafeCountForm(f.site, f.dateFiscale ?? toWireDate(new Date())),
    invalidates: safeQueries.all(),
    onSaved: () => setFixing(null),
  });

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
  }, [siteDay, form.opening, fixing, intl.locale, setForm]);
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
  const errorText = (field: SafeField) => {
    const id = errorOf(field);
    return id ? intl.formatMessage({ id }) : undefined;
  };

  const latest = siteDay?.counts[0];
  const libelle = siteDay?.libelle ?? site?.libelle ?? '';
  const noCountYet =
    dayQuery.isSuccess && (siteDay?.counts.length ?? 0) === 0 && (localCounts ?? []).length === 0;

  return (
    <CountingPage
      titleId="safe-count-title"
      title="counting.safe.title"
      sites={sites}
      site={form.site}
      onSiteChange={(site) => setForm((f) => ({ ...f, site, opening: '' }))}
      dateFiscale={form.dateFiscale}
      onDateChange={(wire) => setForm((f) => ({ ...f, dateFiscale: wire, opening: '' }))}
    >
      <CountingForm testId="safe-count-form" onSubmit={submit}>
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
            errorMessage={errorText('opening')}
          />
          <MoneyField
            testId="safe-deposits"
            label={intl.formatMessage({ id: 'counting.safe.deposits' })}
            value={form.deposits}
            onChange={(deposits) => setForm((f) => ({ ...f, deposits }))}
            errorMessage={errorText('deposits')}
          />
          <MoneyField
            testId="safe-withdrawals"
            label={intl.formatMessage({ id: 'counting.safe.withdrawals' })}
            value={form.withdrawals}
            onChange={(withdrawals) => setForm((f) => ({ ...f, withdrawals }))}
            errorMessage={errorText('withdrawals')}
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
      </CountingForm>
      <CountingDayList
        titleId="safe-list-title"
        title="counting.safe.dayCounts"
        dateFiscale={form.dateFiscale}
        testId="safe-count-list"
        before={
          noCountYet && form.site !== null && form.dateFiscale !== null ? (
            <div className="counting-list__empty">
              <p>
                <FormattedMessage id="counting.safe.noCountForDay" />
              </p>
              <Button
                onPress={() =>
                  setMailing({
                    kind: 'missing',
                    site: form.site ?? 0,
                    libelle,
                    dateFiscale: form.dateFiscale ?? '',
                  })
                }
              >
                <FormattedMessage id="counting.mail.missingButton" />
              </Button>
            </div>
          ) : null
        }
      >
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
            <span className="counting-list__actions">
              {c.id === latest?.id && !c.countersignature ? (
                <Button
                  onPress={() =>
                    setCountersigning({ site: c.site, libelle: c.libelle, dateFiscale: c.dateFiscale })
                  }
                >
                  <FormattedMessage id="counting.safe.countersign" />
                </Button>
              ) : null}
              <Button
                onPress={() =>
                  setMailing({
                    kind: 'receipt',
                    countId: c.id,
                    site: c.site,
                    libelle: c.libelle,
                    dateFiscale: c.dateFiscale,
                  })
                }
              >
                <FormattedMessage id="counting.mail.receiptButton" />
              </Button>
            </span>
          </li>
        ))}
      </CountingDayList>
      {user ? (
        <AwaitingSignatures
          userId={user.id}
          dateFin={form.dateFiscale ?? toWireDate(new Date())}
          onCountersign={setCountersigning}
          onMail={setMailing}
        />
      ) : null}
      <section className="counting-list" aria-labelledby="safe-code-title">
        <h2 id="safe-code-title">
          <FormattedMessage id="counting.safe.managerCodeTitle" />
        </h2>
        <div className="counting-list__empty">
          <p>
            <FormattedMessage id="counting.safe.managerCodeWhy" />
          </p>
          <Button onPress={() => setSettingCode(true)}>
            <FormattedMessage id="counting.safe.setManagerCode" />
          </Button>
        </div>
      </section>
      {user ? (
        <>
          <ManagerCodeDialog userId={user.id} isOpen={settingCode} onClose={() => setSettingCode(false)} />
          <CountersignDialog
            userId={user.id}
            target={countersigning}
            onClose={() => setCountersigning(null)}
          />
          <MailDialog userId={user.id} request={mailing} onClose={() => setMailing(null)} />
        </>
      ) : null}
    </CountingPage>
  );
}
