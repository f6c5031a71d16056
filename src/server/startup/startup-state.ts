/**
 * Where the guided start-up of an installation stands (issue #30 "Start-up", decision record
 * 0041), read from what exists and from the audit log rather than from a table of its own: the
 * audit log is append-only (migration 0009's trigger) and never emptied (DESIGN.md §5), so a
 * step once recorded stays done, and marking the start-up complete is its own audit entry
 * (`startup.complete`), written in the transaction of the call that marks it.
 *
 * - `societe`: at least one company and one site exist (made on /config/sites).
 * - `motDePasse`: the caller's password was changed since their account was made
 *   (`user.passwordChange` or `user.passwordReset` on their id), replacing the generated one.
 * - `mail`: a test mail was queued from the wizard (`startup.testMail`).
 */
import type { StartupCheckedStep, StartupState } from '../../contract/startup.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/** Audit action of a test mail queued from the wizard. */
export const STARTUP_TEST_MAIL_ACTION = 'startup.testMail';
/** Audit action of the start-up marked complete (SPEC.md §8 SuccessMiseEnRoute). */
export const STARTUP_COMPLETE_ACTION = 'startup.complete';

/** What the state depends on besides the database: demo mode and where mails go. */
export interface StartupSettings {
  /** COMPTOIR_DEMO: with the demo chain, nobody is led to the wizard. */
  demo: boolean;
  mailKind: 'smtp' | 'outbox';
}

interface StateRow {
  societes: number;
  sites: number;
  passwordChanged: boolean;
  mailTo: string | null;
  completeAt: Date | null;
}

async function readRow(db: Queryable, userId: number): Promise<StateRow> {
  const { rows } = await db.query<StateRow>(
    `SELECT (SELECT count(*)::int FROM companies) AS societes,
            (SELECT count(*)::int FROM sites) AS sites,
            EXISTS (SELECT 1 FROM audit_log
                     WHERE action IN ('user.passwordChange', 'user.passwordReset') AND target_id = $1)
              AS "passwordChanged",
            (SELECT after->>'to' FROM audit_log WHERE action = $2 ORDER BY id DESC LIMIT 1) AS "mailTo",
            (SELECT max(at) FROM audit_log WHERE action = $3) AS "completeAt"`,
    [String(userId), STARTUP_TEST_MAIL_ACTION, STARTUP_COMPLETE_ACTION],
  );
  return rows[0]!;
}

/**
 * The start-up's state as seen by user `userId` (their own password step), shape of
 * contract/startup.ts StartupStateSchema. `guider` is true only without the demo chain and before
 * the start-up is complete.
 */
export async function readStartupState(
  db: Queryable,
  userId: number,
  settings: StartupSettings,
): Promise<StartupState> {
  const row = await readRow(db, userId);
  const complete = row.completeAt !== null;
  return {
    complete,
    completeLe: row.completeAt ? row.completeAt.toISOString() : null,
    guider: !settings.demo && !complete,
    etapes: {
      societe: row.societes > 0 && row.sites > 0,
      motDePasse: row.passwordChanged,
      mail: row.mailTo !== null,
    },
    societes: row.societes,
    sites: row.sites,
    mail: settings.mailKind,
    mailEnvoyeA: row.mailTo,
  };
}

/** The checked steps of `state` not done yet, in the wizard's order. */
export function missingSteps(state: Pick<StartupState, 'etapes'>): StartupCheckedStep[] {
  return (Object.keys(state.etapes) as StartupCheckedStep[]).filter((step) => !state.etapes[step]);
}

/**
 * Checks that every step of the start-up is done for `userId` (SPEC.md §7 `GET bo/miseEnRoute`).
 * Recording the completion is the caller's (an audit entry, in its transaction).
 * @returns the state read.
 * @throws DomainError conflict `MiseEnRouteIncomplete` with `details.missing` (the steps not done).
 */
export async function requireStartupDone(
  db: Queryable,
  userId: number,
  settings: StartupSettings,
): Promise<StartupState> {
  const state = await readStartupState(db, userId, settings);
  const missing = missingSteps(state);
  if (missing.length > 0)
    throw new DomainError('conflict', 'MiseEnRouteIncomplete', `steps not done: ${missing.join(', ')}`, {
      missing,
    });
  return state;
}

/**
 * Marks the start-up complete for `actor` in transaction `tx` (SPEC.md §7 `GET bo/miseEnRoute`):
 * checks every step ({@link requireStartupDone}), then writes `startup.complete` with the steps.
 * @returns the instant recorded (ISO 8601, the transaction's time).
 * @throws DomainError conflict `MiseEnRouteIncomplete` with `details.missing`; nothing is written.
 */
export async function markStartupComplete(
  tx: Queryable,
  actor: AuditActor & { userId: number },
  settings: StartupSettings,
): Promise<string> {
  const state = await requireStartupDone(tx, actor.userId, settings);
  await recordAudit(tx, actor, {
    action: STARTUP_COMPLETE_ACTION,
    targetId: null,
    after: { etapes: state.etapes },
  });
  const { rows } = await tx.query<{ at: Date }>('SELECT now() AS at');
  return rows[0]!.at.toISOString();
}
