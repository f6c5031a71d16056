/**
 * The scaffolding the three counting screens share (cash, safe, receipts): the page with its
 * title and its site and fiscal-date header, the form wired to its submit, and the day's list
 * section. Each screen fills them with its own fields, so they look and behave alike.
 */
import type { ReactNode, RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Site } from '../../../../contract/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { DateField } from '../../../ui/date-field.tsx';
import { Select } from '../../../ui/select.tsx';
import '../counting.css';

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

/** The entry form: submitting (button or Enter) calls `onSubmit`, never reloads the page. */
export function CountingForm({
  testId,
  onSubmit,
  formRef,
  children,
}: {
  testId: string;
  onSubmit: () => Promise<void>;
  formRef?: RefObject<HTMLFormElement | null>;
  children: ReactNode;
}) {
  return (
    <form
      ref={formRef}
      className="counting-form"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** The day's list: a titled section (message `title` with the date) around its items. */
export function CountingDayList({
  titleId,
  title,
  dateFiscale,
  before,
  testId,
  children,
}: {
  titleId: string;
  /** Message id with a `{date}` value. */
  title: string;
  dateFiscale: string | null;
  /** Shown between the title and the items (e.g. "list unavailable"). */
  before?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="counting-list" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <FormattedMessage id={title} values={{ date: dateFiscale ? formatDate(dateFiscale) : '—' }} />
      </h2>
      {before}
      <ul className="counting-list__items" data-testid={testId}>
        {children}
      </ul>
    </section>
  );
}
