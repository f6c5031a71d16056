/**
 * Partner integrations (issue #29 "Integrations", decision 0044): the wire shapes of the
 * `bo/integrations/...` calls and the vocabulary both sides share. Adoria and Easilys take each
 * site's daily sales by article; e-cash and consolidations take each site's daily totals by
 * payment method. Amounts on the wire are cents; in the files, units with two decimals.
 */
import { INT4_MAX } from './integers.ts';
import { z } from 'zod';

/** The four partners, as in the screen paths (`/config/<partner>`). */
export const PARTNERS = ['adoria', 'easilys', 'ecash', 'consolidations'] as const;
/** One partner. */
export type Partner = (typeof PARTNERS)[number];

/** What a partner takes: sales by article or totals by payment method. */
export const PARTNER_DATA: Record<Partner, 'articles' | 'payments'> = {
  adoria: 'articles',
  easilys: 'articles',
  ecash: 'payments',
  consolidations: 'payments',
};

/** Fields of a day's sales by article (one line per site, day, article, family and VAT rate). */
export const ARTICLE_FIELDS = [
  'siteCode',
  'site',
  'date',
  'articleCode',
  'article',
  'family',
  'vatRate',
  'quantity',
  'net',
  'netExcl',
  'tax',
] as const;
/**
 * Fields of a day's totals by payment method (one line per site, day and method); `tickets` is
 * the number of tickets holding at least one payment of that method.
 */
export const PAYMENT_FIELDS = [
  'siteCode',
  'site',
  'date',
  'method',
  'payments',
  'amount',
  'tickets',
] as const;
/** Any field a column may show. */
export type IntegrationField = (typeof ARTICLE_FIELDS)[number] | (typeof PAYMENT_FIELDS)[number];
/** Fields that are amounts in cents (written as units with two decimals). */
export const AMOUNT_FIELDS: readonly IntegrationField[] = ['net', 'netExcl', 'tax', 'amount'];

/** Date formats a file may use. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'YYYYMMDD'] as const;
/** Encodings a file may use. */
export const ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-1'] as const;

/**
 * One column: the field it shows and the name the partner wants in the header. The name is
 * checked on the server (`layoutProblems`, src/server/integrations/layout.ts): not empty, unique,
 * without the separator, a quote or a line break; a refusal names the column (details.index).
 */
export const ColumnSchema = z.object({
  champ: z.enum([...new Set([...ARTICLE_FIELDS, ...PAYMENT_FIELDS])] as [
    IntegrationField,
    ...IntegrationField[],
  ]),
  nom: z.string().max(60),
});

/** Why a column is refused (400 InvalidField, details.field `colonnes`, details.index, details.reason). */
export const COLUMN_PROBLEMS = ['UnknownField', 'EmptyName', 'DuplicateName', 'BadName'] as const;
/** Why a column is refused. */
export type ColumnProblem = (typeof COLUMN_PROBLEMS)[number];

/**
 * The file layout. `nomFichier` is a pattern: `{partenaire}`, `{site}` (site code, else id),
 * `{date}` (YYYYMMDD) are replaced; the result may hold only letters, digits, `._-`.
 */
export const LayoutSchema = z.object({
  colonnes: z.array(ColumnSchema).min(1).max(30),
  separateur: z.enum([';', ',', '\t', '|']),
  virguleDecimale: z.boolean(),
  encodage: z.enum(ENCODINGS),
  entete: z.boolean(),
  formatDate: z.enum(DATE_FORMATS),
  nomFichier: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9._{}-]+$/, 'letters, digits, . _ - and {partenaire} {site} {date} only'),
});
/** The file layout. */
export type Layout = z.infer<typeof LayoutSchema>;

/**
 * A header sent to an HTTPS endpoint. A `secret` header's value is stored only encrypted
 * (AES-256-GCM, COMPTOIR_SECRET_KEY) and never answered: the answer has no `valeur` for it, and a
 * save without `valeur` keeps the stored one of that name. Names are RFC 9110 tokens, checked on
 * the server (`headerProblems`, src/server/integrations/destination.ts) with field-level reasons.
 */
export const HeaderSchema = z.object({
  nom: z.string().max(100),
  /** The value; absent on a secret header in an answer, or in a save that keeps the stored one. */
  valeur: z.string().max(2000).optional(),
  secret: z.boolean().default(false),
});
/** A header sent to an HTTPS endpoint. */
export type Header = z.output<typeof HeaderSchema>;

/** Why a header is refused (400 InvalidField, details.field `entetes`, details.index, details.reason). */
export const HEADER_PROBLEMS = [
  'BadName',
  'ReservedName',
  'DuplicateName',
  'BadValue',
  'MissingValue',
] as const;
/** Why a header is refused. */
export type HeaderProblem = (typeof HEADER_PROBLEMS)[number];

/** Where the files go: a folder under DATA_DIR/exports/, or an HTTPS endpoint. */
export const DestinationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('folder'), dossier: z.string().min(1).max(200) }),
  z.object({
    type: z.literal('https'),
    url: z.string().url().max(2000),
    methode: z.enum(['POST', 'PUT']),
    /** Headers sent with each file; secret ones answered without their value. */
    entetes: z.array(HeaderSchema).max(20).default([]),
  }),
]);
/** Where the files go. */
export type Destination = z.infer<typeof DestinationSchema>;

/** An integration as the screen shows it; credentials are never sent back, only whether some are set. */
export const IntegrationSchema = z.object({
  partenaire: z.enum(PARTNERS),
  actif: z.boolean(),
  sites: z.array(z.number().int()),
  regleId: z.number().int().nullable(),
  destination: DestinationSchema,
  /** Whether secret header values are stored (encrypted). */
  identifiantsEnregistres: z.boolean(),
  mise: LayoutSchema,
});
/** An integration as the screen shows it. */
export type Integration = z.output<typeof IntegrationSchema>;

/**
 * POST bo/integrations/save body. Secret headers are the `destination.entetes` marked `secret`:
 * with a `valeur` it replaces the stored one, without it keeps the stored value of that name; a
 * secret header left out of the list is removed.
 */
export const IntegrationSaveBodySchema = z.object({
  partenaire: z.enum(PARTNERS),
  actif: z.boolean(),
  sites: z.array(z.number().int().positive().max(INT4_MAX)).max(10_000),
  regleId: z.number().int().positive().max(INT4_MAX).nullable(),
  destination: DestinationSchema,
  mise: LayoutSchema,
});

/** POST bo/integrations/runNow body: a day (default: yesterday), a test file, or send again. */
export const IntegrationRunNowBodySchema = z.object({
  partenaire: z.enum(PARTNERS),
  dateFiscale: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  test: z.boolean().default(false),
  renvoyer: z.boolean().default(false),
});

/** One delivery in the history: a site-day sent (or failing) to the destination; `le` ISO 8601 UTC. */
export const IntegrationDeliverySchema = z.object({
  siteId: z.number().int(),
  dateFiscale: z.string(),
  statut: z.enum(['SENT', 'FAILED']),
  fichier: z.string(),
  octets: z.number().int().min(0),
  tentatives: z.number().int().min(1),
  erreur: z.string().nullable(),
  le: z.string(),
});
/** One delivery in the history. */
export type IntegrationDelivery = z.output<typeof IntegrationDeliverySchema>;

/**
 * One run of the partner's job (job_runs): `statut` queued, running, retrying (a try failed,
 * another follows with backoff), succeeded or failed (no try left; `erreur` says why).
 */
export const IntegrationRunSchema = z.object({
  planifie: z.string(),
  termine: z.string().nullable(),
  statut: z.enum(['queued', 'running', 'succeeded', 'failed', 'retrying']),
  tentatives: z.number().int().min(0),
  /** The fiscal date asked, or null for the day before the run in each site's zone. */
  dateFiscale: z.string().nullable(),
  test: z.boolean(),
  fichiers: z.array(z.object({ nom: z.string(), octets: z.number().int().min(0) })),
  erreur: z.string().nullable(),
});
/** One run of the partner's job. */
export type IntegrationRun = z.output<typeof IntegrationRunSchema>;

/** GET bo/integrations/runs answer: the last runs and deliveries, newest first. */
export const IntegrationRunsAnswerSchema = z.object({
  executions: z.array(IntegrationRunSchema),
  livraisons: z.array(IntegrationDeliverySchema),
});

/** POST bo/integrations/runNow answer: the queued run's id (null: the same run is queued already). */
export const IntegrationRunNowAnswerSchema = z.object({ runId: z.string().nullable() });

/**
 * POST bo/integrations/preview body: the layout being edited, for the first of `sites` within
 * the caller's scope (else the first site of the scope) on `dateFiscale` (default: the last day
 * with sales of that site). Reads only.
 */
export const IntegrationPreviewBodySchema = z.object({
  partenaire: z.enum(PARTNERS),
  sites: z.array(z.number().int().positive().max(INT4_MAX)).max(10_000),
  mise: LayoutSchema,
  dateFiscale: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

/**
 * POST bo/integrations/preview answer: the first lines of the file as it would be sent (decoded
 * from its encoding, header included), its name and how many lines it has in all. `siteId` and
 * `dateFiscale` are null when the scope holds no site.
 */
export const IntegrationPreviewAnswerSchema = z.object({
  siteId: z.number().int().nullable(),
  dateFiscale: z.string().nullable(),
  fichier: z.string(),
  lignes: z.array(z.string()),
  totalLignes: z.number().int().min(0),
});
/** POST bo/integrations/preview answer. */
export type IntegrationPreview = z.output<typeof IntegrationPreviewAnswerSchema>;
