/** The sellers (vendeurs) of a user's sites, as GET bo/getVendeurs answers them (SPEC.md §3, §7). */
import type { z } from 'zod';
import type { Seller, VendeursAnswerSchema } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';

/** Sellers keyed by restaurantId (as a string): the site's id and name, its sellers by name then code. */
export type SellersBySite = z.infer<typeof VendeursAnswerSchema>;

/** The sellers of each site of `siteIds`; a site without a seller is listed with none. */
export async function sellersBySite(db: Queryable, siteIds: readonly number[]): Promise<SellersBySite> {
  const { rows } = await db.query<{ id: number; libelle: string; vendeurs: Seller[] }>(
    `SELECT s.id, s.libelle,
          coalesce(json_agg(json_build_object('code', v.code, 'nom', v.nom) ORDER BY v.nom, v.code)
            FILTER (WHERE v.code IS NOT NULL), '[]') AS vendeurs
     FROM sites s LEFT JOIN sellers v ON v.site_id = s.id
    WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
    [siteIds],
  );
  return Object.fromEntries(
    rows.map((r) => [
      String(r.id),
      { site: { restaurantId: r.id, libelle: r.libelle }, vendeurs: r.vendeurs },
    ]),
  );
}
