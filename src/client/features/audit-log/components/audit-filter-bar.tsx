/**
 * The audit log's filters: who (the chain's users), what kind of thing (users, profiles,
 * groups…), and from / to dates typed DD/MM/YYYY (ui/date-field.tsx). A start after the end is
 * refused at the field (SPEC.md §5) and the list waits until it is fixed; typed text is kept.
 */
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { DateField } from '../../../ui/date-field.tsx';
import { Select } from '../../../ui/select.tsx';
import type { AuditFilters } from '../audit-queries.ts';
import { auditQueries } from '../audit-queries.ts';
import { labelOr } from '../audit-labels.ts';

/** Kinds of change the server records (audit-log.ts `<kind>.<verb>`); others seen in the log are added. */
const KNOWN_KINDS = ['user', 'profile', 'group', 'company', 'site', 'message', 'rule'] as const;

/** The "all" choice of a Select (its keys cannot be null). */
const ALL = '*';

export interface AuditFilterBarProps {
  filters: AuditFilters;
  /** Kinds of the entries shown, offered even when not in the known list. */
  seenKinds: readonly string[];
  /** The new filters, and whether the period is usable (start not after end). */
  onChange: (filters: AuditFilters, valid: boolean) => void;
}

/** True when the period can be asked for: no date, one date, or a start not after the end. */
export function periodIsValid(f: AuditFilters): boolean {
  return f.dateDebut === null || f.dateFin === null || f.dateDebut <= f.dateFin;
}

/** The filter fieldset of the module comment; every change reports the new filters at once. */
export function AuditFilterBar({ filters, seenKinds, onChange }: AuditFilterBarProps) {
  const intl = useIntl();
  const users = useQuery(auditQueries.users());
  const kinds = [...new Set<string>([...KNOWN_KINDS, ...seenKinds, ...(filters.kind ? [filters.kind] : [])])];
  const set = (change: Partial<AuditFilters>) => {
    const next = { ...filters, ...change };
    onChange(next, periodIsValid(next));
  };
  const all = intl.formatMessage({ id: 'audit.filter.all' });
  const dateHint = intl.formatMessage({ id: 'audit.filter.datePlaceholder' });
  const badDate = intl.formatMessage({ id: 'audit.filter.badDate' });
  const startAfterEnd = !periodIsValid(filters);
  return (
    <fieldset className="al-filters">
      <legend>{intl.formatMessage({ id: 'audit.filter.title' })}</legend>
      <Select
        label={intl.formatMessage({ id: 'audit.filter.user' })}
        options={[
          { id: ALL, label: all },
          ...(users.data ?? []).map((u) => ({ id: String(u.id), label: u.login })),
        ]}
        value={filters.userId === null ? ALL : String(filters.userId)}
        onChange={(key) => set({ userId: key === ALL ? null : Number(key) })}
      />
      <Select
        label={intl.formatMessage({ id: 'audit.filter.kind' })}
        options={[
          { id: ALL, label: all },
          ...kinds.map((k) => ({ id: k, label: labelOr(intl, `audit.kind.${k}`, k) })),
        ]}
        value={filters.kind ?? ALL}
        onChange={(key) => set({ kind: key === ALL ? null : String(key) })}
      />
      <DateField
        label={intl.formatMessage({ id: 'audit.filter.from' })}
        value={filters.dateDebut}
        onChange={(wire) => set({ dateDebut: wire })}
        invalidMessage={badDate}
        placeholder={dateHint}
      />
      <div className="al-field">
        <DateField
          label={intl.formatMessage({ id: 'audit.filter.to' })}
          value={filters.dateFin}
          onChange={(wire) => set({ dateFin: wire })}
          invalidMessage={badDate}
          placeholder={dateHint}
        />
        {startAfterEnd ? (
          <p className="ui-refusal al-field-error" role="alert">
            {intl.formatMessage({ id: 'audit.filter.startAfterEnd' })}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
