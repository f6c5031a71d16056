/**
 * /config/miseenroute (issue #30): the guided start-up of a new installation. The steps
 * (startup-steps.tsx) are listed with whether each is done, one panel shows at a time, and the
 * wizard opens on the first step not done — so it can be opened again later and shows what is
 * done. The state is the server's (GET bo/miseEnRoute/etat), read again after the wizard's own
 * writes and whenever the user moves to a step.
 */
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { StartupState } from '../../../../contract/startup.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { Button } from '../../../ui/button.tsx';
import { cardClass } from '../../../ui/card.tsx';
import { startupQueries } from '../startup-queries.ts';
import { STARTUP_STEPS } from './startup-steps.tsx';
import './startup.css';

/** Index of the first step not done (the summary when every step is). */
function firstOpenStep(state: StartupState): number {
  const open = STARTUP_STEPS.findIndex((s) => s.isDone(state) === false);
  return open === -1 ? STARTUP_STEPS.length - 1 : open;
}

/**
 * The wizard of the module comment; `passwordForm` is /account's form and `backupForm`
 * /config/bdd's automatic backup, both given by the route.
 */
export function StartupWizard({
  passwordForm,
  backupForm,
}: {
  passwordForm: ReactNode;
  backupForm: ReactNode;
}) {
  const intl = useIntl();
  const state = useQuery(startupQueries.state());
  return (
    <div className="ui-page startup">
      <h1 className="ui-page__title">{intl.formatMessage({ id: 'startup.title' })}</h1>
      <p className="ui-muted">
        <FormattedMessage id="startup.intro" />
      </p>
      {state.isError ? (
        <p className="ui-refusal" role="alert">
          <FormattedMessage id="startup.loadFailed" />
        </p>
      ) : !state.data ? (
        <p className="ui-muted">
          <FormattedMessage id="startup.loading" />
        </p>
      ) : (
        <Steps state={state.data} passwordForm={passwordForm} backupForm={backupForm} />
      )}
    </div>
  );
}

/** The step list and the current step's panel; moving to a step reads the state again. */
function Steps({
  state,
  passwordForm,
  backupForm,
}: {
  state: StartupState;
  passwordForm: ReactNode;
  backupForm: ReactNode;
}) {
  const intl = useIntl();
  const [current, setStep] = useState(() => firstOpenStep(state));
  // A step may have been done elsewhere (/config/sites) or by a call that is not the wizard's
  // (the password form): moving between steps shows the server's word on each.
  const setCurrent = (index: number) => {
    setStep(index);
    void queryClient.invalidateQueries({ queryKey: startupQueries.all() });
  };
  const step = STARTUP_STEPS[current]!;
  const last = STARTUP_STEPS.length - 1;
  return (
    <div className="startup__body">
      <nav aria-label={intl.formatMessage({ id: 'startup.stepsLabel' })}>
        <ol className="startup__steps">
          {STARTUP_STEPS.map((s, i) => {
            const done = s.isDone(state);
            return (
              <li key={s.id}>
                <button
                  type="button"
                  className="startup__step"
                  aria-current={i === current ? 'step' : undefined}
                  onClick={() => setCurrent(i)}
                >
                  <span>{intl.formatMessage({ id: s.titleId })}</span>
                  {/* The space keeps the title and the badge two words in the button's name. */}{' '}
                  {done === null ? null : (
                    <span className="startup__badge" data-done={done}>
                      {intl.formatMessage({ id: done ? 'startup.done' : 'startup.todo' })}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <section className={`${cardClass} startup__panel`} aria-labelledby="startup-step-title">
        <p className="ui-muted">
          <FormattedMessage id="startup.stepOf" values={{ n: current + 1, total: STARTUP_STEPS.length }} />
        </p>
        <h2 id="startup-step-title">{intl.formatMessage({ id: step.titleId })}</h2>
        {step.render({ state, passwordForm, backupForm, steps: STARTUP_STEPS })}
        <div className="startup__moves">
          <Button isDisabled={current === 0} onPress={() => setCurrent(current - 1)}>
            {intl.formatMessage({ id: 'startup.previous' })}
          </Button>
          {current < last ? (
            <Button onPress={() => setCurrent(current + 1)}>
              {intl.formatMessage({ id: 'startup.next' })}
            </Button>
          ) : null}
        </div>
      </section>
    </div>
  );
}
