/**
 * Recurring report e-mails (SPEC.md §1 "rules, recipients, subscriptions", §6 "recurrence rules
 * have daily, weekly or monthly types", issue #28), written once here and used by the server
 * routes (`bo/recurrences/…`), the jobs and the screens.
 *
 * - A **rule** (règle) says when: every day, Monday to Friday, chosen days of the week, or one
 *   day of the month (1–28, or the last day), at `heure:minute` local time. Its time zone is the
 *   subscription's (server subscriptions/time-zone.ts), not the rule's.
 * - A **recipient** (destinataire) is a Comptoir user (their address and language) or a plain
 *   address with a language.
 * - A **subscription** (abonnement) is a report configuration (a favourite, or class + variant +
 *   operation + sites, groups, terminals, sellers + a relative period), its formats, a rule,
 *   recipients, "send only when there is data", an owner whose rights it runs with, `active`.
 *
 * SPEC.md §7 lists none of these calls; they follow the house style (DESIGN.md §4), each list
 * `GET bo/recurrences/<kind>?id`, each write `POST bo/recurrences/<kind>/save?id` (no `id` in
 * the body creates) and `POST bo/recurrences/<kind>/remove?id` (decision record 0031: POST, so
 * no cache or prefetch ever deletes).
 */
import { z } from 'zod';
import { PeriodCodeSchema } from './periods.ts';
import { LanguageSchema, OPERATIONS, REPORT_VARIANTS } from './reports.ts';
import { INT4_MAX } from './integers.ts';

const Id = z.number().int().positive().max(INT4_MAX);
const Name = z.string().trim().min(1).max(120);

/** Kinds of rule: every day, Monday–Friday, chosen days of the week, one day of the month. */
export const RULE_TYPES = ['DAILY', 'WEEKDAYS', 'WEEKLY', 'MONTHLY'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** Days of the week as ISO 8601 numbers: 1 = Monday … 7 = Sunday. */
export const IsoWeekdaySchema = z.number().int().min(1).max(7);

/** The fields of a rule without its id. */
const ruleShape = {
  libelle: Name,
  type: z.enum(RULE_TYPES),
  /** WEEKLY: the days it fires (ISO 1 = Monday … 7 = Sunday), at least one; ignored otherwise. */
  jours: z.array(IsoWeekdaySchema).max(7).default([]),
  /** MONTHLY: the day of the month (1–28: every month has it), unless `dernierJour`. */
  jourDuMois: z.number().int().min(1).max(28).nullable().default(null),
  /** MONTHLY: the last day of each month (28, 29, 30 or 31). */
  dernierJour: z.boolean().default(false),
  /** Local hour 0–23 and minute 0–59 it fires at. */
  heure: z.number().int().min(0).max(23),
  minute: z.number().int().min(0).max(59).default(0),
  active: z.boolean().default(true),
};

/** A weekly rule names a day; a monthly rule a day of the month or the last day. */
function checkRule(
  r: { type: RuleType; jours: number[]; jourDuMois: number | null; dernierJour: boolean },
  ctx: z.RefinementCtx,
): void {
  if (r.type === 'WEEKLY' && r.jours.length === 0)
    ctx.addIssue({ code: 'custom', path: ['jours'], message: 'a weekly rule needs at least one day' });
  if (r.type === 'MONTHLY' && r.jourDuMois === null && !r.dernierJour)
    ctx.addIssue({
      code: 'custom',
      path: ['jourDuMois'],
      message: 'a monthly rule needs a day or dernierJour',
    });
}

/** A rule's fields, checked: what the occurrence function takes. */
export const RuleFieldsSchema = z.object(ruleShape).superRefine(checkRule);
export type RuleFields = z.output<typeof RuleFieldsSchema>;

/** A saved rule. `proprietaireId` is the user who created it (null once that user is removed). */
export const RuleSchema = z.object({ id: Id, proprietaireId: Id.nullable(), ...ruleShape });
export type Rule = z.output<typeof RuleSchema>;

/** Body of `POST bo/recurrences/regles/save`: a rule; with `id`, replaces that rule. */
export const RuleSaveBodySchema = z.object({ id: Id.optional(), ...ruleShape }).superRefine(checkRule);
export type RuleSaveBody = z.input<typeof RuleSaveBodySchema>;

/**
 * A recipient: exactly one of `utilisateurId` (a Comptoir user: their current address) or
 * `email` (a plain address, checked), and the language of its mails.
 */
const recipientShape = {
  utilisateurId: Id.nullable().default(null),
  email: z.email().max(254).nullable().default(null),
  langue: LanguageSchema.default('fr'),
};

/** A saved recipient, with the address and name it resolves to now (a user's may change). */
export const RecipientSchema = z.object({
  id: Id,
  proprietaireId: Id.nullable(),
  /** The address mails go to (the user's current one); null for a user without an address. */
  adresse: z.string().nullable(),
  /** The user's login, or the address. */
  libelle: z.string(),
  ...recipientShape,
});
export type Recipient = z.output<typeof RecipientSchema>;

/** Body of `POST bo/recurrences/destinataires/save`. */
export const RecipientSaveBodySchema = z
  .object({ id: Id.optional(), ...recipientShape })
  .refine((r) => (r.utilisateurId === null) !== (r.email === null), {
    message: 'either utilisateurId or email',
    path: ['email'],
  });
export type RecipientSaveBody = z.input<typeof RecipientSaveBodySchema>;

/** Formats a subscription can send (the documents of bo/getReport). */
export const SUBSCRIPTION_FORMATS = ['PDF', 'CSV', 'XLSX'] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];

/**
 * The report a subscription sends: either the favourite `favoriId` of its owner (its class,
 * sites, terminals, sellers, operation, sort and filter) or the fields below; in both cases the
 * period is `periode` (SPEC.md §9 code, relative to the day of the run in the subscription's
 * time zone), moved one year back when `anneePrecedente`.
 */
export const SubscriptionReportSchema = z.object({
  favoriId: Id.nullable().default(null),
  rapportClassName: z.string().min(1).max(200).default('RapportVentes'),
  typeRapport: z.enum(REPORT_VARIANTS).default('Daily'),
  operation: z.enum(OPERATIONS).default('VENTE'),
  /** Sites (restaurantId); empty = every site of the owner's scope at the time of the run. */
  lSites: z.array(Id).max(5000).default([]),
  /** Groups of sites (regroupement ids): only their sites. */
  groupements: z.array(Id).max(500).default([]),
  /** Terminal numbers; empty = every terminal. */
  tpv: z.array(z.number().int().min(0).max(INT4_MAX)).max(5000).default([]),
  /** Seller codes; empty = every seller. */
  vendeurs: z.array(z.string().min(1).max(200)).max(5000).default([]),
  periode: PeriodCodeSchema.default('D-1'),
  /** The same period one year earlier (e.g. D-1 a year ago). */
  anneePrecedente: z.boolean().default(false),
});
export type SubscriptionReport = z.output<typeof SubscriptionReportSchema>;

/** The fields of a subscription without id, owner and state. */
const subscriptionShape = {
  libelle: Name,
  rapport: SubscriptionReportSchema,
  /** One or more formats, each once. */
  formats: z
    .array(z.enum(SUBSCRIPTION_FORMATS))
    .min(1)
    .max(3)
    .refine((f) => new Set(f).size === f.length, 'each format once'),
  regleId: Id,
  destinataires: z.array(Id).min(1).max(200),
  /** Sends nothing when the report of the period is empty. */
  siDonnees: z.boolean().default(true),
  active: z.boolean().default(true),
};

/** Where a subscription's run stands, or what it did (SPEC §7 wire values). */
export const SUBSCRIPTION_RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'RETRYING',
  'SENT',
  'EMPTY',
  'SUSPENDED',
  'FAILED',
] as const;

/**
 * One run of a subscription, as its history shows it (the job queue's record, issue #28).
 * QUEUED: waiting for a worker; RUNNING: a try is under way; RETRYING: a try failed, another
 * follows with backoff; SENT: mails queued; EMPTY: nothing to send; SUSPENDED: its owner cannot
 * run it; FAILED: no try left (`erreur` says why).
 */
export const SubscriptionRunSchema = z.object({
  /** The planned minute (ISO 8601, UTC). */
  planifie: z.string(),
  /** When its last try ended (ISO 8601); null while queued or running. */
  termine: z.string().nullable(),
  statut: z.enum(SUBSCRIPTION_RUN_STATUSES),
  /** Tries started (0 while queued). */
  tentatives: z.number().int().min(0),
  /** Mails queued for the mail job (one per recipient). */
  mails: z.number().int().min(0),
  fichiers: z.array(z.object({ nom: z.string(), octets: z.number().int().min(0) })),
  erreur: z.string().nullable(),
});
export type SubscriptionRun = z.output<typeof SubscriptionRunSchema>;

/**
 * A saved subscription. `suspendu` is true when its owner is gone, deactivated or no longer holds
 * RAPPORTS: it then sends nothing until an administrator gives it an owner again.
 */
export const SubscriptionSchema = z.object({
  id: Id,
  proprietaireId: Id.nullable(),
  /** The owner's login. */
  proprietaire: z.string().nullable(),
  suspendu: z.boolean(),
  dernierEnvoi: SubscriptionRunSchema.nullable(),
  /** Recipients (of `destinataires`) who stopped it with the mail's unsubscribe link. */
  desabonnes: z.array(Id),
  ...subscriptionShape,
});
export type Subscription = z.output<typeof SubscriptionSchema>;

/**
 * Body of `POST bo/recurrences/abonnements/save`. `proprietaireId` gives the subscription to
 * another owner (administrators only, CONFIGURATION; absent = unchanged, or the caller for a new
 * one): it then runs with that user's rights and sites.
 */
export const SubscriptionSaveBodySchema = z.object({
  id: Id.optional(),
  proprietaireId: Id.optional(),
  ...subscriptionShape,
});
export type SubscriptionSaveBody = z.input<typeof SubscriptionSaveBodySchema>;

/** Body of every `…/remove`, `…/send` and `…/preview` call: the row's id. */
export const RowIdBodySchema = z.object({ id: Id });

/** Answers of the lists. */
export const RulesAnswerSchema = z.object({ regles: z.array(RuleSchema) });
export const RecipientsAnswerSchema = z.object({ destinataires: z.array(RecipientSchema) });
export const SubscriptionsAnswerSchema = z.object({ abonnements: z.array(SubscriptionSchema) });
export const SubscriptionRunsAnswerSchema = z.object({ envois: z.array(SubscriptionRunSchema) });

/** The preview of a subscription: the mail of its first recipient, and its files, not sent. */
export const SubscriptionPreviewSchema = z.object({
  sujet: z.string(),
  texte: z.string(),
  html: z.string(),
  dateDebut: z.string(),
  dateFin: z.string(),
  fichiers: z.array(
    z.object({
      nom: z.string(),
      type: z.string(),
      octets: z.number().int().min(0),
      /** The file, base64; null above the mail size limit (the mail then carries a link). */
      contenu: z.string().nullable(),
    }),
  ),
});
export type SubscriptionPreview = z.output<typeof SubscriptionPreviewSchema>;
