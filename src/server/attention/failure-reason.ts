/**
 * Why a scheduled run failed, as a code the screens translate (contract/attention-kinds.ts
 * ATTENTION_REASONS), read from the error the queue stored with the run (`job_runs.error`, the
 * thrown error's message: the queue keeps no code, decision 0045). The patterns are the messages
 * our own jobs throw (integrations/destination.ts, database/auto-backup.ts and backup.ts,
 * fec/recurrence-run.ts, subscriptions/report-input.ts) and Node's file-system error codes; anything else is `Other`, and the
 * screen the line links to shows the whole message.
 */
import type { AttentionReason } from '../../contract/attention-kinds.ts';

/** A failure's reason, and the HTTP status a partner endpoint answered (reasons Http and Refused). */
export interface FailureReason {
  raison: AttentionReason;
  statutHttp: number | null;
}

/** Message patterns, first match wins: the endpoint's status before the network, files before tools. */
const PATTERNS: readonly [RegExp, AttentionReason][] = [
  [/the endpoint refused the credentials/, 'Refused'],
  [/the endpoint answered HTTP/, 'Http'],
  [/the endpoint could not be reached/, 'Network'],
  [/the folder (must|may not|leads)|backup path/, 'BadFolder'],
  [/the URL (is not|must)|credentials go in the secret headers/, 'BadUrl'],
  [/\bENOSPC\b/, 'DiskFull'],
  [/\b(EACCES|EPERM|EROFS|ENOTDIR|EISDIR|EEXIST)\b/, 'NotWritable'],
  [/pg_dump and pg_restore .* are missing/, 'ToolsMissing'],
  [/\bpg_(dump|restore) exited with\b/, 'BackupToolFailed'],
  [/^DatabaseBusy\b/, 'DatabaseBusy'],
  [/\bnot closed yet\b/, 'PeriodNotClosed'],
  [/\bFecCheckFailed\b/, 'FecCheckFailed'],
  [/\bthe favourite \d+ of the owner is gone\b/, 'FavouriteGone'],
];

/**
 * The reason of a run that failed with `error` (its stored message; null: none stored).
 * @returns `{ raison, statutHttp }`, `statutHttp` a 3-digit status for Http and Refused, else null.
 */
export function failureReason(error: string | null): FailureReason {
  const text = error ?? '';
  const raison = PATTERNS.find(([pattern]) => pattern.test(text))?.[1] ?? 'Other';
  const status = raison === 'Http' || raison === 'Refused' ? /HTTP (\d{3})\b/.exec(text)?.[1] : undefined;
  return { raison, statutHttp: status === undefined ? null : Number(status) };
}
