/**
 * What the partners take for one site and fiscal date (issue #29, decision 0044), read as the
 * reports read it so the files' totals equal the reports' to the cent: totals by payment method
 * from `daily_payment_sales` (as the payments report and the Z report), sales by article from the
 * ticket lines with the selection of db/aggregates.ts (training tickets left out; RETURN and
 * CANCELLATION lines negative), whose sums per family are `daily_family_sales`.
 */
import type { IntegrationField } from '../../contract/integrations.ts';
import type { Queryable } from '../db/queryable.ts';

/** One line of a file: field → value (cents for amounts, a fraction for the VAT rate). */
export type DataRow = Partial<Record<IntegrationField, string | number | null>>;

/** A site as the files name it. */
export interface DataSite {
  id: number;
  libelle: string;
  code: string | null;
  timeZone: string;
}

/** The sites `ids`, by id. */
export async function dataSites(db: Queryable, ids: readonly number[]): Promise<DataSite[]> {
  const { rows } = await db.query<DataSite>(
    `SELECT id, libelle, code_implant AS code, time_zone AS "timeZone" FROM sites WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

/**
 * Totals by payment method of `site` on `day` (YYYY-MM-DD), by method. Amounts in cents; `tickets`
 * counts the tickets of the same selection (training left out) paid at least partly by the method.
 */
export async function paymentRows(db: Queryable, site: DataSite, day: string): Promise<DataRow[]> {
  const { rows } = await db.query<{ method: string; payments: number; amount: string; tickets: number }>(
    `SELECT d.method, d.payments, d.amount_cents::text AS amount,
            (SELECT count(DISTINCT p.ticket_id)::int
               FROM tickets t JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
              WHERE t.site_id = d.site_id AND t.fiscal_date = d.fiscal_date AND NOT t.training_mode
                AND p.method = d.method) AS tickets
       FROM daily_payment_sales d
      WHERE d.site_id = $1 AND d.fiscal_date = $2::date ORDER BY d.method`,
    [site.id, day],
  );
  return rows.map((r) => ({
    siteCode: site.code ?? String(site.id),
    site: site.libelle,
    date: day,
    method: r.method,
    payments: r.payments,
    amount: Number(r.amount),
    tickets: r.tickets,
  }));
}

/** Sales by article of `site` on `day`, by article code, name, family and VAT rate. Amounts in cents. */
export async function articleRows(db: Queryable, site: DataSite, day: string): Promise<DataRow[]> {
  const { rows } = await db.query<{
    code: string | null;
    article: string;
    family: string | null;
    rate: string;
    quantity: string;
    net: string;
    excl: string;
    tax: string;
  }>(
    `SELECT l.article_code AS code, l.article, l.family, l.vat_rate::text AS rate,
            coalesce(sum(l.quantity) FILTER (WHERE NOT l.corrected), 0)::text AS quantity,
            sum(l.amount_cents)::text AS net, sum(l.amount_excl_cents)::text AS excl, sum(l.tax_cents)::text AS tax
       FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
      WHERE t.site_id = $1 AND t.fiscal_date = $2::date AND NOT t.training_mode
      GROUP BY 1, 2, 3, 4
      ORDER BY 1 NULLS LAST, 2, 3 NULLS LAST, 4`,
    [site.id, day],
  );
  return rows.map((r) => ({
    siteCode: site.code ?? String(site.id),
    site: site.libelle,
    date: day,
    articleCode: r.code,
    article: r.article,
    family: r.family,
    vatRate: Number(r.rate),
    quantity: r.quantity,
    net: Number(r.net),
    netExcl: Number(r.excl),
    tax: Number(r.tax),
  }));
}
