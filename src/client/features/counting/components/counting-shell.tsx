/**
 * The scaffolding the three counting screens share (cash, safe, receipts): the page with its
 * title and its site and fiscal-date header, the form wired to its submit with its notice, error
 * list and buttons, its parts and comment field, the titled sections and the day's list with its
 * lines. Each screen fills them with its own fields, so they look and behave alike.
 */
import type { ReactNode, RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Site } from '../../../../contract/api.ts';
import type { LocalRecord } from '../../../lib/outbox/page-outbox.ts';
import { formatDate } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import { DateField } from '../../../ui/date-field.tsx';
import { ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import type { CountingFieldError } from '../use-counting-form.ts';
import { SyncStateTag } from './sync-state-tag.tsx';
import '../counting.css';
import { displayInstant } from '../../../../contract/dates.ts';

export interface CountingPageProps {
  /** Id of the title element (the page's accessible name). */
  titleId: string;
  /** Message id of the title. */
  title: string;
  /** Sites the user may count (visible sites). */
  sites: readonly Site[];
  site: number | null;
  onSiteChange: (site: number) => void;
  /** Fiscal date as YYYY-MM-DD, null while what is typed is not a date. */
  dateFiscale: string | null;
  onDateChange: (dateFiscale: string | null) => void;
  /** More fields of the header (the cash count's terminal). */
  context?: ReactNode;
  children: ReactNode;
}

/** A counting screen: title, then the site and fiscal date it is about, then its content. */
export function CountingPage({
  titleId,
  title,
  sites,
  site,
  onSiteChange,
  dateFiscale,
  onDateChange,
  context,
  children,
}: CountingPageProps) {
  const intl = useIntl();
  return (
    <section className="counting-page" aria-labelledby={titleId}>
      <h1 id={titleId}>
        <FormattedMessage id={title} />
      </h1>
      <div className="counting-page__context">
        <Select
          label={intl.formatMessage({ id: 'counting.site' })}
          options={sites.map((s) => ({ id: s.restaurantId, label: s.libelle }))}
          value={site}
          onChange={(key) => onSiteChange(Number(key))}
        />
        <DateField
          label={intl.formatMessage({ id: 'counting.fiscalDate' })}
          value={dateFiscale}
          onChange={onDateChange}
          invalidMessage={intl.formatMessage({ id: 'counting.error.date' })}
          placeholder={intl.formatMessage({ id: 'counting.datePlaceholder' })}
          isRequired
        />
        {context}
      </div>
      {children}
    </section>
  );
}

export interface CountingFormProps<Field extends string> {
  testId: string;
  onSubmit: () => Promise<void>;
  formRef?: RefObject<HTMLFormElement | null>;
  /** Message id of a status line above the fields (fixing a refused write, editing), or null. */
  notice: string | null;
  /** The field errors of the last submit, listed (as an alert) below the fields. */
  errors: readonly CountingFieldError<Field>[];
  /** What an error line starts with (the field's name), if anything. */
  errorPrefix?: (field: Field) => ReactNode;
  /** Message id of the submit button. */
  submitLabel: string;
  /** False greys the submit button out (saving, nothing to save yet). */
  canSubmit: boolean;
  /** Buttons before the submit button (e.g. cancel an edit). */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * The entry form: its notice, its fields (`children`), the errors, then the buttons. Submitting
 * (button or Enter) calls `onSubmit`, never reloads the page. The browser never refuses it on its
 * own (ValidatedForm): `onSubmit` validates, and each refusal shows at its field, translated,
 * with the first invalid field focused, as well as in the list below the fields.
 */
export function CountingForm<Field extends string>({
  testId,
  onSubmit,
  formRef,
  notice,
  errors,
  errorPrefix,
  submitLabel,
  canSubmit,
  actions,
  children,
}: CountingFormProps<Field>) {
  return (
    <ValidatedForm
      formRef={formRef}
      className="counting-form"
      data-testid={testId}
      refusal={errors}
      onSubmit={() => void onSubmit()}
    >
      {notice ? (
        <p className="counting-form__fixing" role="status">
          <FormattedMessage id={notice} />
        </p>
      ) : null}
      {children}
      {errors.length > 0 ? (
        <ul className="counting-errors" role="alert">
          {errors.map((e) => (
            <li key={`${e.field}-${e.messageId}`}>
              {errorPrefix?.(e.field)}
              <FormattedMessage id={e.messageId} />
            </li>
          ))}
        </ul>
      ) : null}
      <div className="counting-form__actions">
        {actions}
        <Button type="submit" variant="primary" isDisabled={!canSubmit}>
          <FormattedMessage id={submitLabel} />
        </Button>
      </div>
    </ValidatedForm>
  );
}

/** A group of the form's fields under its legend. */
export function CountingPart({
  legend,
  className,
  children,
}: {
  legend: ReactNode;
  /** More classes of the fieldset. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={className ? `counting-form__part ${className}` : 'counting-form__part'}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** The free comment every counting form ends with (at most 1,000 characters). */
export function CommentField({ value, onChange }: { value: string; onChange: (comment: string) => void }) {
  const intl = useIntl();
  return (
    <TextField
      label={intl.formatMessage({ id: 'counting.comment' })}
      value={value}
      onChange={onChange}
      maxLength={1000}
    />
  );
}

/**
 * The form's live summary: expected, counted and variance (its rows are the screen's own). On a
 * phone the table tightens; should it still be wider than the screen (long labels, large
 * amounts), it scrolls inside its own box instead of widening the page.
 */
export function CountingSummary({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div className="counting-summary-box">
      <table className="counting-summary" data-testid={testId}>
        <caption>
          <FormattedMessage id="counting.summary" />
        </caption>
        {children}
      </table>
    </div>
  );
}

/** A titled section below the form (message `title`, with `values`). */
export function CountingSection({
  titleId,
  title,
  values,
  children,
}: {
  titleId: string;
  title: string;
  values?: Record<string, string | number>;
  children: ReactNode;
}) {
  return (
    <section className="counting-list" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <FormattedMessage id={title} values={values} />
      </h2>
      {children}
    </section>
  );
}

/** A titled list of counts or receipts. */
export function CountingList({
  titleId,
  title,
  values,
  before,
  testId,
  children,
}: {
  titleId: string;
  title: string;
  values?: Record<string, string | number>;
  /** Shown between the title and the items (e.g. "list unavailable"). */
  before?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <CountingSection titleId={titleId} title={title} values={values}>
      {before}
      <ul className="counting-list__items" data-testid={testId}>
        {children}
      </ul>
    </CountingSection>
  );
}

/**
 * The day's list: a titled section (message `title` with the date) around its items. With
 * `empty` (given by the caller when the day has no item), that text stands after the title in
 * place of an empty list: what is missing and what to do (issue #32 D.9).
 */
export function CountingDayList({
  titleId,
  title,
  dateFiscale,
  before,
  empty,
  testId,
  children,
}: {
  titleId: string;
  /** Message id with a `{date}` value. */
  title: string;
  dateFiscale: string | null;
  /** Shown between the title and the items (e.g. "list unavailable"). */
  before?: ReactNode;
  /** Shown when the day has nothing to list; null or absent when it has. */
  empty?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <CountingList
      titleId={titleId}
      title={title}
      values={{ date: dateFiscale ? formatDate(dateFiscale) : '—' }}
      before={
        <>
          {before}
          {empty ? <p className="counting-list__empty">{empty}</p> : null}
        </>
      }
      testId={testId}
    >
      {children}
    </CountingList>
  );
}

/**
 * A record of the day still on the device: what it is (`children`), where it stands (waiting,
 * refused and why), then `after` — by default the time it was saved.
 */
export function UnsentItem({
  record,
  testId,
  after,
  children,
}: {
  record: LocalRecord;
  testId: string;
  after?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="counting-list__item" data-testid={testId}>
      {children}
      <SyncStateTag state={record.syncState} reason={record.reason} />
      {after === undefined ? <CountingTime at={record.savedAt} /> : after}
    </li>
  );
}

/** When a count was saved or made (hours and minutes), followed by who made it when given. */
export function CountingTime({ at, by }: { at: number | string; by?: string }) {
  return (
    <span className="counting-list__time">
      {displayInstant(at).time}
      {by === undefined ? null : ` · ${by}`}
    </span>
  );
}

/** "Counted … · variance …" of a listed count (amounts already formatted). */
export function CountedVariance({ counted, variance }: { counted: string; variance: string }) {
  return (
    <span>
      <FormattedMessage id="counting.countedVariance" values={{ counted, variance }} />
    </span>
  );
}

/** The class that colours a variance: short (below zero), over (above), none for zero or unknown. */
export function varianceClass(variance: number | null): string {
  if (variance === null || variance === 0) return '';
  return variance < 0 ? 'variance--short' : 'variance--over';
}
