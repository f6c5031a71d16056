/**
 * /tickets (SPEC.md §2): search the tickets of the chosen sites, terminals, sellers and period by
 * amount and by the criteria of SPEC.md §9, page through them newest first, and open one. No
 * match shows SPEC.md §8 `NoTicketToCrit`; failures arrive translated through the notification area.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { SearchParams } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { resolvePeriodChoice, validateHours } from '../../../selection/period.ts';
import { selection } from '../../../selection/selection-state.ts';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { ticketQueries } from '../ticket-queries.ts';
import {
  allowedTicketCriteria,
  buildTicketSearchParams,
  precheckTicketSearch,
  readAmounts,
} from '../ticket-search.ts';
import { applyTicketLink, parseTicketLink } from '../ticket-link.ts';
import { ticketSearch } from '../ticket-search-state.ts';
import { TicketResults } from './ticket-results.tsx';
import './tickets.css';

/** The two bounds of the ticket total: their message suffix and the search state's field. */
const AMOUNT_FIELDS = [
  { which: 'min', field: 'amountMin' },
  { which: 'max', field: 'amountMax' },
] as const;

/**
 * The search parameters (without the page) for the selection and the search form; or the message
 * id to show under the form (invalid period, hours or amounts); or nothing, after notifying what
 * the server would refuse (SPEC.md §8).
 */
function checkTicketSearch(
  userId: number,
  siteIds: readonly number[],
): { params: SearchParams } | { formErrorId: string } | { refused: true } {
  const period = resolvePeriodChoice(selection.period);
  if (!period.ok) return { formErrorId: 'reports.fixPeriod' };
  if (
    selection.trancheHoraire &&
    Object.keys(validateHours(selection.heureDebut, selection.heureFin)).length > 0
  ) {
    return { formErrorId: 'reports.fixHours' };
  }
  const read = readAmounts(ticketSearch.amountMin, ticketSearch.amountMax);
  if (Object.keys(read.errors).length > 0) return { formErrorId: 'tickets.fixAmounts' };
  const failed = precheckTicketSearch({ siteIds, range: period.range });
  if (failed) {
    notify.error(failed.code, failed.values);
    return { refused: true };
  }
  const { page: _page, ...params } = buildTicketSearchParams({
    userId,
    range: period.range,
    siteIds,
    terminalKeys: selection.terminals,
    sellerKeys: selection.sellers,
    hours: selection.trancheHoraire
      ? { heureDebut: selection.heureDebut, heureFin: selection.heureFin }
      : null,
    minCents: read.minCents,
    maxCents: read.maxCents,
    // Only what the profile allows, so a criterion ticked before can never bring a 403.
    criteria: ticketSearch.criteria.filter((c) =>
      allowedTicketCriteria(session.user?.criteresTickets).includes(c),
    ),
    page: 1,
  });
  return { params };
}

/**
 * The /tickets screen: the selection and the search form, then the results once a search ran.
 * `link`: the URL's search params (ticket-link.ts); a link naming a site and a period replaces
 * the selection and searches at once, as soon as the user's sites are known.
 */
export function TicketsPage({ link = {} }: { link?: Record<string, unknown> }) {
  const [linked] = useState(() => applyTicketLink(parseTicketLink(link)));
  const linkSearched = useRef(false);
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const form = useSnapshot(ticketSearch);
  const scope = useSiteScope();
  const [formError, setFormError] = useState<string | null>(null);
  // Amount errors show once the user has left the field or tried to search.
  const [touched, setTouched] = useState({ min: false, max: false });
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  const params: SearchParams | null = form.params ? { ...form.params, page: form.page } : null;
  const results = useQuery({
    ...ticketQueries.search(params ?? {}),
    enabled: params !== null && user !== null,
  });

  useEffect(() => {
    if (results.errorUpdatedAt > 0 && results.error) notifyFailure(results.error);
  }, [results.errorUpdatedAt, results.error]);
  useEffect(() => {
    if (results.dataUpdatedAt > 0 && results.data?.total === 0) notify.error('NoTicketToCrit');
  }, [results.dataUpdatedAt, results.data]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: searches once, when the sites are known
  useEffect(() => {
    if (!linked || linkSearched.current || scope.effective.length === 0) return;
    linkSearched.current = true;
    submit();
  }, [linked, scope.effective.length]);

  function submit() {
    setFormError(null);
    setTouched({ min: true, max: true });
    if (!user) return;
    const checked = checkTicketSearch(user.id, scope.effective);
    if ('formErrorId' in checked) setFormError(intl.formatMessage({ id: checked.formErrorId }));
    if (!('params' in checked)) return;
    ticketSearch.params = checked.params;
    ticketSearch.page = 1;
    // "Search" again with the same choice must show tickets rung up since.
    void queryClient.invalidateQueries({ queryKey: ticketQueries.all() });
    requestAnimationFrame(() => resultsHeading.current?.focus());
  }

  return (
    <div className="tk-page">
      <h1 className="tk-title">{intl.formatMessage({ id: 'tickets.title' })}</h1>
      {/* noValidate: our checks run on submit and say what to fix, in the interface's language. */}
      <form
        className="tk-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SelectionPanel />

        <Card labelledBy="tk-filters-heading">
          <CardTitle id="tk-filters-heading">{intl.formatMessage({ id: 'tickets.filters' })}</CardTitle>
          <AmountFields
            touched={touched}
            onLeft={(which) => setTouched((t) => ({ ...t, [which]: true }))}
            currency={user?.currency ?? 'EUR'}
          />
          <CriteriaField />
          {formError ? (
            <p className="tk-form-error" role="alert">
              {formError}
            </p>
          ) : null}
          <div className="tk-buttons">
            <Button type="submit" variant="primary" isDisabled={results.isFetching}>
              {intl.formatMessage({ id: 'tickets.search' })}
            </Button>
          </div>
        </Card>
      </form>

      {params ? (
        <Card className="tk-results" labelledBy="tk-results-heading">
          <CardTitle id="tk-results-heading" focusRef={resultsHeading}>
            {intl.formatMessage({ id: 'tickets.results' })}
          </CardTitle>
          {results.isFetching ? (
            <ProgressBar label={intl.formatMessage({ id: 'tickets.searching' })} value={null} />
          ) : null}
          {results.data ? (
            <TicketResults
              answer={results.data}
              onPage={(page) => {
                ticketSearch.page = page;
                resultsHeading.current?.focus();
              }}
            />
          ) : results.isError ? (
            <p className="tk-muted">{intl.formatMessage({ id: 'tickets.failed' })}</p>
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}

/**
 * The two bounds of the ticket total (in `currency`), with their errors once `touched` (the field
 * was left, or a search was tried); `onLeft` is called when a field loses the focus.
 */
function AmountFields(props: {
  touched: { min: boolean; max: boolean };
  onLeft: (which: 'min' | 'max') => void;
  currency: string;
}) {
  const intl = useIntl();
  const form = useSnapshot(ticketSearch);
  const amounts = readAmounts(form.amountMin, form.amountMax);
  const amountError = (which: 'min' | 'max') => {
    const code = which === 'min' ? amounts.errors.amountMin : amounts.errors.amountMax;
    if (code) return intl.formatMessage({ id: `tickets.amount.error.${code}` });
    if (which === 'max' && amounts.errors.amountRange) {
      return intl.formatMessage({ id: 'tickets.amount.error.minAboveMax' });
    }
    return undefined;
  };
  return (
    <div className="tk-amounts">
      {AMOUNT_FIELDS.map(({ which, field }) => (
        <TextField
          key={which}
          label={intl.formatMessage({ id: `tickets.amount.${which}` })}
          value={form[field]}
          onChange={(v) => {
            ticketSearch[field] = v;
          }}
          onBlur={() => props.onLeft(which)}
          inputMode="decimal"
          autoComplete="off"
          description={intl.formatMessage({ id: 'tickets.amount.hint' }, { currency: props.currency })}
          isInvalid={props.touched[which] && amountError(which) !== undefined}
          errorMessage={props.touched[which] ? amountError(which) : undefined}
        />
      ))}
    </div>
  );
}

/**
 * The search criteria of SPEC.md §9 as checkboxes (none ticked: every ticket), only those the
 * user's profile allows (SPEC.md §3 `optionsTickets`).
 */
function CriteriaField() {
  const intl = useIntl();
  const form = useSnapshot(ticketSearch);
  const { user } = useSnapshot(session);
  const allowed = allowedTicketCriteria(user?.criteresTickets);
  if (allowed.length === 0) return null;
  return (
    <fieldset className="tk-criteria">
      <legend className="ui-field__label">{intl.formatMessage({ id: 'tickets.criteria' })}</legend>
      <div className="tk-criteria__options">
        {allowed.map((c) => (
          <Checkbox
            key={c}
            isSelected={form.criteria.includes(c)}
            onChange={(on) => {
              const others = ticketSearch.criteria.filter((x) => x !== c);
              ticketSearch.criteria = on ? [...others, c] : others;
            }}
          >
            {intl.formatMessage({ id: `tickets.criterion.${c}` })}
          </Checkbox>
        ))}
      </div>
      <p className="tk-muted">{intl.formatMessage({ id: 'tickets.criteria.hint' })}</p>
    </fieldset>
  );
}
