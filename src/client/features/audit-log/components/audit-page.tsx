/**
 * /config/audit (issue #18): the administration's audit log, read only. Filters: who, what kind
 * of thing, and a period typed DD/MM/YYYY (SPEC.md §9); newest first, a page at a time. Each
 * entry says who, when (DD/MM/YYYY HH:mm in every language), the action, its target, the address
 * it came from, and the changed fields as before → after.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type IntlShape, useIntl } from 'react-intl';
import type { AuditEntry } from '../../../../contract/administration.ts';
import { displayInstant } from '../../../../contract/dates.ts';
import { Button } from '../../../ui/button.tsx';
import { Facts, ListPage, ListReads } from '../../../ui/list-page.tsx';
import { changedFields } from '../audit-diff.ts';
import { labelOr } from '../audit-labels.ts';
import { AUDIT_PAGE_SIZE, type AuditFilters, auditQueries } from '../audit-queries.ts';
import { type AuditLookups, fieldLabel, fieldValueText, targetName } from '../audit-values.ts';
import { AuditFilterBar } from './audit-filter-bar.tsx';
import { useAuditLookups } from './use-audit-lookups.ts';
import './audit-log.css';

const NO_FILTERS: AuditFilters = { userId: null, kind: null, dateDebut: null, dateFin: null };

/** The /config/audit screen. */
export function AuditPage() {
  const intl = useIntl();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [periodOk, setPeriodOk] = useState(true);
  const entries = useQuery({ ...auditQueries.page(filters, page), enabled: periodOk });
  const look = useAuditLookups();
  const total = entries.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const seenKinds = (entries.data?.entries ?? []).map((e) => e.kind).filter((k): k is string => k !== null);
  return (
    <ListPage
      title={intl.formatMessage({ id: 'audit.title' })}
      intro={intl.formatMessage({ id: 'audit.intro' })}
    >
      <AuditFilterBar
        filters={filters}
        seenKinds={seenKinds}
        onChange={(next, valid) => {
          setFilters(next);
          setPeriodOk(valid);
          setPage(0);
        }}
      />
      <ListReads
        reads={[entries]}
        texts={{
          loading: intl.formatMessage({ id: 'audit.loading' }),
          failed: intl.formatMessage({ id: 'audit.loadFailed' }),
          retry: intl.formatMessage({ id: 'audit.retry' }),
          empty: intl.formatMessage({ id: 'audit.empty' }),
        }}
        isEmpty={entries.data?.entries.length === 0}
      >
        {() => (
          <>
            <p className="ui-muted" role="status">
              {intl.formatMessage(
                { id: 'audit.range' },
                {
                  from: page * AUDIT_PAGE_SIZE + 1,
                  to: page * AUDIT_PAGE_SIZE + (entries.data?.entries.length ?? 0),
                  total,
                },
              )}
            </p>
            <ol className="ui-list" aria-label={intl.formatMessage({ id: 'audit.list' })}>
              {(entries.data?.entries ?? []).map((e) => (
                <AuditItem key={e.id} entry={e} look={look} />
              ))}
            </ol>
          </>
        )}
      </ListReads>
      {pages > 1 ? (
        <nav className="al-pager" aria-label={intl.formatMessage({ id: 'audit.pages' })}>
          <Button onPress={() => setPage((p) => Math.max(0, p - 1))} isDisabled={page === 0}>
            {intl.formatMessage({ id: 'audit.previous' })}
          </Button>
          <span>{intl.formatMessage({ id: 'audit.page' }, { page: page + 1, pages })}</span>
          <Button onPress={() => setPage((p) => p + 1)} isDisabled={page + 1 >= pages}>
            {intl.formatMessage({ id: 'audit.next' })}
          </Button>
        </nav>
      ) : null}
    </ListPage>
  );
}

/** The target: its kind and name (audit-values.ts targetName), else its kind and id. */
function targetText(entry: AuditEntry, kindLabel: string, look: AuditLookups, intl: IntlShape): string {
  if (!entry.targetId) return intl.formatMessage({ id: 'audit.none' });
  const name = targetName({ ...entry, kind: entry.kind ?? '' }, look);
  return name === null
    ? `${kindLabel} #${entry.targetId}`
    : intl.formatMessage({ id: 'audit.targetNamed' }, { kind: kindLabel, name });
}

/** One entry: who, when, action, target, address, and its changes. */
function AuditItem({ entry, look }: { entry: AuditEntry; look: AuditLookups }) {
  const intl = useIntl();
  const { date, time } = displayInstant(entry.at);
  const [kind = entry.action, verb = ''] = entry.action.split('.');
  const kindLabel = labelOr(intl, `audit.kind.${kind}`, kind);
  const action = `${kindLabel} · ${labelOr(intl, `audit.verb.${verb}`, verb)}`;
  const none = intl.formatMessage({ id: 'audit.none' });
  const facts: [string, string][] = [
    ['audit.who', entry.login ?? intl.formatMessage({ id: 'audit.anonymous' })],
    ['audit.when', intl.formatMessage({ id: 'audit.at' }, { date, time })],
    ['audit.target', targetText(entry, kindLabel, look, intl)],
    ['audit.address', entry.address ?? none],
  ];
  return (
    <li className="ui-item al-item">
      <h2 className="ui-item__name">{action}</h2>
      <Facts facts={facts.map(([id, value]) => [intl.formatMessage({ id }), value])} />
      <AuditDiff entry={entry} look={look} />
    </li>
  );
}

/** The changed fields of an entry as a table: field, before, after. */
function AuditDiff({ entry, look }: { entry: AuditEntry; look: AuditLookups }) {
  const intl = useIntl();
  const changes = changedFields(entry.before, entry.after);
  if (changes.length === 0) return <p className="ui-muted">{intl.formatMessage({ id: 'audit.noChange' })}</p>;
  return (
    <table className="al-diff" aria-label={intl.formatMessage({ id: 'audit.changes' })}>
      <thead>
        <tr>
          <th scope="col">{intl.formatMessage({ id: 'audit.field' })}</th>
          <th scope="col">{intl.formatMessage({ id: 'audit.before' })}</th>
          <th scope="col">{intl.formatMessage({ id: 'audit.after' })}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field}>
            <th scope="row">{fieldLabel(c.field, look)}</th>
            <td className="al-diff__before">{fieldValueText(c.field, c.before, look)}</td>
            <td className="al-diff__after">{fieldValueText(c.field, c.after, look)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
