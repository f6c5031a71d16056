/**
 * The contract of counting (issue #3): cash counts per terminal, safe counts with the manager's
 * countersignature, manager receipts, counting rules, and the idempotent writes that let the
 * offline outbox replay them (DESIGN.md §7). SPEC.md §7 names the read calls and a few writes;
 * the other writes (saving a cash count, a safe count, a manager code) are ours, in the same
 * style: query parameters `id` (the signed-in user's id), `site` (restaurantId), `dateFiscale`
 * (YYYY-MM-DD), `caisse` (terminal number); JSON bodies for what the user typed.
 *
 * Money is always integer cents. Counted notes and coins travel as quantities per denomination
 * (the server multiplies), cheques, meal vouchers and card slips as totals in cents.
 *
 * Every write answers 200 with the stored record; the outbox may send it with an
 * `Idempotency-Key` (see {@link IDEMPOTENCY_KEY_HEADER}).
 */
import { z } from 'zod';
import { parseWireDate } from './dates.ts';
import { LanguageSchema } from './reports.ts';
import { BIGINT_ID_MAX, CENTS_MAX, INT4_MAX } from './integers.ts';

// ---------------------------------------------------------------------------------------------
// Idempotent writes (DESIGN.md §7)
// ---------------------------------------------------------------------------------------------

/**
 * Request header carrying the client-made UUID of one write. Honoured on every write route
 * (POST, PUT, DELETE, and the GETs that write: bo/updateRule, bo/home/envoieMail,
 * bo/home/envoieMailManquant). Optional: without it a write simply runs.
 *
 * The server keeps, per user and key, the method and path, a SHA-256 of the request (query
 * without the cache-busting `_`, and body) and the first successful (2xx) answer, stored in the
 * same transaction as the write:
 * - same key, same request → the first answer again (same status and body), with header
 *   {@link IDEMPOTENT_REPLAYED_HEADER}`: true`; nothing is written twice;
 * - same key, other method, path, query or body → 422 {@link IDEMPOTENCY_KEY_REUSED};
 * - the same key sent concurrently → one runs, the others wait for it and replay its answer
 *   (or, after {@link IDEMPOTENCY_WAIT_SECONDS}, answer 503 {@link IDEMPOTENCY_KEY_IN_PROGRESS}:
 *   retry later);
 * - a non-2xx answer is not kept: a repeat runs again (a 4xx will usually answer the same).
 * Keys are kept {@link IDEMPOTENCY_KEY_TTL_DAYS} days; after that a key counts as new.
 * A key that is not a UUID answers 400 `BadRequest`.
 */
export { IDEMPOTENCY_KEY_HEADER } from './constants.ts';
/** Answer header set to `true` on a replayed answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** Error code (HTTP 422): the key was used before for another request. Fix: use a new key. */
export const IDEMPOTENCY_KEY_REUSED = 'IdempotencyKeyReused';
/** Error code (HTTP 503, `Retry-After` set): the first request with this key is still running. */
export const IDEMPOTENCY_KEY_IN_PROGRESS = 'IdempotencyKeyInProgress';
/** How long the server keeps a key and its answer, in days. */
export const IDEMPOTENCY_KEY_TTL_DAYS = 7;
/** How long a concurrent repeat waits for the first request before answering 503, in seconds. */
export const IDEMPOTENCY_WAIT_SECONDS = 30;
/** A valid key: a UUID (any version; the client uses crypto.randomUUID()). */
export const IdempotencyKeySchema = z.uuid();

/** Report class of cash counts (bo/getReport rapportClassName; latest version per terminal and day). */
export const CASH_COUNT_REPORT = 'RapportComptageCaisses';
/** Report class of safe counts (latest version per site and day, with its countersignature). */
export const SAFE_COUNT_REPORT = 'RapportComptageCoffre';
/** Report class of manager receipts (latest version of each receipt, with the total amount). */
export const RECEIPTS_REPORT = 'RapportRecus';

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** A wire fiscal date, `YYYY-MM-DD`. */
export const FiscalDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a YYYY-MM-DD date')
  .refine((d) => parseWireDate(d) !== null, 'a real calendar date');

/**
 * Euro denominations, in cents, largest first: notes 500 € … 5 €, coins 2 € … 0.01 €.
 * A count lists only the denominations it uses; each at most once.
 */
export const DENOMINATIONS_CENTS = [
  50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1,
] as const;
/** Denominations (cents) that are notes; the others are coins. */
export const NOTE_DENOMINATIONS_CENTS = [50000, 20000, 10000, 5000, 2000, 1000, 500] as const;

/** One line of counted cash: `quantity` notes or coins of `denominationCents` cents. */
export const DenominationCountSchema = z.object({
  denominationCents: z
    .number()
    .int()
    .min(1)
    .max(Math.max(...DENOMINATIONS_CENTS))
    .refine((v) => (DENOMINATIONS_CENTS as readonly number[]).includes(v), 'a euro denomination in cents')
    .describe('value of one note or coin, cents (50000 = 500 €, 1 = 0.01 €)'),
  quantity: z.number().int().min(0).max(1_000_000).describe('how many notes or coins'),
});
export type DenominationCount = z.infer<typeof DenominationCountSchema>;

/** A list of counted denominations, each denomination at most once. */
export const DenominationsSchema = z
  .array(DenominationCountSchema)
  .max(DENOMINATIONS_CENTS.length)
  .refine((lines) => new Set(lines.map((l) => l.denominationCents)).size === lines.length, {
    message: 'each denomination at most once',
  });

/** Total in cents of counted denominations. */
export function denominationsTotalCents(lines: readonly DenominationCount[]): number {
  return lines.reduce((sum, l) => sum + l.denominationCents * l.quantity, 0);
}

/** Who did something and when (server-side instants, ISO 8601 with offset). */
export const ActorSchema = z.object({
  userId: z.number().int(),
  login: z.string(),
});
export type Actor = z.infer<typeof ActorSchema>;

/**
 * Optional instant (ISO 8601 with offset) at which the user actually counted, as the device's
 * clock saw it. An offline count reaches the server later; the server keeps both this and its
 * own reception time. Absent → the reception time.
 */
const CountedAtSchema = z.iso.datetime({ offset: true }).optional();

// ---------------------------------------------------------------------------------------------
// Counting rules (SPEC.md §3 "Rule: libelle, active"; §7 bo/getListRules, bo/updateRule)
// ---------------------------------------------------------------------------------------------

/**
 * The counting rules every site has. `libelle` is the rule's stable name (the client shows the
 * translated `rule.<libelle>`); an active rule makes that part of a cash count required:
 * - `comptageEspeces`: count notes and coins (default active),
 * - `comptageCheques`: count cheques (default active),
 * - `comptageTicketsRestaurant`: count meal vouchers (default active),
 * - `comptageCartes`: count card slips (default inactive).
 * A site whose rules were never changed has the defaults.
 */
export const RULE_LIBELLES = [
  'comptageEspeces',
  'comptageCheques',
  'comptageTicketsRestaurant',
  'comptageCartes',
] as const;
export type RuleLibelle = (typeof RULE_LIBELLES)[number];
export const RuleLibelleSchema = z.enum(RULE_LIBELLES);
/** Whether each rule is active on a site that never changed it. */
export const RULE_DEFAULTS: Readonly<Record<RuleLibelle, boolean>> = {
  comptageEspeces: true,
  comptageCheques: true,
  comptageTicketsRestaurant: true,
  comptageCartes: false,
};

/** A counting rule of one site (SPEC.md §3). */
export const RuleSchema = z.object({
  restaurantId: z.number().int(),
  libelle: RuleLibelleSchema,
  active: z.boolean(),
});
export type Rule = z.infer<typeof RuleSchema>;

/**
 * GET bo/getListRules?id[&site] — the rules of every site of the user's scope (or of `site`),
 * ordered by restaurantId then {@link RULE_LIBELLES} order. Rights: COMPTAGE or CONFIGURATION.
 */
export const GetListRulesQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX),
  site: z.coerce.number().int().positive().max(INT4_MAX).optional(),
});
export const RulesAnswerSchema = z.array(RuleSchema);
export type RulesAnswer = z.infer<typeof RulesAnswerSchema>;

/**
 * GET bo/updateRule?id&libelle&active[&site] — turns rule `libelle` on or off on `site`, or on
 * every site of the user's scope when `site` is absent. A write (honours Idempotency-Key; never
 * cached by the service worker). `active` is `true`/`false`. Answers the changed rules
 * ({@link RulesAnswerSchema}). Rights: CONFIGURATION. A `site` outside the scope: 403 Forbidden.
 */
export const UpdateRuleQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX),
  libelle: RuleLibelleSchema,
  active: z.enum(['true', 'false']).transform((v) => v === 'true'),
  site: z.coerce.number().int().positive().max(INT4_MAX).optional(),
});

// ---------------------------------------------------------------------------------------------
// Cash counts (/analyses/comptageCaisses)
// ---------------------------------------------------------------------------------------------

/** Amounts per payment method, in cents. */
export const MethodAmountsSchema = z.object({
  cashCents: z.number().int(),
  chequesCents: z.number().int(),
  mealVouchersCents: z.number().int(),
  cardSlipsCents: z.number().int(),
});
export type MethodAmounts = z.infer<typeof MethodAmountsSchema>;

/** Counted minus expected per method, in cents; null for a method not counted. */
export const MethodVariancesSchema = z.object({
  cashCents: z.number().int().nullable(),
  chequesCents: z.number().int().nullable(),
  mealVouchersCents: z.number().int().nullable(),
  cardSlipsCents: z.number().int().nullable(),
});
export type MethodVariances = z.infer<typeof MethodVariancesSchema>;

/** Which parts of a cash count the site's active rules require. */
export const RequiredCountsSchema = z.object({
  cash: z.boolean(),
  cheques: z.boolean(),
  mealVouchers: z.boolean(),
  cardSlips: z.boolean(),
});
export type RequiredCounts = z.infer<typeof RequiredCountsSchema>;

/**
 * GET bo/comptage/expected?id&site&dateFiscale&caisse — what the terminal should hold: the sum
 * of the day's payments of the terminal's tickets by method (payments CASH, CHEQUE,
 * MEAL_VOUCHER, CARD; training-mode tickets excluded), and which counts the rules require.
 * Rights: COMPTAGE. A site outside the scope: 403 Forbidden.
 */
export const ExpectedQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX),
  site: z.coerce.number().int().positive().max(INT4_MAX),
  dateFiscale: FiscalDateSchema,
  caisse: z.coerce.number().int().min(0).max(INT4_MAX),
});
export const ExpectedAnswerSchema = z.object({
  site: z.number().int(),
  dateFiscale: z.string(),
  caisse: z.number().int(),
  /** ISO 4217 currency of the site. */
  currency: z.string(),
  expected: MethodAmountsSchema,
  rules: z.array(RuleSchema),
  required: RequiredCountsSchema,
});
export type ExpectedAnswer = z.infer<typeof ExpectedAnswerSchema>;

/**
 * POST bo/comptage/save?id — body: one count of one terminal on one fiscal date. Every save
 * creates a NEW version (1, 2, …) of the count of (site, dateFiscale, caisse); nothing is
 * overwritten. A part not counted is `null` (cash: `null`, not `[]`); a part the site's rules
 * require must be given, else 400 `MissingCount` with `details.missing` (e.g. `['cheques']`).
 * `caisse` must be one of the site's terminals (bo/getCaisses), else 400 `UnknownTerminal` with
 * `details.caisse`. Rights: COMPTAGE. A site outside the scope: 403 Forbidden. Answers {@link CashCountSchema}.
 */
export const CashCountBodySchema = z.object({
  site: z.number().int().positive().max(INT4_MAX),
  dateFiscale: FiscalDateSchema,
  caisse: z.number().int().min(0).max(INT4_MAX),
  /** Counted notes and coins; null when cash was not counted. */
  cash: DenominationsSchema.nullable(),
  chequesCents: z.number().int().min(0).max(CENTS_MAX).nullable(),
  mealVouchersCents: z.number().int().min(0).max(CENTS_MAX).nullable(),
  cardSlipsCents: z.number().int().min(0).max(CENTS_MAX).nullable(),
  comment: z.string().max(1000).default(''),
  countedAt: CountedAtSchema,
});
export type CashCountBody = z.input<typeof CashCountBodySchema>;

/**
 * A stored cash count (one version). `expected` is what the payments said when the count was
 * saved (kept, so a later import does not rewrite history); `variance` = counted − expected.
 */
export const CashCountSchema = z.object({
  id: z.number().int(),
  site: z.number().int(),
  dateFiscale: z.string(),
  caisse: z.number().int(),
  version: z.number().int().positive(),
  cash: z.array(DenominationCountSchema).nullable(),
  /** Total of `cash` in cents; null when cash was not counted. */
  cashCents: z.number().int().nullable(),
  chequesCents: z.number().int().nullable(),
  mealVouchersCents: z.number().int().nullable(),
  cardSlipsCents: z.number().int().nullable(),
  comment: z.string(),
  expected: MethodAmountsSchema,
  variance: MethodVariancesSchema,
  countedBy: ActorSchema,
  /** When the user counted (device clock, or reception time). */
  countedAt: z.string(),
  /** When the server stored it. */
  receivedAt: z.string(),
});
export type CashCount = z.infer<typeof CashCountSchema>;

/**
 * GET bo/comptage/list?id&site&dateFiscale[&caisse] — every version of the day's counts of the
 * site (or of one terminal), by terminal ascending then version descending (latest first).
 * Rights: COMPTAGE.
 */
export const CashCountListQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(INT4_MAX),
  site: z.coerce.number().int().positive().max(INT4_MAX),
  dateFiscale: FiscalDateSchema,
  caisse: z.coerce.number().int().min(0).max(INT4_MAX).optional(),
});
export const CashCountListAnswerSchema = z.object({
  currency: z.string(),
  counts: z.array(CashCountSchema),
});
export type CashCountListAnswer = z.infer<typeof CashCountListAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Safe counts (/analyses/coffre; SPEC.md §7 GET coffre) and the countersignature
// ---------------------------------------------------------------------------------------------

/**
 * POST coffre/save?id — body: one count of a site's safe on one fiscal date. Expected content =
 * opening float + deposits − withdrawals; variance = counted − expected. Every save is a NEW
 * version; a new version needs a new countersignature. Rights: COFFRE. Answers {@link SafeCountSchema}.
 */
export const SafeCountBodySchema = z.object({
  site: z.number().int().positive().max(INT4_MAX),
  dateFiscale: FiscalDateSchema,
  /** Opening float (fond de caisse), cents. The GET coffre?dateFiscale answer suggests one. */
  openingCents: z.number().int().min(0).max(CENTS_MAX),
  /** Money put into the safe during the day (e.g. terminal takings), cents. */
  depositsCents: z.number().int().min(0).max(CENTS_MAX),
  /** Money taken out (bank deposit, change), cents. */
  withdrawalsCents: z.number().int().min(0).max(CENTS_MAX),
  /** Counted content by denomination. */
  contents: DenominationsSchema,
  comment: z.string().max(1000).default(''),
  countedAt: CountedAtSchema,
});
export type SafeCountBody = z.input<typeof SafeCountBodySchema>;

/** A manager's countersignature of a safe count (fluxfin/contre_signe). */
export const CountersignatureSchema = z.object({
  managerUserId: z.number().int(),
  managerName: z.string(),
  commentaire: z.string(),
  signedAt: z.string(),
});
export type Countersignature = z.infer<typeof CountersignatureSchema>;

/** A stored safe count (one version). `countersignature` null = waiting for a manager. */
export const SafeCountSchema = z.object({
  id: z.number().int(),
  site: z.number().int(),
  /** Site name (libelle), for lists and the receipt. */
  libelle: z.string(),
  dateFiscale: z.string(),
  version: z.number().int().positive(),
  openingCents: z.number().int(),
  depositsCents: z.number().int(),
  withdrawalsCents: z.number().int(),
  expectedCents: z.number().int(),
  contents: z.array(DenominationCountSchema),
  countedCents: z.number().int(),
  varianceCents: z.number().int(),
  comment: z.string(),
  countedBy: ActorSchema,
  countedAt: z.string(),
  receivedAt: z.string(),
  countersignature: CountersignatureSchema.nullable(),
});
export type SafeCount = z.infer<typeof SafeCountSchema>;

/**
 * GET coffre — three forms (SPEC.md §7):
 * 1. `?dateFiscale` → {@link SafeDayAnswerSchema}: for each site of the scope, the day's safe
 *    counts (every version, latest first) and a suggested opening float (the latest counted
 *    content of an earlier day, 0 when none).
 * 2. `?ACTION=getComptages&restaurantId&dateDebut&dateFin` → {@link SafeListAnswerSchema}: the
 *    site's safe counts in the period (both dates included), every version, by date then version.
 * 3. `?ACTION=getRecu&pdf=true&id` → the PDF receipt (application/pdf, attachment) of safe count
 *    `id` (here `id` is the safe count's id, as SPEC.md §7 spells it); with `pdf=false` the
 *    {@link SafeCountSchema} as JSON.
 * Rights: COFFRE. A count or site outside the scope: 404 NotFound / 403 Forbidden.
 */
export const SAFE_ACTIONS = ['getComptages', 'getRecu'] as const;
export const SafeDayAnswerSchema = z.object({
  dateFiscale: z.string(),
  sites: z.array(
    z.object({
      restaurantId: z.number().int(),
      libelle: z.string(),
      currency: z.string(),
      suggestedOpeningCents: z.number().int(),
      counts: z.array(SafeCountSchema),
    }),
  ),
});
export type SafeDayAnswer = z.infer<typeof SafeDayAnswerSchema>;
export const SafeListAnswerSchema = z.object({ data: z.array(SafeCountSchema) });
export type SafeListAnswer = z.infer<typeof SafeListAnswerSchema>;

/**
 * GET fluxfin/declare_et_en_attente_de_signatures?dateDebut&dateFin&id — the latest version of
 * each safe count declared in the period on the scope's sites, with its status:
 * `EN_ATTENTE` (waiting for a countersignature) or `CONTRE_SIGNE`. Rights: COFFRE.
 */
export const SIGNATURE_STATUSES = ['EN_ATTENTE', 'CONTRE_SIGNE'] as const;
export const SignaturesAnswerSchema = z.object({
  data: z.array(SafeCountSchema.extend({ status: z.enum(SIGNATURE_STATUSES) })),
});
export type SignaturesAnswer = z.infer<typeof SignaturesAnswerSchema>;

/**
 * POST fluxfin/contre_signe?restaurantId&id&datefiscale&managerName&managerCode&commentaire —
 * a manager countersigns the latest safe count of (restaurantId, datefiscale). `id` is the
 * signed-in user's id; `managerName` is the countersigning manager's login and `managerCode`
 * their manager code (see bo/setContreCode). The manager must hold COFFRE on the site and must
 * not be the user who counted. Answers the countersigned {@link SafeCountSchema}.
 *
 * `managerName`, `managerCode` and `commentaire` may come in the query (SPEC.md §7's form) or in
 * a JSON body {@link CountersignBodySchema} (our client's form: a code in a URL ends up in
 * proxies' and browsers' logs); the body's value wins. `managerName` and `managerCode` are
 * required in one or the other (400 BadRequest).
 * Errors: 404 NotFound (no count), 400 `BadManagerCode` (unknown manager, no code, wrong code,
 * or the counter themself), 409 `AlreadyCountersigned`.
 */
export const CountersignQuerySchema = z.object({
  restaurantId: z.coerce.number().int().positive().max(INT4_MAX),
  id: z.coerce.number().int().positive().max(INT4_MAX),
  datefiscale: FiscalDateSchema,
  managerName: z.string().min(1).optional(),
  managerCode: z.string().min(1).optional(),
  commentaire: z.string().max(1000).optional(),
});

/** The body of POST fluxfin/contre_signe (all optional: the SPEC.md §7 form sends none). */
export const CountersignBodySchema = z
  .object({
    managerName: z.string().min(1).max(100),
    managerCode: z.string().min(1).max(100),
    commentaire: z.string().max(1000),
  })
  .partial()
  .strict();
export type CountersignBody = z.infer<typeof CountersignBodySchema>;

/**
 * A manager code: 4 to 6 digits, chosen by the manager, stored as an argon2id hash (never in
 * clear). It proves the manager's presence at a countersignature.
 */
export const ManagerCodeSchema = z.string().regex(/^\d{4,6}$/, '4 to 6 digits');

/**
 * POST bo/setContreCode?id — body `{ contreCode }`: sets the signed-in user's own manager code.
 * Rights: COFFRE. Answers `{ ok: true }`.
 */
export const SetManagerCodeBodySchema = z.object({ contreCode: ManagerCodeSchema });
export const OkAnswerSchema = z.object({ ok: z.literal(true) });

/**
 * GET bo/checkContreCode?id&code&contreCode — checks a manager code without signing: `code` is
 * the manager's login, `contreCode` the code typed. Answers `{ valide, managerName }`
 * (`managerName` null when not valid). Rate-limited (10 a minute per client) against guessing.
 * Rights: COFFRE.
 */
export const CheckContreCodeAnswerSchema = z.object({
  valide: z.boolean(),
  managerName: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------
// E-mails (bo/home/envoieMail, bo/home/envoieMailManquant)
// ---------------------------------------------------------------------------------------------

/**
 * GET bo/home/envoieMail?idRecu&role&utilisateur&site — mails the PDF receipt of safe count
 * `idRecu` (of `site`) to user `utilisateur` (a login) when given, else to every user of role
 * `role` whose scope holds the site. GET bo/home/envoieMailManquant?role&id&site&datefiscale —
 * mails the users of role `role` on `site` that the safe count of `datefiscale` is missing; with
 * `&caisse` (our addition: a terminal id of `site`, the wire name cash counts use), that the cash
 * count of that terminal for `datefiscale` is missing (400 `UnknownTerminal` for a terminal the
 * site does not have). `id` stays the calling user, as SPEC.md §7 has it.
 * Both are writes (honour Idempotency-Key; a replay does not send again, and under a key each
 * recipient is mailed at most once, even when the first answer was lost). Rights: COFFRE
 * (envoieMail; envoieMailManquant without `caisse`), COMPTAGE (envoieMailManquant with `caisse`).
 * Answer `{ code: 'MailEnvoye', recipients }` (e-mail addresses). Errors: 400 `noDataError`
 * when no recipient has an e-mail address, 502 `ErreurEnvoiMail` when the SMTP server refuses
 * or none is configured (SMTP_URL).
 */
export const MailAnswerSchema = z.object({
  code: z.literal('MailEnvoye'),
  recipients: z.array(z.string()),
});
export type MailAnswer = z.infer<typeof MailAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Manager receipts (/analyses/recuManagers, /recus; bo/documentsManager/*)
// ---------------------------------------------------------------------------------------------

/**
 * Body of createDocument / updateDocument: the receipt's complements — what the manager received
 * from the seller: amount (cents), reason, optional free comment.
 */
export const ReceiptComplementsSchema = z.object({
  montantCents: z.number().int().min(0).max(CENTS_MAX),
  motif: z.string().min(1).max(200),
  commentaire: z.string().max(1000).default(''),
});
export type ReceiptComplements = z.infer<typeof ReceiptComplementsSchema>;
/** Body of createDocument / updateDocument as sent (`commentaire` optional). */
export type ReceiptComplementsBody = z.input<typeof ReceiptComplementsSchema>;

/**
 * POST bo/documentsManager/createDocument?codeVendeur&codeManager&nomVendeur&nomManager[&site]
 * [&dateFiscale] — body {@link ReceiptComplementsSchema}. `site` (restaurantId) is ours and
 * optional, as SPEC.md §7 names none (issue #32 A, decision 0033): a receipt belongs to a site,
 * by default the caller's only site (400 NoSitesSelected when their scope has several);
 * `dateFiscale` defaults to today's fiscal date of the site. updateDocument takes the same plus
 * `documentId`, and replaces the receipt's content (its `version` goes up by one); without `site`
 * the receipt stays on its site. Rights: RECUS. Answers {@link ReceiptSchema}.
 */
export const CreateReceiptQuerySchema = z.object({
  codeVendeur: z.string().min(1).max(50),
  codeManager: z.string().min(1).max(50),
  nomVendeur: z.string().min(1).max(200),
  nomManager: z.string().min(1).max(200),
  site: z.coerce
    .number()
    .int()
    .positive()
    .max(INT4_MAX)
    .optional()
    .describe(
      "restaurantId; absent = the caller's only site (createDocument) or the receipt's own (updateDocument)",
    ),
  dateFiscale: FiscalDateSchema.optional(),
});
export const UpdateReceiptQuerySchema = CreateReceiptQuerySchema.extend({
  documentId: z.coerce.number().int().positive().max(BIGINT_ID_MAX),
});

/** A manager receipt (SPEC.md §3: complements, numVendeur, libVendeur, id). */
export const ReceiptSchema = z.object({
  id: z.number().int(),
  restaurantId: z.number().int(),
  dateFiscale: z.string(),
  /** Seller's code (codeVendeur). */
  numVendeur: z.string(),
  /** Seller's name (nomVendeur). */
  libVendeur: z.string(),
  codeManager: z.string(),
  nomManager: z.string(),
  complements: ReceiptComplementsSchema,
  version: z.number().int().positive(),
  createdBy: ActorSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

/**
 * GET bo/documentsManager/readRecusManager?dateFiscale[&site] — the receipts of the day on the
 * scope's sites (or `site`), answer field `response` (SPEC.md §7). Rights: RECUS.
 */
export const ReceiptListAnswerSchema = z.object({ response: z.array(ReceiptSchema) });
export type ReceiptListAnswer = z.infer<typeof ReceiptListAnswerSchema>;

/**
 * GET bo/documentsManager/readDocument?documentId[&pdf=true] — one receipt as JSON
 * ({@link ReceiptSchema}), or its PDF with `pdf=true`. Rights: RECUS. Outside the scope: 404.
 */
export const ReadReceiptQuerySchema = z.object({
  documentId: z.coerce.number().int().positive().max(BIGINT_ID_MAX),
  pdf: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Language of the PDF; default the user's language, else fr. */
  language: LanguageSchema.optional(),
});
