/**
 * Home dashboard data on top of the small chain of tests/server/fixtures.ts (inserted straight
 * into the tables, as a load would leave them):
 * - hour sales of Paris on 2026-03-02 (08h 1000 c, 12h 5000 c 4 covers, 13h 3000 c 2 covers,
 *   19h 2000 c 3 covers) and on 2025-03-03 (364 days before: 12h 4000 c, 20h 1500 c, 1 cover);
 * - on 2026-03-01 terminals 1 and 2 of Paris and terminal 1 of Nantes sold; Paris terminal 1 was
 *   counted, Paris terminal 2 and Nantes terminal 1 were not;
 * - safe counts of Paris: 2026-02-27 (countersigned), 2026-03-01 v1 and v2 (v2 waiting for a
 *   countersignature, 5000 counted for 4800 expected); none for Nantes;
 * - manager receipts of Paris on 2026-03-02: 1200 c and 800 c;
 * - local events: a concert on Paris 2026-03-05–06, a fair on Paris and Nantes 2026-03-10, roadworks
 *   on Lyon 2026-03-04, a past promotion on Paris 2026-02-01–03, one starting 2026-03-16 (too far).
 */
import type pg from 'pg';
import type { Chain } from './fixtures.ts';

async function seedHours(pool: pg.Pool, paris: number): Promise<void> {
  await pool.query(
    `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
     VALUES ($1, '2026-03-02', 8, 3, 0, 1000, 833, 167), ($1, '2026-03-02', 12, 8, 4, 5000, 4167, 833),
            ($1, '2026-03-02', 13, 5, 2, 3000, 2500, 500), ($1, '2026-03-02', 19, 4, 3, 2000, 1667, 333),
            ($1, '2025-03-03', 12, 6, 0, 4000, 3333, 667), ($1, '2025-03-03', 20, 2, 1, 1500, 1250, 250),
            ($1, '2026-03-01', 12, 10, 5, 15000, 12500, 2500)`,
    [paris],
  );
  await pool.query(
    `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents)
     VALUES ($1, '2025-03-03', 8, 5500, 4583, 917)`,
    [paris],
  );
}

async function seedCounts(pool: pg.Pool, paris: number, nantes: number): Promise<void> {
  await pool.query(
    `INSERT INTO daily_terminal_sales (site_id, fiscal_date, terminal_id, tickets, net_cents, net_excl_cents)
     VALUES ($1, '2026-03-01', 1, 6, 9000, 7500), ($1, '2026-03-01', 2, 4, 6000, 5000),
            ($2, '2026-03-01', 1, 1, 500, 417), ($1, '2026-03-01', NULL, 1, 10, 8)`,
    [paris, nantes],
  );
  await pool.query(
    `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash_cents, expected_cash_cents,
       expected_cheques_cents, expected_meal_vouchers_cents, expected_card_slips_cents, counted_by,
       counted_by_login, counted_at)
     VALUES ($1, '2026-03-01', 1, 1, 9000, 9000, 0, 0, 0, 1, 'someone', now())`,
    [paris],
  );
  const safe = (date: string, version: number, counted: number, signed: boolean) =>
    pool.query(
      `INSERT INTO safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents,
         contents, counted_cents, counted_by, counted_by_login, counted_at, countersigned_by,
         countersigned_name, countersigned_at)
       VALUES ($1, $2, $3, 4000, 1000, 200, '[]', $4, 1, 'someone', '2026-03-01T21:00:00Z',
         $5::int, CASE WHEN $5::int IS NULL THEN NULL ELSE 'Max' END,
         CASE WHEN $5::int IS NULL THEN NULL ELSE now() END)`,
      [paris, date, version, counted, signed ? 1 : null],
    );
  await safe('2026-02-27', 1, 4800, true);
  await safe('2026-03-01', 1, 4700, false);
  await safe('2026-03-01', 2, 5000, false);
  await pool.query(
    `INSERT INTO manager_receipts (site_id, fiscal_date, seller_code, seller_name, manager_code, manager_name,
       complements, created_by, created_by_login, updated_by)
     VALUES ($1, '2026-03-02', '01', 'Alice', 'M1', 'Max', '{"montantCents":1200,"motif":"","commentaire":""}', 1, 'x', 1),
            ($1, '2026-03-02', '02', 'Bob', 'M1', 'Max', '{"montantCents":800,"motif":"","commentaire":""}', 1, 'x', 1)`,
    [paris],
  );
}

/** uuids of the seeded events, by name. */
export interface HomeEvents {
  concert: string;
  fair: string;
  roadworks: string;
}

async function seedEvents(pool: pg.Pool, chain: Chain): Promise<HomeEvents> {
  const { paris, nantes, lyon } = chain.sites;
  const event = async (type: string, name: string, start: string, end: string, sites: number[]) => {
    const { rows } = await pool.query<{ uuid: string }>(
      `INSERT INTO local_events (event_type, designation, sales_channel, start_date, end_date, impact_type, impact_rate)
       VALUES ($1, $2, 'ALL', $3, $4, 'Positive', 12.5) RETURNING uuid`,
      [type, name, start, end],
    );
    const uuid = rows[0]!.uuid;
    for (const site of sites) {
      await pool.query('INSERT INTO local_event_sites (site_id, event_uuid) VALUES ($1, $2)', [site, uuid]);
    }
    return uuid;
  };
  const concert = await event('CONCERT', 'Concert au parc', '2026-03-05', '2026-03-06', [paris]);
  const fair = await event('FAIR', 'Foire', '2026-03-10', '2026-03-10', [paris, nantes]);
  const roadworks = await event('ROADWORKS', 'Travaux', '2026-03-04', '2026-03-04', [lyon]);
  await event('PROMOTION', 'Promo passée', '2026-02-01', '2026-02-03', [paris]);
  await event('SPORT', 'Trop loin', '2026-03-16', '2026-03-17', [paris]);
  return { concert, fair, roadworks };
}

/** Inserts the home data described in the module comment. */
export async function seedHome(pool: pg.Pool, chain: Chain): Promise<HomeEvents> {
  await seedHours(pool, chain.sites.paris);
  await seedCounts(pool, chain.sites.paris, chain.sites.nantes);
  return seedEvents(pool, chain);
}
