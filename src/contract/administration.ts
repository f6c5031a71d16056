/**
 * Wire shapes of the chain's administration, my account, password reset, messages and the audit
 * log (issue #18; SPEC.md §3 entities, §7 calls). Field names are SPEC.md's where it names them
 * (`raisonSociale`, `restaurantIds`, `societesPlus`, `societesIdPlus`, `droits`, `optionsTicket`,
 * `rePasswordKey`…); the rest are ours and documented here. The server validates every request
 * with these schemas and publishes them in OpenAPI; the client types its calls with them.
 *
 * Every save answers the saved object; every `remove*` answers `{ id }`. Refusals are
 * `{ code, message, details? }` (errors.ts) with the codes of {@link ADMIN_ERROR_CODES}.
 */
import { z } from 'zod';
import { SellerSchema, TerminalSchema } from './api.ts';
import type { ErrorCode } from './errors.ts';
import { ID_LIST_TEXT, INT4_MAX } from './integers.ts';

/** Company (société) ids of `societesIdPlus` / `societesIdMoins`, as a list or comma-separated text. */
const IdList = z
  .union([z.array(z.coerce.number().int().positive().max(INT4_MAX)), z.string().regex(ID_LIST_TEXT)])
  .transform((v) =>
    Array.isArray(v)
      ? v
      : v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map(Number),
  )
  .pipe(z.array(z.number().int().positive().max(INT4_MAX)).max(10_000));

/** A short text typed by an administrator: trimmed, 1–200 characters. */
const Name = z.string().trim().min(1).max(200);
/** An optional short text: trimmed; empty → null. */
const OptionalText = z
  .string()
  .trim()
  .max(200)
  .nullish()
  .transform((v) => (v ? v : null));

/** `HH:mm`, 24-hour (a site's business-day start). */
export const ClockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');

// ---------------------------------------------------------------------------------------------
// Rights

/** GET bo/infra/getDroits?language — one right of contract/rights.ts RIGHTS, labelled in `language`. */
export const DroitSchema = z.object({ code: z.string(), libelle: z.string(), description: z.string() });
export type Droit = z.infer<typeof DroitSchema>;

// ---------------------------------------------------------------------------------------------
// Companies and sites

/**
 * A site as administration sees it. `hidden` is true when the libelle is 'NON REMPLI' (SPEC.md §3:
 * such a site is hidden everywhere else). `dayStart` is the business-day start `HH:mm` (a ticket
 * before it belongs to the previous fiscal date); `timeZone` an IANA zone; `currency` ISO 4217.
 */
export const AdminSiteSchema = z.object({
  restaurantId: z.number().int(),
  libelle: z.string(),
  societeId: z.number().int(),
  codeImplant: z.string().nullable(),
  currency: z.string(),
  timeZone: z.string(),
  dayStart: z.string(),
  hidden: z.boolean(),
  caisses: z.array(TerminalSchema),
  vendeurs: z.array(SellerSchema),
});
export type AdminSite = z.infer<typeof AdminSiteSchema>;

/**
 * GET bo/infra/getSocietes — a company (SPEC.md §3). `restaurantId` is its first site's id (null
 * without sites), `restaurantIds` all of them; `siren` 9 digits, `siret` 14 digits.
 */
export const SocieteSchema = z.object({
  id: z.number().int(),
  raisonSociale: z.string(),
  enseigne: z.string().nullable(),
  siren: z.string().nullable(),
  siret: z.string().nullable(),
  codeLicence: z.string().nullable(),
  codeImplant: z.string().nullable(),
  restaurantId: z.number().int().nullable(),
  restaurantIds: z.array(z.number().int()),
  sites: z.array(AdminSiteSchema),
});
export type Societe = z.infer<typeof SocieteSchema>;

/**
 * Body of POST bo/infra/newSociete and saveSociete?id. `restaurantId` (newSociete, SPEC.md §7)
 * moves that existing site into the new company. SIREN is 9 digits, SIRET 14 whose first nine are
 * the SIREN when both are given (checked by the server, code `InvalidField`).
 */
export const SocieteInputSchema = z.object({
  raisonSociale: Name,
  restaurantId: z.coerce.number().int().positive().max(INT4_MAX).optional(),
  enseigne: OptionalText,
  siren: z
    .string()
    .trim()
    .regex(/^(\d{9})?$/, '9 digits')
    .nullish()
    .transform((v) => (v ? v : null)),
  siret: z
    .string()
    .trim()
    .regex(/^(\d{14})?$/, '14 digits')
    .nullish()
    .transform((v) => (v ? v : null)),
  codeLicence: OptionalText,
  codeImplant: OptionalText,
});
export type SocieteInput = z.input<typeof SocieteInputSchema>;

/**
 * Body of POST bo/infra/newSite and saveSite?id (ours: SPEC.md §7 has no site call; the issue asks
 * to edit sites). `caisses` / `vendeurs`, when given, rename the listed terminals and sellers
 * (unknown ones are added); terminals and sellers not listed are kept.
 */
export const SiteInputSchema = z.object({
  libelle: Name,
  societeId: z.coerce.number().int().positive().max(INT4_MAX),
  codeImplant: OptionalText,
  currency: z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 code'),
  timeZone: z.string().min(1).max(64),
  dayStart: ClockTimeSchema,
  caisses: z.array(TerminalSchema).max(1000).optional(),
  vendeurs: z.array(SellerSchema).max(10_000).optional(),
});
export type SiteInput = z.input<typeof SiteInputSchema>;

// ---------------------------------------------------------------------------------------------
// Groups (regroupements)

/**
 * GET bo/infra/getRegroupements without `id`, administration use (right CONFIGURATION): every
 * group with its own sites (`restaurantIds`), added and removed companies, the names of the
 * companies it spans (`raisonsSociales`) and `sites`, the effective site ids
 * (restaurantIds + sites of societesPlus − sites of societesMoins).
 */
export const AdminRegroupementSchema = z.object({
  id: z.number().int(),
  raisonSociale: z.string(),
  raisonsSociales: z.array(z.string()),
  restaurantIds: z.array(z.number().int()),
  societesPlus: z.array(z.number().int()),
  societesMoins: z.array(z.number().int()),
  sites: z.array(z.number().int()),
});
export type AdminRegroupement = z.infer<typeof AdminRegroupementSchema>;

/** Body of POST bo/infra/newRegroupement and saveRegroupement?id. */
export const RegroupementInputSchema = z.object({
  raisonSociale: Name,
  restaurantIds: IdList.default([]),
  societesIdPlus: IdList.default([]),
  societesIdMoins: IdList.default([]),
});
export type RegroupementInput = z.input<typeof RegroupementInputSchema>;

// ---------------------------------------------------------------------------------------------
// Profiles

/** Ticket search criteria (SPEC.md §9) a profile may use on /tickets. */
export const TICKET_OPTIONS = ['cancellations', 'corrections', 'cashed', 'employeeMeals'] as const;
export type TicketOption = (typeof TICKET_OPTIONS)[number];

/**
 * GET bo/infra/getProfils — a profile (SPEC.md §3). `allSites`: every site, present and future
 * (the administrators'); `users` how many users hold it. `optionsTickets` maps each of
 * {@link TICKET_OPTIONS} to whether it is allowed; `criteres` free report criteria (key → text).
 */
export const ProfileSchema = z.object({
  id: z.number().int(),
  titre: z.string(),
  droits: z.array(z.string()),
  criteres: z.record(z.string(), z.unknown()),
  allSites: z.boolean(),
  restaurantIds: z.array(z.number().int()),
  raisonsSociales: z.array(z.string()),
  societesPlus: z.array(z.number().int()),
  societesMoins: z.array(z.number().int()),
  optionsTickets: z.record(z.string(), z.boolean()),
  profileCaisse: z.boolean(),
  users: z.number().int(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** Body of POST bo/infra/newProfile and saveProfile?id (SPEC.md §7 names). Unknown rights → 400. */
export const ProfileInputSchema = z.object({
  titre: Name,
  droits: z.array(z.string().max(64)).max(64).default([]),
  allSites: z.boolean().default(false),
  restaurantIds: IdList.default([]),
  societesIdPlus: IdList.default([]),
  societesIdMoins: IdList.default([]),
  optionsTicket: z.record(z.string(), z.boolean()).default({}),
  criteres: z.record(z.string().max(64), z.string().max(200)).default({}),
  profileCaisse: z.boolean().default(false),
});
export type ProfileInput = z.input<typeof ProfileInputSchema>;

// ---------------------------------------------------------------------------------------------
// Users

/** Theme colours of SPEC.md §9, the choices of `couleur`. */
export const THEME_COLOURS = ['primary', 'secondary', 'accent', 'error', 'info', 'warning'] as const;
/** Interface languages (SPEC.md §9). */
export const LANGUAGES = ['fr', 'en', 'de'] as const;

/**
 * A managed user (SPEC.md §3 Utilisateur) as GET bo/infra/getUtilisateurs and getUtilisateur?login
 * answer it: never a password, key or hash. `profile` is the profile id; `sites` the effective
 * site ids (profile + sites of societesPlus − sites of societesMoins, SPEC.md §6); `administrator`
 * is true when the profile holds CONFIGURATION.
 */
export const UtilisateurSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  email: z.string().nullable(),
  profile: z.number().int(),
  profileTitre: z.string(),
  active: z.boolean(),
  theme: z.string().nullable(),
  couleur: z.string().nullable(),
  societesPlus: z.array(z.number().int()),
  societesMoins: z.array(z.number().int()),
  role: z.string(),
  country: z.string().nullable(),
  language: z.string().nullable(),
  codeExploitant: z.string().nullable(),
  sites: z.array(z.number().int()),
  droits: z.array(z.string()),
  createdAt: z.string(),
});
export type Utilisateur = z.infer<typeof UtilisateurSchema>;

/**
 * One key/value extra of POST bo/infra/newUtilisateur's body (SPEC.md §3: `codeExploitant` is
 * kept as the extra `code_exploitant` of type STRING). Keys other than {@link USER_EXTRA_KEYS}
 * are refused with code `UnknownExtra` naming them.
 */
export const UserExtraSchema = z.object({
  key: z.string().max(64),
  value: z.string().max(200),
  type: z.literal('STRING').default('STRING'),
});
export const USER_EXTRA_KEYS = ['code_exploitant'] as const;

/**
 * Query of POST bo/infra/newUtilisateur (SPEC.md §7). `password` / `rePasswordKey` (its
 * confirmation) are optional: without them the user gets no usable password until they follow a
 * reset link (the administration screen sends one). Our client sends both in the body instead
 * (below) so no password travels in a URL.
 */
export const NewUtilisateurQuerySchema = z.object({
  login: z.string().trim().min(1).max(100),
  password: z.string().max(200).optional(),
  rePasswordKey: z.string().max(200).optional(),
  email: z.string().trim().max(254).optional(),
  profileId: z.coerce.number().int().positive().max(INT4_MAX),
  activationKey: z.string().max(200).optional(),
  theme: z.string().max(40).optional(),
  couleur: z.string().max(40).optional(),
  societesIdPlus: IdList.optional(),
  societesIdMoins: IdList.optional(),
  role: z.string().max(40).optional(),
  country: z.string().max(2).optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type NewUtilisateurQuery = z.input<typeof NewUtilisateurQuerySchema>;

/** Body of newUtilisateur: SPEC.md's list of extras, or ours `{ extras, password, rePasswordKey }`. */
export const NewUtilisateurBodySchema = z.union([
  z.array(UserExtraSchema).max(20),
  z.object({
    extras: z.array(UserExtraSchema).max(20).default([]),
    password: z.string().max(200).optional(),
    rePasswordKey: z.string().max(200).optional(),
  }),
]);

/**
 * Body of POST bo/infra/saveUtilisateur?id (SPEC.md §7 form fields; JSON or form-urlencoded).
 * `id` in the query is the user saved. A user saving themselves (my account) may change only
 * email, theme, couleur, language and, with `updatePassword` and `currentPassword`, their
 * password; the other fields need CONFIGURATION. `password` + `rePasswordKey` (confirmation)
 * must match and meet the password policy (contract/password.ts). `active: false` deactivates.
 */
export const SaveUtilisateurBodySchema = z.object({
  login: z.string().trim().min(1).max(100).optional(),
  email: z.string().trim().max(254).optional(),
  profileId: z.coerce.number().int().positive().max(INT4_MAX).optional(),
  activationKey: z.string().max(200).optional(),
  theme: z.string().max(40).optional(),
  couleur: z.string().max(40).optional(),
  societesIdPlus: IdList.optional(),
  societesIdMoins: IdList.optional(),
  updatePassword: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .optional(),
  password: z.string().max(200).optional(),
  rePasswordKey: z.string().max(200).optional(),
  currentPassword: z.string().max(200).optional(),
  language: z.enum(LANGUAGES).optional(),
  codeExploitant: z.string().max(100).optional(),
  active: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .optional(),
});
export type SaveUtilisateurBody = z.input<typeof SaveUtilisateurBodySchema>;

// ---------------------------------------------------------------------------------------------
// Password reset (SPEC.md §7 reinit/*, §8 userNull, expiredToken, seeUrMail)

/**
 * Body of POST reinit/reinitPassword (ours, used by our client so the password is not in a URL;
 * GET reinit/reinitPassword?email&resetPasswordKey&password of SPEC.md §7 does the same).
 */
export const ReinitPasswordBodySchema = z.object({
  email: z.string().trim().max(254),
  resetPasswordKey: z.string().min(1).max(200),
  password: z.string().max(200),
});

/** Answer of reinit/sendReinitMail and reinitPassword: the SPEC.md §8 success code. */
export const ReinitAnswerSchema = z.object({ code: z.enum(['seeUrMail', 'SuccessMod']) });

// ---------------------------------------------------------------------------------------------
// Messages from the administration

export const SEVERITIES = ['info', 'warning', 'error'] as const;

/**
 * The zone of a message's "today" for a user without sites (the chain's home, SPEC.md's French
 * default); a user with sites reads "today" in their sites' zones (server messages/user-messages.ts).
 */
export const DEFAULT_MESSAGE_TIME_ZONE = 'Europe/Paris';

/**
 * A message (GET messages/all for its targets; GET bo/infra/getMessages for administration).
 * `texts` per language (at least one); `fromDate`/`toDate` wire dates YYYY-MM-DD, inclusive;
 * `restaurantIds` / `profileIds` its targets (both empty: everyone). `text` is the text in the
 * caller's language, else French, else the first given.
 */
export const AdminMessageSchema = z.object({
  id: z.number().int(),
  texts: z.object({ fr: z.string().optional(), en: z.string().optional(), de: z.string().optional() }),
  text: z.string(),
  severity: z.enum(SEVERITIES),
  fromDate: z.string(),
  toDate: z.string(),
  restaurantIds: z.array(z.number().int()),
  profileIds: z.array(z.number().int()),
  createdAt: z.string(),
});
export type AdminMessage = z.infer<typeof AdminMessageSchema>;

/** Body of POST bo/infra/newMessage and saveMessage?id (ours). fromDate ≤ toDate. */
export const MessageInputSchema = z.object({
  texts: z.object({
    fr: z.string().trim().max(2000).optional(),
    en: z.string().trim().max(2000).optional(),
    de: z.string().trim().max(2000).optional(),
  }),
  severity: z.enum(SEVERITIES).default('info'),
  fromDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  toDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  restaurantIds: IdList.default([]),
  profileIds: IdList.default([]),
});
export type MessageInput = z.input<typeof MessageInputSchema>;

// ---------------------------------------------------------------------------------------------
// Audit log

/**
 * One entry of the audit log (GET bo/infra/getAudit, right CONFIGURATION): `action` is
 * `<kind>.<verb>` (e.g. `user.create`, `profile.save`, `user.passwordReset`); `login` the author
 * (null for an anonymous reset); `before`/`after` the changed fields; `address` the caller's IP.
 */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  login: z.string().nullable(),
  action: z.string(),
  kind: z.string().nullable(),
  targetId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** Query of GET bo/infra/getAudit: filters, newest first, `limit` ≤ 500 from `offset`. */
export const AuditQuerySchema = z.object({
  userId: z.coerce.number().int().positive().max(INT4_MAX).optional(),
  kind: z.string().max(40).optional(),
  dateDebut: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  dateFin: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const AuditAnswerSchema = z.object({ entries: z.array(AuditEntrySchema), total: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Refusals

/**
 * Error codes of administration (added to errors.ts ERROR_CODES; `details` in brackets):
 * - `LoginTaken` 409: the login exists.
 * - `InUse` 409: a profile, group or company still used (`{ users?: string[], sites?: string[], groups?: string[],
 *   profiles?: string[] }`: logins, libelles, names, titles).
 * - `LastAdministrator` 409: the change would leave no active user holding CONFIGURATION.
 * - `SelfChange` 409: an administrator removing, deactivating or demoting themselves.
 * - `UnknownExtra` 400: a newUtilisateur extra not in USER_EXTRA_KEYS (`{ keys }`).
 * - `UnknownRight` 400: a right not in RIGHTS (`{ rights }`).
 * - `PasswordPolicy` 400: the password breaks SPEC.md §5 (`{ problems: PasswordProblem[] }`).
 * - `PasswordMismatch` 400: password and confirmation differ.
 * - `WrongPassword` 400: the current password given for a change is wrong.
 * - `InvalidField` 400: a field's value is refused (`{ field }`), e.g. an e-mail, SIRET, time zone;
 *   `duplicate: true` when the name is taken (raisonSociale, libelle), `unknown: number[]` for ids
 *   that do not exist (restaurantIds, societesIdPlus…).
 * - `usedToken` 400: a reset link already used (SPEC.md §8's `expiredToken` 400 for expired ones,
 *   `userNull` 404 for an unknown user or e-mail).
 */
export const ADMIN_ERROR_CODES: readonly ErrorCode[] = [
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
] as const;
