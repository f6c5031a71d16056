/**
 * Error and success codes of SPEC.md §8. The server answers errors as `{ code, message }`
 * (DESIGN.md §4); the client translates `code` through the i18n catalogues (message id
 * `error.<code>` / `success.<code>`) and never shows the raw server text.
 */
import { z } from 'zod';

/** Error codes, spelled exactly as SPEC.md §8 (plus the few DESIGN.md adds, marked). */
export const ERROR_CODES = [
  'badCredentials',
  'Network Error',
  'ErrorGettingAllReport',
  'ErrorUnknownRap',
  'errorPdf',
  'notAPdf',
  'NoReportInState',
  'NoConnectedUser',
  'userNull',
  'expiredToken',
  'NoSitesSelected',
  'NoSites',
  'NoTicketToCrit',
  'CheckReportParam',
  'savedError',
  'noDataError',
  'ErreurEnvoiMail',
  'MaxReportDays',
  'multiSitesTooMuch',
  // Added by DESIGN.md §4 (not in SPEC.md §8): generic HTTP-level failures.
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'BadRequest',
  'TooManyRequests',
  'MissingClientHeader',
  'InternalError',
  // Added by the reports (issue #2): the sites of one report trade in different currencies.
  'mixedCurrencies',
  // Added by counting (issue #3, src/contract/counting.ts): idempotent writes and counts.
  'IdempotencyKeyReused',
  'IdempotencyKeyInProgress',
  'MissingCount',
  'BadManagerCode',
  'AlreadyCountersigned',
  'UnknownTerminal',
  // Added by the reports (issue #4): a PDF or on-screen report with more rows than can be laid
  // out or shown (render/index.ts MATERIALISED_ROWS); CSV and XLSX have no such limit.
  'ReportTooLarge',
  // Added by administration (issue #18, src/contract/administration.ts ADMIN_ERROR_CODES).
  'LoginTaken',
  'InUse',
  'LastAdministrator',
  'SelfChange',
  'UnknownExtra',
  'UnknownRight',
  'PasswordPolicy',
  'PasswordMismatch',
  'WrongPassword',
  'InvalidField',
  'usedToken',
  // Added by input hardening (issue #17 item 1): a text from outside (URL, header we read, body)
  // holds a NUL character or is not valid UTF-8 (plugins/input-guard.ts).
  'InvalidText',
  // Added by local events (issue #19, src/contract/events.ts): the event's start is after its end
  // (SPEC.md §5 "start must not be after end"), shown at the end date's field.
  'dateFinTooEarly',
  // Added by bounded PDF work (issue #17, decision record 0022): every PDF slot is taken; 503 with
  // Retry-After (seconds, also in details.retryAfterSeconds).
  'ServerBusy',
  // Added by the OpenAPI document (issue #17 item 11, decision record 0023): a body over the 1 MiB
  // limit (413), and a query parameter the call does not name (400, details.parameter).
  'PayloadTooLarge',
  'UnknownParameter',
  // Added by the FEC (issue #29, decision record 0037): the file failed its checks
  // (details.violations: line, entry, rule), the account plan lacks an account (details.key,
  // site, date), the company has no SIREN to name the file.
  'FecCheckFailed',
  'FecMissingAccount',
  'FecNoSiren',
  // Added by the FEC's non-euro sites (issue #29, decision record 0037): the company has sites not
  // kept in EUR and the call did not ask to leave them out (details.sites: id, libelle, devise).
  'FecForeignCurrency',
  // Added by the guided start-up (issue #30, decision record 0041): GET bo/miseEnRoute before
  // every step is done (409, details.missing: the steps, contract/startup.ts).
  'MiseEnRouteIncomplete',
  // Added by the purge (issue #30, decision record 0040): the archive of a partial or whole empty
  // could not be written or read back and verified; nothing was deleted.
  'PurgeArchiveFailed',
  // Added by the report e-mails (issue #28, decision record 0031): "send now" while a send of the
  // subscription still waits (409), and past the per-user hourly limit (429, details.max, minutes).
  'SendNowPending',
  'SendNowLimit',
  // Added by the database operations (issue #30, decision record 0039): a backup path refused
  // (details.reason: nul, absolute, parent, extension, outside, missing, exists), a restore refused
  // (details.reason: noManifest, truncated, checksum, newerSchema, unreadable, verification),
  // pg_dump / pg_restore missing (details.install: the package), an operation already under way,
  // and the few seconds a restored database is switched to (503, Retry-After).
  'BackupPathRefused',
  'RestoreRefused',
  'PgToolsMissing',
  'DatabaseBusy',
  'DatabaseSwitching',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Success codes of SPEC.md §8 (shown 5 seconds). */
export const SUCCESS_CODES = [
  'seeUrMail',
  'SuccessMod',
  'RestaureOk',
  'SaveOk',
  'EmptyOk',
  'EmptyPartielOk',
  'ReindexOk',
  'SuccessMiseEnRoute',
  'MailEnvoye',
  'exportOk',
  'eventAdded',
  'eventEdited',
] as const;
export type SuccessCode = (typeof SUCCESS_CODES)[number];

/** Body of every error answer: `code` from {@link ERROR_CODES}, `message` an English hint for logs. */
export const ApiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** Optional machine-readable details (e.g. `{ maxDays: 31 }` for MaxReportDays). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
