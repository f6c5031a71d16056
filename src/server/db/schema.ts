/**
 * Drizzle schema (DESIGN.md §5). Reference data (companies, sites, users…) uses serial ids;
 * sales data (tickets, lines, payments, losses) carries `site_id` first in every primary key
 * and index and has no foreign key across sites, so these tables can be distributed by
 * `site_id` (Citus) without a schema change. Amounts are integer cents (bigint), quantities
 * numeric, business dates are fiscal dates (`date`), instants are `timestamptz`.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A company (société, raison sociale) of the chain, SPEC.md §3. */
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  raisonSociale: text('raison_sociale').notNull().unique(),
  /** Brand (enseigne) the company trades under. */
  enseigne: text('enseigne'),
  siret: text('siret'),
  /** SIREN (9 digits), the company's French register number; the SIRET's first nine digits. */
  siren: text('siren'),
  codeLicence: text('code_licence'),
  /** The company's code in the till vendor's installation (SPEC.md §3 `codeImplant`). */
  codeImplant: text('code_implant'),
});

/** A site (restaurant, shop). `id` is the wire `restaurantId`. */
export const sites = pgTable('sites', {
  id: serial('id').primaryKey(),
  libelle: text('libelle').notNull().unique(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id),
  codeImplant: text('code_implant'),
  /** IANA zone in which the site's tickets are timed, e.g. `Europe/Paris`. */
  timeZone: text('time_zone').notNull().default('Europe/Paris'),
  /** Start of the business day `HH:mm`: a ticket before it belongs to the previous fiscal date. */
  dayStart: text('day_start').notNull().default('00:00'),
  /** ISO 4217 currency of the site's amounts. */
  currency: text('currency').notNull().default('EUR'),
  extras: jsonb('extras').$type<Record<string, unknown>>().notNull().default({}),
});

/** A group of sites (regroupement), SPEC.md §3. */
export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  raisonSociale: text('raison_sociale').notNull().unique(),
  /** Companies whose sites are added to / removed from the group's sites (SPEC.md §3). */
  societesPlus: integer('societes_plus').array().notNull().default(sql`'{}'::int[]`),
  societesMoins: integer('societes_moins').array().notNull().default(sql`'{}'::int[]`),
});

export const groupSites = pgTable(
  'group_sites',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.siteId] })],
);

/** A terminal (caisse) of a site; `terminalId` is its number within the site. */
export const terminals = pgTable(
  'terminals',
  {
    siteId: integer('site_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    libelle: text('libelle').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.terminalId] })],
);

/** A seller (vendeur) of a site; `code` is the seller's code within the site. */
export const sellers = pgTable(
  'sellers',
  {
    siteId: integer('site_id').notNull(),
    code: text('code').notNull(),
    nom: text('nom').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.code] })],
);

/** A profile (rights and site scope), SPEC.md §3. */
export const profiles = pgTable('profiles', {
  id: serial('id').primaryKey(),
  titre: text('titre').notNull().unique(),
  droits: text('droits').array().notNull().default(sql`'{}'::text[]`),
  criteres: jsonb('criteres').$type<Record<string, unknown>>().notNull().default({}),
  /** When true the profile sees every site, present and future (the administrator's). */
  allSites: boolean('all_sites').notNull().default(false),
  restaurantIds: integer('restaurant_ids').array().notNull().default(sql`'{}'::int[]`),
  /** Companies whose sites are added to / removed from the scope. */
  societesPlus: integer('societes_plus').array().notNull().default(sql`'{}'::int[]`),
  societesMoins: integer('societes_moins').array().notNull().default(sql`'{}'::int[]`),
  optionsTickets: jsonb('options_tickets').$type<Record<string, unknown>>().notNull().default({}),
  profileCaisse: boolean('profile_caisse').notNull().default(false),
});

/** A user (utilisateur), SPEC.md §3. Passwords are argon2id hashes (DESIGN.md §4). */
export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  login: text('login').notNull().unique(),
  email: text('email'),
  passwordHash: text('password_hash').notNull(),
  profileId: integer('profile_id')
    .notNull()
    .references(() => profiles.id),
  role: text('role').notNull().default(''),
  currency: text('currency').notNull().default('EUR'),
  theme: text('theme'),
  couleur: text('couleur'),
  societesPlus: integer('societes_plus').array().notNull().default(sql`'{}'::int[]`),
  societesMoins: integer('societes_moins').array().notNull().default(sql`'{}'::int[]`),
  country: text('country'),
  language: text('language'),
  codeExploitant: text('code_exploitant'),
  activationKey: text('activation_key'),
  rePasswordKey: text('re_password_key'),
  /** A deactivated user cannot sign in; their sessions are revoked when deactivated (issue #18). */
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Session tokens: only the SHA-256 of the 256-bit token is stored; sliding expiry (DESIGN.md §4). */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A ticket (receipt). `kind`: SALE, RETURN (negative quantities) or CANCELLATION (a ticket that
 * cancels an earlier one, e.g. UCI invoices starting with C). Totals are sums of its lines, in
 * cents: `totalCents` incl. VAT, `totalExclCents` excl. VAT, `taxCents` the VAT.
 * `source`/`sourceRef` identify where the ticket came from (import file key and ticket value,
 * or 'demo'), so importing the same file twice changes nothing.
 */
export const tickets = pgTable(
  'tickets',
  {
    siteId: integer('site_id').notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    terminalId: integer('terminal_id'),
    sellerCode: text('seller_code'),
    kind: text('kind').$type<'SALE' | 'RETURN' | 'CANCELLATION'>().notNull().default('SALE'),
    employeeMeal: boolean('employee_meal').notNull().default(false),
    trainingMode: boolean('training_mode').notNull().default(false),
    covers: smallint('covers'),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    totalExclCents: bigint('total_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    source: text('source').notNull(),
    sourceRef: text('source_ref').notNull(),
    /**
     * For a CANCELLATION ticket, the SALE ticket of the same site it cancels, when the till (or
     * the demo) recorded it; null otherwise (imported files such as UCI's do not say which).
     */
    cancelsTicketId: bigint('cancels_ticket_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.ticketId] }),
    index('tickets_site_date_idx').on(t.siteId, t.fiscalDate),
    uniqueIndex('tickets_site_source_ref_idx').on(t.siteId, t.source, t.sourceRef),
    // "Cancelled by" on a sale's page: a probe, over the few cancellation tickets only.
    index('tickets_site_cancels_idx')
      .on(t.siteId, t.cancelsTicketId)
      .where(sql`cancels_ticket_id IS NOT NULL`),
  ],
);

/**
 * A ticket line. `amountCents` incl. VAT (negative for returns and cancellations),
 * `vatRate` a fraction (0.2 = 20 %). `corrected` marks a line voided after being rung up
 * (a correction, SPEC.md §9 ticket criteria); corrected lines carry zero amounts.
 */
export const ticketLines = pgTable(
  'ticket_lines',
  {
    siteId: integer('site_id').notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    lineNo: integer('line_no').notNull(),
    articleCode: text('article_code'),
    article: text('article').notNull(),
    family: text('family'),
    quantity: numeric('quantity', { precision: 14, scale: 3 }).notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    vatRate: numeric('vat_rate', { precision: 6, scale: 4 }).notNull(),
    amountExclCents: bigint('amount_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    corrected: boolean('corrected').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.ticketId, t.lineNo] })],
);

/** A payment of a ticket, in cents. `method`: CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER. */
export const payments = pgTable(
  'payments',
  {
    siteId: integer('site_id').notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
    paymentNo: smallint('payment_no').notNull(),
    method: text('method').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.ticketId, t.paymentNo] })],
);

/** A declared loss (SPEC.md §9 types CUSTOM, LOSS, REMADE, DEGRADED), amount in cents. */
export const losses = pgTable(
  'losses',
  {
    siteId: integer('site_id').notNull(),
    lossId: bigint('loss_id', { mode: 'number' }).notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    type: text('type').$type<'CUSTOM' | 'LOSS' | 'REMADE' | 'DEGRADED'>().notNull(),
    article: text('article').notNull(),
    family: text('family'),
    quantity: numeric('quantity', { precision: 14, scale: 3 }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.lossId] }),
    index('losses_site_date_idx').on(t.siteId, t.fiscalDate),
  ],
);

/**
 * Daily sales per site, kept up to date by every load (demo generator, import) in the same
 * transaction, so the sales report of a year reads ~365 rows per site instead of every ticket.
 * `tickets` counts SALE tickets; amounts include returns and cancellations (negative).
 */
export const dailySales = pgTable(
  'daily_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    tickets: integer('tickets').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate] })],
);

/**
 * Audit log of sensitive operations (who, when, what, before → after, from where). No operation
 * empties it (DESIGN.md §5) and a trigger refuses UPDATE and DELETE (migration 0009): rows are
 * only ever added, in the transaction of the change they record (issue #18).
 * `action` is `<kind>.<verb>` (e.g. `user.create`); `kind` its first part; `targetId` the id of
 * the changed row as text; `before`/`after` the row's fields before and after (null on create /
 * delete); `address` the caller's IP address.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    kind: text('kind'),
    targetId: text('target_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    address: text('address'),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_user_idx').on(t.userId, t.at)],
);

/** Ticket ids, unique across sites so loads never collide; bulk loads reserve blocks with nextval. */
export const ticketIdSeq = pgSequence('ticket_id_seq');
/** Loss ids. */
export const lossIdSeq = pgSequence('loss_id_seq');
