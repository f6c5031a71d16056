/**
 * The steps of the guided start-up (issue #30), in order: one list, so a step is added by adding
 * its line (decision record 0041). The automatic backup step is advised, not required: the
 * start-up ends without it (an installation may back up by other means). Each step has a title, says whether it is done from the server's state, and renders its
 * panel; the summary is always last and ends the start-up (SuccessMiseEnRoute).
 */
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { StartupState } from '../../../../contract/startup.ts';
import { CompanyStep } from './company-step.tsx';
import { MailStep } from './mail-step.tsx';
import type { StartupStepProps } from './step-props.ts';
import { SummaryStep } from './summary-step.tsx';

/** One step: its id, title message, whether it is done (null: nothing to check) and its panel. */
export interface StartupStep {
  id: string;
  titleId: string;
  isDone(state: StartupState): boolean | null;
  render(props: StartupStepProps): ReactNode;
}

/** The password step: the /account form (the generated password replaced by the administrator's own). */
function PasswordStep({ state, passwordForm }: StartupStepProps) {
  return (
    <>
      <p className="ui-muted">
        <FormattedMessage id={state.etapes.motDePasse ? 'startup.password.done' : 'startup.password.text'} />
      </p>
      {passwordForm}
    </>
  );
}

/** The automatic backup step: /config/bdd's form (folder under DATA_DIR/backups, rule, how many kept). */
function BackupStep({ backupForm }: StartupStepProps) {
  return (
    <>
      <p className="ui-muted">
        <FormattedMessage id="startup.backup.text" />
      </p>
      {backupForm}
    </>
  );
}

/** The steps of the module comment, in order. */
export const STARTUP_STEPS: readonly StartupStep[] = [
  {
    id: 'societe',
    titleId: 'startup.company.title',
    isDone: (s) => s.etapes.societe,
    render: (p) => <CompanyStep {...p} />,
  },
  {
    id: 'motDePasse',
    titleId: 'startup.password.title',
    isDone: (s) => s.etapes.motDePasse,
    render: (p) => <PasswordStep {...p} />,
  },
  {
    id: 'mail',
    titleId: 'startup.mail.title',
    isDone: (s) => s.etapes.mail,
    render: (p) => <MailStep {...p} />,
  },
  {
    id: 'sauvegarde',
    titleId: 'startup.backup.title',
    isDone: () => null,
    render: (p) => <BackupStep {...p} />,
  },
  {
    id: 'resume',
    titleId: 'startup.summary.title',
    isDone: (s) => s.complete,
    render: (p) => <SummaryStep {...p} />,
  },
];
