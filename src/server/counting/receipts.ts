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
 * Receipt `id` of one of `siteIds`, locked until the transaction ends; null when there is none.
 * Its site is found first, then the row locked on that site alone: on a Citus cluster a
 * `FOR UPDATE` must reach one shard (`site_id = …`), not every site of a scope (decision record
 * 0042, 2026-12-07). A receipt moved meanwhile is looked for again (three times at most).
 */
async function lockReceipt(
  db: Queryable,
  id: number,
  siteIds: readonly number[],
): Promise<ReceiptRow | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { rows: found } = await db.query<{ site_id: number }>(
      'SELECT site_id FROM manager_receipts WHERE id = $1 AND site_id = ANY($2)',
      [id, siteIds],
    );
    if (found.length === 0) return null;
    const { rows } = await db.query<ReceiptRow>(
      'SELECT * FROM manager_receipts WHERE site_id = $1 AND id = $2 FOR UPDATE',
      [found[0]!.site_id, id],
    );
    if (rows[0]) return rows[0];
  }
  return null;
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
  const current = await lockReceipt(db, id, siteIds);
  if (!current) throw new DomainError('notFound', 'NotFound', 'no such receipt in your scope');
  await db.query(
    `INSERT INTO audit_log (user_id, action, detail) VALUES ($1, 'manager_receipt.update', $2)`,
    [writer.userId, { previous: toReceipt(current) }],
  );
  const site = content.site ?? current.site_id;
  const fields = [
    content.fiscalDate ?? current.fiscal_date,
    content.sellerCode,
    content.sellerName,
    content.managerCode,
    content.managerName,
    content.complements,
    writer.userId,
  ];
  const { rows } =
    site === current.site_id
      ? await db.query<ReceiptRow>(
          `UPDATE manager_receipts SET fiscal_date = $3, seller_code = $4, seller_name = $5,
             manager_code = $6, manager_name = $7, complements = $8, version = version + 1,
             updated_by = $9, updated_at = now()
           WHERE site_id = $1 AND id = $2 RETURNING *`,
          [current.site_id, current.id, ...fields],
        )
      : await moveReceipt(db, current, site, fields);
  return toReceipt(rows[0]!);
}

/**
 * Moves receipt `current` to site `site` with its new `fields` (fiscal date, seller code and
 * name, manager code and name, complements, writer's user id: $3–$9 of the update above): the
 * row is deleted and inserted again in the caller's transaction, with the same id, its author
 * and creation time, and the next version. `manager_receipts` is distributed by `site_id` on a
 * Citus cluster, which refuses an UPDATE of the distribution column ("modifying the partition
 * value of rows is not allowed"); the same two statements run on plain PostgreSQL (decision
 * record 0042, 2026-12-07). Nothing references a receipt's row (the audit log names its id).
 */
async function moveReceipt(
  db: Queryable,
  current: ReceiptRow,
  site: number,
  fields: unknown[],
): Promise<{ rows: ReceiptRow[] }> {
  await db.query('DELETE FROM manager_receipts WHERE site_id = $1 AND id = $2', [
    current.site_id,
    current.id,
  ]);
  return db.query<ReceiptRow>(
    `INSERT INTO manager_receipts (site_id, id, fiscal_date, seller_code, seller_name, manager_code, manager_name,
       complements, updated_by, version, created_by, created_by_login, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now()) RETURNING *`,
    [
      site,
      current.id,
      ...fields,
      current.version + 1,
      current.created_by,
      current.created_by_login,
      current.created_at,
    ],
  );
}
