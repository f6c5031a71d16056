/** What every start-up step's panel gets (startup-steps.tsx lists the steps). */
import type { ReactNode } from 'react';
import type { StartupState } from '../../../../contract/startup.ts';

/** The server's state, the panels the route composes from other features, and every step's title. */
export interface StartupStepProps {
  state: StartupState;
  /** The password change form of /account (features do not import each other: the route gives it). */
  passwordForm: ReactNode;
  /** The automatic backup form of /config/bdd (given by the route, as `passwordForm`). */
  backupForm: ReactNode;
  /** Every step's id and title message, in order (the summary names those not done). */
  steps: readonly { id: string; titleId: string }[];
}
