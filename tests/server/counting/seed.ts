/**
 * Counting test data on top of the small chain of tests/server/fixtures.ts: tickets with their
 * payments on Paris (terminals 1 and 2) for fiscal date 2026-03-02, and users for each role.
 */
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

export const DAY = '2026-03-02';
export const PASSWORD = 'Correct-Horse1';

/**
 * Paris, 2026-03-02 — terminal 1: CASH 1250 + 100, CARD 800, CHEQUE 3000, MEAL_VOUCHER 900,
 * and a training-mode ticket paid CASH 5000 (never expected); terminal 2: CASH 700.
 * So terminal 1 expects cash 1350, cheques 3000, meal vouchers 900, card slips 800.
 */
export async function seedPayments(pool: pg.Pool, paris: number): Promise<void> {
  const tickets: [number, number, boolean, [string, number][]][] = [
    [
      1,
      1,
      false,
      [
        ['CASH', 1250],
        ['CARD', 800],
      ],
    ],
    [2, 1, false, [['CHEQUE', 3000]]],
    [
      3,
      1,
      false,
      [
        ['MEAL_VOUCHER', 900],
        ['CASH', 100],
      ],
    ],
    [4, 1, true, [['CASH', 5000]]],
    [5, 2, false, [['CASH', 700]]],
  ];
  for (const [ticketId, terminal, training, payments] of tickets) {
    const total = payments.reduce((s, [, c]) => s + c, 0);
    await pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, training_mode, total_cents,
         total_excl_cents, tax_cents, source, source_ref)
       VALUES ($1, $2, $3, '2026-03-02T12:00:00+01:00', $4, $5, $6, $6, 0, 'test', $7)`,
      [paris, ticketId, DAY, terminal, training, total, String(ticketId)],
    );
    for (const [i, [method, cents]] of payments.entries()) {
      await pool.query(
        'INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents) VALUES ($1, $2, $3, $4, $5)',
        [paris, ticketId, i + 1, method, cents],
      );
    }
  }
}

/** The chain, its payments, and signed-in users: `manager` (COMPTAGE, COFFRE, RECUS on Paris and Lyon), `admin` (CONFIGURATION, every site). */
export async function seedCounting(t: TestApp): Promise<{
  chain: Chain;
  manager: { id: number; headers: Record<string, string> };
  admin: { id: number; headers: Record<string, string> };
}> {
  const chain = await seedChain(t.database.pool);
  await seedPayments(t.database.pool, chain.sites.paris);
  const managerId = await t.createUser({
    login: 'manager',
    password: PASSWORD,
    droits: ['COMPTAGE', 'COFFRE', 'RECUS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon],
  });
  const adminId = await t.createUser({
    login: 'admin',
    password: PASSWORD,
    droits: ['CONFIGURATION'],
    allSites: true,
  });
  return {
    chain,
    manager: { id: managerId, headers: await t.signIn('manager', PASSWORD) },
    admin: { id: adminId, headers: await t.signIn('admin', PASSWORD) },
  };
}

/**
 * A counting test file's app: `t`, what {@link seedCounting} wrote and signed in (`chain`,
 * `manager`, `admin`), and `paris`, the id of the Paris site. Set by the beforeAll that
 * {@link setUpCounting} registers: read it inside tests and hooks only.
 */
export type CountingApp = { t: TestApp; paris: number } & Awaited<ReturnType<typeof seedCounting>>;

/**
 * Registers the file's beforeAll (a test app built with `options`, by default its default configuration, seeded by
 * {@link seedCounting}) and afterAll (closes the app). A file's own beforeAll, registered after
 * this call, runs after it and may use the {@link CountingApp}.
 * @returns the {@link CountingApp}, empty until the beforeAll has run.
 */
export function setUpCounting(options: Parameters<typeof createTestApp>[0] = {}): CountingApp {
  const ctx = {} as CountingApp;
  beforeAll(async () => {
    ctx.t = await createTestApp(options);
    Object.assign(ctx, await seedCounting(ctx.t));
    ctx.paris = ctx.chain.sites.paris;
  });
  afterAll(async () => {
    await ctx.t.close();
  });
  return ctx;
}
