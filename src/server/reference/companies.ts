/**
 * The brands (enseignes) and companies (raison sociale, SIRET) behind a user's sites: GET
 * bo/getEnseignes and bo/getSirets (SPEC.md §3). Only companies running a site of the scope
 * appear, each with those of its sites only (SPEC.md §6).
 */
import type { z } from 'zod';
import type { EnseigneSchema, SiretSchema } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';

/** A brand and the sites of the scope trading under it (GET bo/getEnseignes). */
export type Brand = z.infer<typeof EnseigneSchema>;
/** A company, its SIRET (null when unknown) and the sites of the scope it runs (GET bo/getSirets). */
export type Company = z.infer<typeof SiretSchema>;

/**
 * The brands of the sites `siteIds`, by name. A company without a brand trades under its
 * raison sociale; companies sharing a brand make one entry, whose id is the least company id.
 */
export async function listBrands(db: Queryable, siteIds: readonly number[]): Promise<Brand[]> {
  const { rows } = await db.query<{ id: number; libelle: string; restaurant_ids: number[] }>(
    `SELECT min(c.id) AS id, coalesce(c.enseigne, c.raison_sociale) AS libelle,
          array_agg(s.id ORDER BY s.id) AS restaurant_ids
     FROM sites s JOIN companies c ON c.id = s.company_id
    WHERE s.id = ANY($1) GROUP BY 2 ORDER BY 2`,
    [siteIds],
  );
  return rows.map((r) => ({ id: r.id, libelle: r.libelle, restaurantIds: r.restaurant_ids }));
}

/** The companies running the sites `siteIds`, by raison sociale. */
export async function listCompanies(db: Queryable, siteIds: readonly number[]): Promise<Company[]> {
  const { rows } = await db.query<{
    id: number;
    siret: string | null;
    raison_sociale: string;
    restaurant_ids: number[];
  }>(
    `SELECT c.id, c.siret, c.raison_sociale, array_agg(s.id ORDER BY s.id) AS restaurant_ids
     FROM sites s JOIN companies c ON c.id = s.company_id
    WHERE s.id = ANY($1) GROUP BY c.id ORDER BY c.raison_sociale`,
    [siteIds],
  );
  return rows.map((r) => ({
    id: r.id,
    siret: r.siret,
    raisonSociale: r.raison_sociale,
    restaurantIds: r.restaurant_ids,
  }));
}
