import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.ts';

describe('test database', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('has the migrated schema, with bigint cents read as numbers and dates as wire text', async () => {
    const { rows } = await db.pool.query(
      "SELECT 12345678901::bigint AS cents, DATE '2026-03-29' AS d, to_regclass('public.tickets') AS t",
    );
    expect(rows[0]).toEqual({ cents: 12345678901, d: '2026-03-29', t: 'tickets' });
  });
});
