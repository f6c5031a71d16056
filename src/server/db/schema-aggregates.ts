/**
 * Per-day aggregates of the sales data (DESIGN.md §5, issue #4 point 8), beside `daily_sales`
 * (schema.ts): one row per site, fiscal date and breakdown key, so a report of a year for a
 * whole chain groups a few thousand rows instead of reading a million ticket lines.
 *
 * Every table is rebuilt for a site and a range of fiscal dates by `refreshDailySales`
 * (aggregates.ts), which every load (demo generator, CSV import) calls inside its own
 * transaction: readers never see tickets without their aggregates or the reverse.
 *
 * Common rules (the very rules of the reports that read them, sales.ts and the analyses):
 * training-mode tickets are left out; amounts are integer cents summing every ticket, RETURN and
 * CANCELLATION tickets counting negatively; `tickets` counts SALE tickets only. A breakdown key
 * that may be missing in the source (family, terminal, seller) is nullable, so those tables key
 * on a `NULLS NOT DISTINCT` unique constraint (site_id first) instead of a primary key.
 *
 * `discount_cents` (migration 0011), where a discount has a meaning (the site's day in
 * `daily_ticket_stats`, hours, terminals, sellers, families — not VAT rates or payments): what
 * the discount lines gave away, a positive amount in cents incl. VAT. A discount line is a kept
 * line whose amount runs against its ticket — negative on a SALE (the POS "Remise …" lines),
 * positive on a RETURN or CANCELLATION, where it takes back the discount of the ticket it undoes —
 * and the figure is −Σ of those amounts, so a cancelled sale's discount nets out like its sales.
 */
import {
  bigint,
  date,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * Per site, fiscal date and local hour (0–23, the hour of the site's own clock at which the
 * ticket was opened, read with the site's time zone at load time).
 */
export const dailyHourSales = pgTable(
  'daily_hour_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    hour: smallint('hour').notNull(),
    tickets: integer('tickets').notNull(),
    /** Sum of `tickets.covers` (a cancelled table's negative covers net out). */
    covers: integer('covers').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    /** What discount lines gave away, cents incl. VAT, positive (see the module comment). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate, t.hour] })],
);

/** Per site, fiscal date and terminal number (null: tickets without a terminal). */
export const dailyTerminalSales = pgTable(
  'daily_terminal_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    terminalId: integer('terminal_id'),
    tickets: integer('tickets').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    /** What discount lines gave away, cents incl. VAT, positive (see the module comment). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('daily_terminal_sales_key').on(t.siteId, t.fiscalDate, t.terminalId).nullsNotDistinct()],
);

/** Per site, fiscal date and seller code (null: tickets without a seller). */
export const dailySellerSales = pgTable(
  'daily_seller_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    sellerCode: text('seller_code'),
    tickets: integer('tickets').notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    /** What discount lines gave away, cents incl. VAT, positive (see the module comment). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('daily_seller_sales_key').on(t.siteId, t.fiscalDate, t.sellerCode).nullsNotDistinct()],
);

/**
 * Per site, fiscal date and product family of the ticket lines (null: lines without a family).
 * `quantity` sums the lines that were not voided (a corrected line was not sold).
 */
export const dailyFamilySales = pgTable(
  'daily_family_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    family: text('family'),
    quantity: numeric('quantity', { precision: 16, scale: 3 }).notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    /** What discount lines gave away, cents incl. VAT, positive (see the module comment). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('daily_family_sales_key').on(t.siteId, t.fiscalDate, t.family).nullsNotDistinct()],
);

/**
 * Per site, fiscal date and VAT rate (a fraction, 0.2 = 20 %) of the ticket lines. A rate whose
 * lines were all voided still has its row (zero amounts). `keptLines` counts the lines not
 * voided; `correctedLines` the voided ones and `correctedCents` what they would have cost
 * (Σ round(quantity × unit price)), as the Z report reads them.
 */
export const dailyVatSales = pgTable(
  'daily_vat_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    vatRate: numeric('vat_rate', { precision: 6, scale: 4 }).notNull(),
    netCents: bigint('net_cents', { mode: 'number' }).notNull(),
    netExclCents: bigint('net_excl_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    keptLines: integer('kept_lines').notNull(),
    correctedLines: integer('corrected_lines').notNull(),
    correctedCents: bigint('corrected_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate, t.vatRate] })],
);

/**
 * Per site, fiscal date and payment method as stored (CASH, CARD, …): number of payments and
 * their amount (refunds of returns and cancellations negative).
 */
export const dailyPaymentSales = pgTable(
  'daily_payment_sales',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    method: text('method').notNull(),
    payments: integer('payments').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate, t.method] })],
);

/**
 * Per site and fiscal date, what the covers and Z reports need beyond `daily_sales`: covers and
 * the sales of the tickets carrying covers, cancellations (count, and amount taken back shown
 * positive), employee meals (count, amount), and the instants of the first and last ticket.
 */
export const dailyTicketStats = pgTable(
  'daily_ticket_stats',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    covers: integer('covers').notNull(),
    coveredCents: bigint('covered_cents', { mode: 'number' }).notNull(),
    cancellations: integer('cancellations').notNull(),
    cancelledCents: bigint('cancelled_cents', { mode: 'number' }).notNull(),
    employeeMeals: integer('employee_meals').notNull(),
    employeeMealCents: bigint('employee_meal_cents', { mode: 'number' }).notNull(),
    /** What discount lines gave away, cents incl. VAT, positive (see the module comment). */
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    firstOpenedAt: timestamp('first_opened_at', { withTimezone: true }).notNull(),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.fiscalDate] })],
);

/**
 * Per site, fiscal date, terminal and seller (null: none on the ticket), the lines voided
 * before payment (`ticket_lines.corrected`): how many, their quantity, what they would have
 * cost (`round(quantity × unit_price_cents)` summed, cents), and the distinct articles voided in
 * alphabetical order. Only groups that voided something have a row. The corrections and
 * cancellations reports of whole days read it instead of every line of the period.
 */
export const dailyCorrections = pgTable(
  'daily_corrections',
  {
    siteId: integer('site_id').notNull(),
    fiscalDate: date('fiscal_date').notNull(),
    terminalId: integer('terminal_id'),
    sellerCode: text('seller_code'),
    lines: integer('lines').notNull(),
    quantity: numeric('quantity', { precision: 16, scale: 3 }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    articles: text('articles').array().notNull(),
  },
  (t) => [
    unique('daily_corrections_key').on(t.siteId, t.fiscalDate, t.terminalId, t.sellerCode).nullsNotDistinct(),
  ],
);
