/**
 * What /graphs and /analyses/repartitions share around their "show" button: the checks of the
 * selection before anything is asked (a valid period, some sites), the loading state, the result
 * and the focus moved to the result's heading when a result appears — and the card with that
 * button, so both screens ask and answer the same way.
 */
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { DateRange } from '../../../contract/periods.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { session } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { arrivalPeriod, resolvePeriodChoice } from '../period.ts';
import { selection } from '../selection-state.ts';
import { useSiteScope } from '../use-reference-data.ts';
import '../../ui/chart-screen.css';

/** The checked selection a screen loads its result for. */
export interface SelectionRequest {
  userId: number;
  /** Wire dates (YYYY-MM-DD), both ends included. */
  range: DateRange;
  /** The effective sites (restaurantIds): the chosen ones, or every offered one when none is. */
  siteIds: readonly number[];
}

/**
 * The result of a screen that loads one answer for the selection.
 *
 * `show(load, accept?)`: when the period is invalid, shows `formError` (and asks nothing); with no
 * effective site, notifies `NoSitesSelected`; `accept` may refuse the request (it notifies why
 * itself). Otherwise runs `load` with `loading` on and keeps what it resolves to as `result`; a
 * rejection empties `result` and is notified translated (notifyFailure). When a result appears,
 * the focus moves to the element given `resultHeading` (a heading with tabIndex -1) — unless
 * `options.focusResult` is false: a result shown on arrival, which nobody asked for, leaves the
 * focus where the page starts.
 */
export function useSelectionResult<T>() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  useSnapshot(selection);
  const scope = useSiteScope();
  const [result, setResult] = useState<T | null>(null);
  const [loading, setLoading] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const focusResult = useRef(true);
  useEffect(() => {
    if (result && focusResult.current) resultHeading.current?.focus();
  }, [result]);

  async function show(
    load: (request: SelectionRequest) => Promise<T | null>,
    accept?: (request: SelectionRequest) => boolean,
    options: { focusResult?: boolean } = {},
  ) {
    focusResult.current = options.focusResult ?? true;
    setFormError(null);
    const period = resolvePeriodChoice(selection.period);
    if (!period.ok) {
      setFormError(intl.formatMessage({ id: 'reports.fixPeriod' }));
      return;
    }
    if (!user) return;
    if (scope.effective.length === 0) {
      notify.error('NoSitesSelected');
      return;
    }
    const request: SelectionRequest = { userId: user.id, range: period.range, siteIds: scope.effective };
    if (accept && !accept(request)) return;
    setLoading(true);
    try {
      setResult(await load(request));
    } catch (e) {
      setResult(null);
      notifyFailure(e);
    } finally {
      setLoading(false);
    }
  }

  return { result, setResult, loading, formError, resultHeading, show };
}

/**
 * Shows a screen's result on arrival, without a press, once the user's sites are known: the
 * selection's period becomes {@link arrivalPeriod}'s, then `show(load)` runs once, leaving the
 * focus where the page starts (nobody asked for this result). `show` is the one of
 * {@link useSelectionResult}.
 */
export function useShowOnArrival<T>(
  show: ReturnType<typeof useSelectionResult<T>>['show'],
  load: (request: SelectionRequest) => Promise<T | null>,
): void {
  const scope = useSiteScope();
  const shownOnArrival = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the sites are known
  useEffect(() => {
    if (shownOnArrival.current || scope.isLoading || scope.effective.length === 0) return;
    shownOnArrival.current = true;
    selection.period = arrivalPeriod(selection.period);
    void show(load, undefined, { focusResult: false });
  }, [scope.isLoading, scope.effective.length]);
}

/**
 * The card named `label` with the screen's button (also `label`), the selection's form error
 * above it and a progress bar named `loadingLabel` while `loading`.
 */
export function ShowCard({
  label,
  loadingLabel,
  formError,
  loading,
  onShow,
}: {
  label: string;
  loadingLabel: string;
  formError: string | null;
  loading: boolean;
  onShow: () => void;
}) {
  return (
    <Card label={label}>
      {formError ? (
        <p className="gr-form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="gr-buttons">
        <Button variant="primary" onPress={onShow} isDisabled={loading}>
          {label}
        </Button>
      </div>
      {loading ? <ProgressBar label={loadingLabel} value={null} /> : null}
    </Card>
  );
}
