/**
 * Manager receipts (SPEC.md §7 bo/documentsManager/*; /analyses/recuManagers, /recus): a manager
 * acknowledges money received from a seller. A receipt belongs to one site and fiscal date; an
 * update replaces its content and raises its `version`, the previous content going to the audit
 * log in the same transaction (DESIGN.md §5: nothing fiscal is silently lost). Amounts in cents.
 */
import type { Receipt, ReceiptComplements } from '../../contract/counting.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { iso } from './instants.ts';

/** A row of `manager_receipts`. */
interface ReceiptRow {
  site_id: number;
  id: number;
  fiscal_date: string;
  seller_code: string;
  seller_name: string;
  manager_code: string;
  manager_name: string;
  complements: { montantCents: number; motif: string; commentaire: string };
  version: number;
  created_by: number;
  created_by_login: string;
  created_at: Date;
  updated_at: Date;
}

/** A stored row as the API answers it. */
function toReceipt(r: ReceiptRow): Receipt {
  return {
    id: r.id,
    restaurantId: r.site_id,
    dateFiscale: r.fiscal_date,
    numVendeur: r.seller_code,
    libVendeur: r.seller_name,
    codeManager: r.manager_code,
    nomManager: r.manager_name,
    complements: r.complements,
    version: r.version,
    createdBy: { userId: r.created_by, login: r.created_by_login },
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** Which receipts to read: sites and fiscal dates (both ends included), optionally narrowed. */
export interface ReceiptFilter {
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  /** Only these fiscal dates (inside the range); null or absent for every date of the range. */
  fiscalDates?: readonly string[] | null;
  /** Only the receipts of these seller codes; empty or absent for every seller. */
  sellers?: readonly string[];
  /** Order sites by name (the report) rather than by id (the API). */
  bySiteName?: boolean;
}

/**
 * Receipts matching `filter`, in their current version, by fiscal date, site (id, or name then
 * id with `bySiteName`), then receipt id. Read by readRecusManager and the receipts report.
 */
export async function receipts(db: Queryable, filter: ReceiptFilter): Promise<Receipt[]> {
  const { rows } = await db.query<ReceiptRow>(
    `SELECT r.* FROM manager_receipts r JOIN sites s ON s.id = r.site_id
      WHERE r.site_id = ANY($1::int[]) AND r.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR r.fiscal_date = ANY($4::date[]))
        AND (cardinality($5::text[]) = 0 OR r.seller_code = ANY($5::text[]))
      ORDER BY r.fiscal_date, CASE WHEN $6::boolean THEN s.libelle END, r.site_id, r.id`,
    [
      filter.siteIds,
      filter.dateDebut,
      filter.dateFin,
      filter.fiscalDates ?? null,
      filter.sellers ?? [],
      filter.bySiteName ?? false,
    ],
  );
  return rows.map(toReceipt);
}

/**
 * Receipt `id` when its site is in `siteIds`.
 * @throws DomainError notFound `NotFound` otherwise (same answer for one that does not exist).
 */
export async function receiptById(db: Queryable, id: number, siteIds: readonly number[]): Promise<Receipt> {
  const { rows } = await db.query<ReceiptRow>(
    'SELECT * FROM manager_receipts WHERE id = $1 AND site_id = ANY($2)',
    [id, siteIds],
  );
  if (!rows[0]) throw new DomainError('notFound', 'NotFound', 'no such receipt in your scope');
  return toReceipt(rows[0]);
}

/** What a receipt says: its site and fiscal date, the seller and manager, and its complements. */
export interface ReceiptContent {
  site: number;
  fiscalDate: string;
  sellerCode: string;
  sellerName: string;
  managerCode: string;
  managerName: string;
  complements: ReceiptComplements;
}

/** Who writes a receipt: the signed-in user. */
export interface ReceiptWriter {
  userId: number;
  login: string;
}

/** Creates a receipt (version 1) written by `writer`. */
export async function createReceipt(
  db: Queryable,
  content: ReceiptContent,
  writer: ReceiptWriter,
): Promise<Receipt> {
  const { rows } = await db.query<ReceiptRow>(
    `INSERT INTO manager_receipts (site_id, fiscal_date, seller_code, seller_name, manager_code, manager_name,
       complements, created_by, created_by_login, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8) RETURNING *`,
    [
      content.site,
      content.fiscalDate,
      content.sellerCode,
      content.sellerName,
      content.managerCode,
      content.managerName,
      content.complements,
      writer.userId,
      writer.login,
    ],
  );
  return toReceipt(rows[0]!);
}

/**
 * Replaces the content of receipt `id` (a receipt of `siteIds`) and raises its version; the
 * previous content goes to the audit log. `db` must be a transaction (the receipt is locked
 * until it ends). A `fiscalDate` of null keeps the receipt's own.
 * @throws DomainError notFound `NotFound` when there is no such receipt in `siteIds`.
 */
export async function updateReceipt(
  db: Queryable,
  id: number,
  siteIds: readonly number[],
  content: Omit<ReceiptContent, 'fiscalDate' | 'site'> & { fiscalDate: string | null; site: number | null },
  writer: ReceiptWriter,
): Promise<Receipt> {
  const { rows: found } = await db.query<ReceiptRow>(
    'SELECT * FROM manager_receipts WHERE id = $1 AND site_id = ANY($2) FOR UPDATE',
    [id, siteIds],
  );
  const current = found[0];
  if (!current) throw new DomainError('notFound', 'NotFound', 'no such receipt in your scope');
  await db.query(
    `INSERT INTO audit_log (user_id, action, detail) VALUES ($1, 'manager_receipt.update', $2)`,
    [writer.userId, { previous: toReceipt(current) }],
  );
  const { rows } = await db.query<ReceiptRow>(
    `UPDATE manager_receipts SET site_id = $3, fiscal_date = $4, seller_code = $5, seller_name = $6,
       manager_code = $7, manager_name = $8, complements = $9, version = version + 1,
       updated_by = $10, updated_at = now()
     WHERE site_id = $1 AND id = $2 RETURNING *`,
    [
      current.site_id,
      current.id,
      content.site ?? current.site_id,
      content.fiscalDate ?? current.fiscal_date,
      content.sellerCode,
      content.sellerName,
      content.managerCode,
      content.managerName,
      content.complements,
      writer.userId,
    ],
  );
  return toReceipt(rows[0]!);
}
