/**
 * Alerts (issue #28 "Alerts"): mails sent only when something needs a person, written once here
 * and used by the server routes (`bo/recurrences/alertes…`), the `alert.check` job and the screen.
 *
 * An **alert** (alerte) is a kind of condition, sites, a rule and recipients (the subscriptions'
 * rules and recipients, src/contract/subscriptions.ts), an owner whose scope limits the sites at
 * each run, and `active`. At each occurrence of its rule the condition is checked per site; a
 * recipient gets a mail only when the condition holds, at most once per site and fiscal date.
 *
 * - `dayOutsideForecast`: the site's last closed day (the fiscal date before the check's) had net
 *   sales outside the 80 % range of the forecast made the day before (src/server/forecast/).
 * - `countMissing`: a cash count of a terminal, or the safe count, is still missing for that
 *   fiscal date at the rule's hour.
 * - `newAnomaly`: an anomaly (src/server/anomalies/) newly found since the alert's last check.
 *
 * SPEC.md §7 lists none of these calls; they follow the house style of the subscriptions
 * (decision record 0031): `GET bo/recurrences/alertes?id`, `POST bo/recurrences/alertes/save?id`,
 * `…/remove?id` and `…/check?id` (check now).
 */
import { z } from 'zod';
import { INT4_MAX } from './integers.ts';

const Id = z.number().int().positive().max(INT4_MAX);

/** The conditions an alert can watch. */
export const ALERT_KINDS = ['dayOutsideForecast', 'countMissing', 'newAnomaly'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The fields of an alert without its id. */
const alertShape = {
  libelle: z.string().trim().min(1).max(120),
  type: z.enum(ALERT_KINDS),
  /** Site ids (at least one); at each run only those within the owner's scope are checked. */
  sites: z.array(Id).min(1).max(1000),
  /** The rule (`bo/recurrences/regles`) whose occurrences are the checks. */
  regleId: Id,
  /** Recipients (`bo/recurrences/destinataires`), at least one. */
  destinataires: z.array(Id).min(1).max(200),
  active: z.boolean().default(true),
};

/** A saved alert. `proprietaireId` is its owner (null once that user is removed: it sends nothing). */
export const AlertSchema = z.object({
  id: Id,
  proprietaireId: Id.nullable(),
  /** The owner's login. */
  proprietaire: z.string().nullable(),
  ...alertShape,
});
export type Alert = z.output<typeof AlertSchema>;

/** Body of `POST bo/recurrences/alertes/save`: an alert; with `id`, replaces that alert. */
export const AlertSaveBodySchema = z.object({ id: Id.optional(), ...alertShape });
export type AlertSaveBody = z.input<typeof AlertSaveBodySchema>;

/** Answer of `GET bo/recurrences/alertes`. */
export const AlertsAnswerSchema = z.object({ alertes: z.array(AlertSchema) });

/** Answer of `POST bo/recurrences/alertes/check`: how many mails the check queued (0: all is well). */
export const AlertCheckAnswerSchema = z.object({ mails: z.number().int().min(0) });

/**
 * The right an alert's owner needs for its kind to be checked (and to save one of that kind
 * without CONFIGURATION): sales against the forecast and missing counts are report matters
 * (RAPPORTS), anomalies need RAPPORTS_ANOMALIES (the anomalies screen's right).
 */
export const ALERT_KIND_RIGHTS: Readonly<Record<AlertKind, string>> = {
  dayOutsideForecast: 'RAPPORTS',
  countMissing: 'RAPPORTS',
  newAnomaly: 'RAPPORTS_ANOMALIES',
};
