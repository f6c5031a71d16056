/**
 * The start-up's last step (issue #30): what is done and what is not, and the button that ends
 * the start-up (SPEC.md §7 GET bo/miseEnRoute → §8 SuccessMiseEnRoute). The server refuses while
 * a step is missing (`MiseEnRouteIncomplete`, details.missing): the steps it names are listed.
 * Once complete, the date shows and the start-up can be ended again after a later change.
 */
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { displayInstant } from '../../../../contract/dates.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { finishStartup } from '../startup-queries.ts';
import type { StartupStepProps } from './step-props.ts';

/** The checked steps' ids (contract/startup.ts) the server named as missing, or null. */
function missingOf(e: unknown): string[] | null {
  if (!(e instanceof ApiFailure) || e.code !== 'MiseEnRouteIncomplete') return null;
  const missing = e.details?.missing;
  return Array.isArray(missing) ? missing.filter((m): m is string => typeof m === 'string') : [];
}

/** The panel of the module comment. */
export function SummaryStep({ state, steps }: StartupStepProps) {
  const intl = useIntl();
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<string[] | null>(null);
  const checked = steps.filter((s) => s.id in state.etapes);
  const titleOf = (id: string) => intl.formatMessage({ id: steps.find((s) => s.id === id)?.titleId ?? id });

  async function finish() {
    if (pending) return;
    setPending(true);
    try {
      await finishStartup();
      setRefused(null);
      // The screen stays: the success shows (a route change clears notifications) with the date.
      notify.success('SuccessMiseEnRoute');
    } catch (e) {
      const missing = missingOf(e);
      if (missing) setRefused(missing);
      else notifyFailure(e);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <ul className="startup__checks">
        {checked.map((s) => {
          const done = state.etapes[s.id as keyof typeof state.etapes];
          return (
            <li key={s.id} data-done={done}>
              <FormattedMessage
                id={done ? 'startup.summary.stepDone' : 'startup.summary.stepTodo'}
                values={{ step: intl.formatMessage({ id: s.titleId }) }}
              />
            </li>
          );
        })}
      </ul>
      {state.completeLe ? (
        <p role="status">
          <FormattedMessage id="startup.summary.completeOn" values={displayInstant(state.completeLe)} />
        </p>
      ) : null}
      {refused ? (
        <p className="ui-refusal" role="alert">
          <FormattedMessage
            id="startup.summary.missing"
            values={{ steps: intl.formatList(refused.map(titleOf), { type: 'conjunction' }) }}
          />
        </p>
      ) : null}
      <Button variant="primary" onPress={() => void finish()} isDisabled={pending}>
        {intl.formatMessage({ id: 'startup.summary.finish' })}
      </Button>
    </>
  );
}
