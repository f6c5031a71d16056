/**
 * What the "Needs attention" card of /home lists (issues #29 and #30, decision 0045), and who
 * sees what, without zod: the home page decides from the session's rights whether to show the
 * card, and so whether to call `GET bo/attention`, before it loads the card's chunk.
 */
import type { Right } from './rights.ts';

/**
 * The kinds of scheduled work the card reports: the automatic backup, the partner
 * integrations' deliveries, the FEC recurrences' runs, the report subscriptions' runs, and the
 * subscriptions suspended because their owner can no longer run them.
 */
export const ATTENTION_KINDS = [
  'backup',
  'integration',
  'fecRecurrence',
  'subscription',
  'subscriptionSuspended',
] as const;
/** One kind of {@link ATTENTION_KINDS}. */
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/**
 * The right each kind needs: the right of the screen that shows it and can retry it
 * (contract/rights.ts SCREEN_RIGHTS of /config/bdd, /config/<partner>, /fec/recurrencesfec and
 * /config/recurrences).
 */
export const ATTENTION_KIND_RIGHTS: Record<AttentionKind, Right> = {
  backup: 'ACCES_BASE',
  integration: 'CONFIGURATION',
  fecRecurrence: 'FEC_CONFIGURATION',
  subscription: 'CONFIGURATION',
  subscriptionSuspended: 'CONFIGURATION',
};

/** The kinds a holder of `rights` sees; empty: no card, no call. */
export function attentionKindsFor(rights: readonly string[]): AttentionKind[] {
  return ATTENTION_KINDS.filter((kind) => rights.includes(ATTENTION_KIND_RIGHTS[kind]));
}

/**
 * Why a run failed, as a stable code the screen translates (`home.attention.reason.<code>`),
 * read from the run's stored error: an HTTPS endpoint's answer (`Http`, with its status), refused
 * credentials, an unreachable endpoint, a folder or URL refused, a folder that cannot be written,
 * a full disk, pg_dump missing or failing, another database operation running, a FEC period not closed yet or a FEC file failing its
 * checks, a subscription's favourite removed, a suspended subscription's owner; `Other` for
 * anything else (the screen it links to shows the whole error).
 */
export const ATTENTION_REASONS = [
  'Http',
  'Refused',
  'Network',
  'BadFolder',
  'BadUrl',
  'NotWritable',
  'DiskFull',
  'ToolsMissing',
  'BackupToolFailed',
  'DatabaseBusy',
  'PeriodNotClosed',
  'FecCheckFailed',
  'FavouriteGone',
  'OwnerCannotRun',
  'Other',
] as const;
/** One reason of {@link ATTENTION_REASONS}. */
export type AttentionReason = (typeof ATTENTION_REASONS)[number];
