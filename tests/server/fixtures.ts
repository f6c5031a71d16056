/**
 * A small chain for server tests, inserted straight into the tables: two companies, four sites,
 * two groups, terminals, sellers and a few days of daily sales. Ids come back by name.
 */
import type pg from 'pg';

export interface Chain {
  companies: { alpha: number; beta: number };
  sites: { paris: number; lyon: number; nantes: number; lille: number };
  groups: { nord: number; ouest: number };
}

async function insertId(pool: pg.Pool, text: string, values: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(`${text} RETURNING id`, values);
  return rows[0]!.id;
}

/**
 * Inserts the chain:
 * - Alpha SAS (brand Alpha, SIRET 12345678900011): Paris (P01, 2 terminals, 2 sellers), Lyon (1 seller)
 * - Beta SARL (no brand, no SIRET): Nantes (1 terminal), Lille (extras.region = Nord)
 * - groups Nord = {Paris, Lille}, Ouest = {Nantes}
 * - daily sales: Paris 2026-03-01 10 tickets 150.00, 2026-03-02 20 tickets 300.50;
 *   Lyon 2026-03-02 5 tickets 50.00; Nantes 2026-03-02 1 ticket 9.99.
 */
export async function seedChain(pool: pg.Pool): Promise<Chain> {
  const alpha = await insertId(
    pool,
    `INSERT INTO companies (raison_sociale, enseigne, siret) VALUES ('Alpha SAS', 'Alpha', '12345678900011')`,
    [],
  );
  const beta = await insertId(pool, `INSERT INTO companies (raison_sociale) VALUES ('Beta SARL')`, []);
  const site = (libelle: string, company: number, code: string | null, extras: object = {}) =>
    insertId(pool, 'INSERT INTO sites (libelle, company_id, code_implant, extras) VALUES ($1, $2, $3, $4)', [
      libelle,
      company,
      code,
      extras,
    ]);
  const paris = await site('Paris', alpha, 'P01');
  const lyon = await site('Lyon', alpha, 'L01');
  const nantes = await site('Nantes', beta, null);
  const lille = await site('Lille', beta, 'LI1', { region: 'Nord' });
  const nord = await insertId(pool, `INSERT INTO groups (raison_sociale) VALUES ('Nord')`, []);
  const ouest = await insertId(pool, `INSERT INTO groups (raison_sociale) VALUES ('Ouest')`, []);
  await pool.query('INSERT INTO group_sites (group_id, site_id) VALUES ($1, $2), ($1, $3), ($4, $5)', [
    nord,
    paris,
    lille,
    ouest,
    nantes,
  ]);
  await pool.query(
    `INSERT INTO terminals (site_id, terminal_id, libelle) VALUES ($1, 2, 'Caisse 2'), ($1, 1, 'Caisse 1'), ($2, 1, 'C1')`,
    [paris, nantes],
  );
  await pool.query(
    `INSERT INTO sellers (site_id, code, nom) VALUES ($1, '02', 'Bob'), ($1, '01', 'Alice'), ($2, '07', 'Chloé')`,
    [paris, lyon],
  );
  await pool.query(
    `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents) VALUES
       ($1, '2026-03-01', 10, 15000, 12500, 2500), ($1, '2026-03-02', 20, 30050, 25042, 5008),
       ($2, '2026-03-02', 5, 5000, 4167, 833), ($3, '2026-03-02', 1, 999, 833, 166)`,
    [paris, lyon, nantes],
  );
  return { companies: { alpha, beta }, sites: { paris, lyon, nantes, lille }, groups: { nord, ouest } };
}
