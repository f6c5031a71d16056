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
import type { SafeCount, SafeCountBody } from '../../../../contract/counting.ts';
import { toWireDate } from '../../../../contract/dates.ts';
import { Button } from '../../../ui/button.tsx';
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
import { COUNTING_TABLES, saveSafeCount } from '../save-counts.ts';
import { useCountingForm } from '../use-counting-form.ts';
import { AwaitingSignatures } from './awaiting-signatures.tsx';
import { CountersignDialog, type CountersignTarget } from './countersign-dialog.tsx';
import {
  CommentField,
  CountedVariance,
  CountingDayList,
  CountingForm,
  CountingPage,
  CountingPart,
  CountingSummary,
  CountingSection,
  CountingTime,
  UnsentItem,
  varianceClass,
} from './counting-shell.tsx';
import { DenominationGrid } from './denomination-grid.tsx';
import { MailDialog, type MailRequest } from './mail-dialog.tsx';
import { ManagerCodeDialog } from './manager-code-dialog.tsx';
import { MoneyField } from './money-field.tsx';
import { SafeCountActions } from './safe-count-actions.tsx';

/** The safe's movements of the day, in the form's order (the opening float is required). */
const MOVEMENTS = ['opening', 'deposits', 'withdrawals'] as const;

/** The safe-count form's state, from useCountingForm. */
type SafeCounting = ReturnType<typeof useCountingForm<SafeCountForm, SafeField, SafeCountBody>>;

/** Formats cents in the day's currency; an unknown amount (null) shows as "—". */
type Money = (cents: number | null) => string;

/** Expected, counted and variance of the safe as typed. */
function SafeFiguresTable({ figures, money }: { figures: ReturnType<typeof safeFigures>; money: Money }) {
  return (
    <CountingSummary testId="safe-count-summary">
      <tbody>
        {(
          [
            ['counting.expected', 'safe-expected', figures.expected],
            ['counting.counted', 'safe-counted', figures.counted],
          ] as const
        ).map(([label, testId, cents]) => (
          <tr key={testId}>
            <th scope="row">
              <FormattedMessage id={label} />
            </th>
            <td data-testid={testId}>{money(cents)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">
            <FormattedMessage id="counting.variance" />
          </th>
          <td data-testid="safe-variance" className={varianceClass(figures.variance)}>
            {money(figures.variance)}
          </td>
        </tr>
      </tbody>
    </CountingSummary>
  );
}

/** The form: the safe's content by denomination, the day's movements, the comment, the figures. */
function SafeCountEntry({
  counting,
  currency,
  money,
}: {
  counting: SafeCounting;
  currency: string;
  money: Money;
}) {
  const intl = useIntl();
  const { user, form, setForm, errors, saving, submit, errorText, fixing } = counting;
  return (
    <CountingForm
      testId="safe-count-form"
      onSubmit={submit}
      notice={fixing ? 'counting.fixing' : null}
      errors={errors}
      submitLabel={fixing ? 'counting.resend' : 'counting.save'}
      canSubmit={!saving && Boolean(user) && form.site !== null}
    >
      <CountingPart legend={<FormattedMessage id="counting.safe.contents" />}>
        <DenominationGrid
          idPrefix="safe"
          currency={currency}
          quantities={form.quantities}
          onChange={(d, q) => setForm((f) => ({ ...f, quantities: { ...f.quantities, [d]: q } }))}
        />
      </CountingPart>
      <CountingPart legend={<FormattedMessage id="counting.safe.movements" />}>
        {MOVEMENTS.map((field) => (
          <MoneyField
            key={field}
            testId={`safe-${field}`}
            label={intl.formatMessage({ id: `counting.safe.${field}` })}
            value={form[field]}
            onChange={(text) => setForm((f) => ({ ...f, [field]: text }))}
            isRequired={field === 'opening' ? true : undefined}
            errorMessage={errorText(field)}
          />
        ))}
        <CommentField value={form.comment} onChange={(comment) => setForm((f) => ({ ...f, comment }))} />
      </CountingPart>
      <SafeFiguresTable figures={safeFigures(form)} money={money} />
    </CountingForm>
  );
}

interface SafeCountDayListProps {
  dateFiscale: string | null;
  /** Counts of the day still on the device (waiting or refused). */
  unsent: SafeCounting['unsent'];
  /** The server's counts of the site's day, newest first. */
  counts: readonly SafeCount[];
  /** Shown when the day has no count at all: the button that mails the missing-count notice. */
  onMailMissing: (() => void) | null;
  money: Money;
  onCountersign: (target: CountersignTarget) => void;
  onMail: (request: MailRequest) => void;
}

/** The day's safe counts: those still on the device, then the server's with their countersignature. */
function SafeCountDayList({
  dateFiscale,
  unsent,
  counts,
  onMailMissing,
  money,
  onCountersign,
  onMail,
}: SafeCountDayListProps) {
  const latest = counts[0];
  return (
    <CountingDayList
      titleId="safe-list-title"
      title="counting.safe.dayCounts"
      dateFiscale={dateFiscale}
      testId="safe-count-list"
      before={
        onMailMissing ? (
          <div className="counting-list__empty">
            <p>
              <FormattedMessage id="counting.safe.noCountForDay" />
            </p>
            <Button onPress={onMailMissing}>
              <FormattedMessage id="counting.mail.missingButton" />
            </Button>
          </div>
        ) : null
      }
    >
      {unsent.map((r) => (
        <UnsentItem key={r.localId} record={r} testId="safe-count-local" />
      ))}
      {counts.map((c) => (
        <li key={c.id} className="counting-list__item" data-testid="safe-count-server">
          <span>
            <FormattedMessage id="counting.version" values={{ version: c.version }} />
          </span>
          <CountedVariance counted={money(c.countedCents)} variance={money(c.varianceCents)} />
          <span className={`counting-tag ${c.countersignature ? 'counting-tag--synced' : ''}`}>
            <FormattedMessage
              id={c.countersignature ? 'counting.safe.countersigned' : 'counting.safe.awaitingSignature'}
              values={{ manager: c.countersignature?.managerName ?? '' }}
            />
          </span>
          <CountingTime at={c.countedAt} by={c.countedBy.login} />
          <SafeCountActions
            count={c}
            onCountersign={c.id === latest?.id && !c.countersignature ? onCountersign : undefined}
            onMail={onMail}
          />
        </li>
      ))}
    </CountingDayList>
  );
}

/** Why and where a manager sets the code that countersigns safe counts. */
function ManagerCodeSection({ onSetCode }: { onSetCode: () => void }) {
  return (
    <CountingSection titleId="safe-code-title" title="counting.safe.managerCodeTitle">
      <div className="counting-list__empty">
        <p>
          <FormattedMessage id="counting.safe.managerCodeWhy" />
        </p>
        <Button onPress={onSetCode}>
          <FormattedMessage id="counting.safe.setManagerCode" />
        </Button>
      </div>
    </CountingSection>
  );
}

/**
 * The safe-count screen: site and date, the form, the day's counts, the counts awaiting a
 * countersignature, the manager code, and the countersign, mail and code dialogs.
 */
export function SafeCountPage({ fixOutboxId }: { fixOutboxId: string | undefined }) {
  const intl = useIntl();
  const [countersigning, setCountersigning] = useState<CountersignTarget | null>(null);
  const [mailing, setMailing] = useState<MailRequest | null>(null);
  const [settingCode, setSettingCode] = useState(false);
  const counting = useCountingForm<SafeCountForm, SafeField, SafeCountBody>({
    initial: () => emptySafeCountForm(null, toWireDate(new Date())),
    build: (f) => {
      const result = toSafeCountBody(f, new Date().toISOString());
      return result.ok ? { ok: true, value: result.body } : result;
    },
    save: saveSafeCount,
    successCode: 'safeCountSaved',
    next: (f) => emptySafeCountForm(f.site, f.dateFiscale ?? toWireDate(new Date())),
    invalidates: safeQueries.all(),
    table: COUNTING_TABLES.safeCount,
    fix: { outboxId: fixOutboxId, kind: 'safeCount', fromBody: safeFormFromBody },
  });
  const { user, sites, site, form, setForm, fixing, unsent } = counting;

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

  const currency = counting.currencyOf(siteDay?.currency);
  const money = counting.moneyIn(currency);
  const libelle = siteDay?.libelle ?? site?.libelle ?? '';
  const noCountYet = dayQuery.isSuccess && (siteDay?.counts.length ?? 0) === 0 && unsent.length === 0;
  const mailMissing = () =>
    setMailing({ kind: 'missing', site: form.site ?? 0, libelle, dateFiscale: form.dateFiscale ?? '' });

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
      <SafeCountEntry counting={counting} currency={currency} money={money} />
      <SafeCountDayList
        dateFiscale={form.dateFiscale}
        unsent={unsent}
        counts={siteDay?.counts ?? []}
        onMailMissing={noCountYet && form.site !== null && form.dateFiscale !== null ? mailMissing : null}
        money={money}
        onCountersign={setCountersigning}
        onMail={setMailing}
      />
      {user ? (
        <AwaitingSignatures
          userId={user.id}
          dateFin={form.dateFiscale ?? toWireDate(new Date())}
          onCountersign={setCountersigning}
          onMail={setMailing}
        />
      ) : null}
      <ManagerCodeSection onSetCode={() => setSettingCode(true)} />
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
