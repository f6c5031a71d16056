/**
 * The FEC of a company on the hand-made chain of the sales analyses (tests/reports/sales-analyses/
 * chain.ts: sales, returns, cancellations, corrected lines, split payments in every method,
 * training tickets): the entries computed here straight from the raw ticket lines and payments
 * equal the generated ones line by line; each day's entry equals the Z report's items to the cent;
 * the file passes the checker; a plan without an account for a rate met refuses the export; a
 * ticket without payment is debited on 4711, not counted as a rounding gap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { refreshDailyBreakdowns } from '../../../src/server/db/aggregates.ts';
import { defaultAccountPlan } from '../../../src/server/fec/account-plan.ts';
import { companyFec } from '../../../src/server/fec/company-fec.ts';
import { type FecLine, MissingAccountError } from '../../../src/server/fec/entries.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { createTestDatabase } from '../../helpers/db.ts';
import { FIRST_DATE, input, LAST_DATE, loadChain, type Ticket } from '../../reports/sales-analyses/chain.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let tickets: Ticket[];
const SIREN = '552100554';
const VALID = '2026-12-07';

beforeAll(async () => {
  database = await createTestDatabase();
  tickets = await loadChain(database);
  await database.pool.query('UPDATE companies SET siren = $1 WHERE id = 1', [SIREN]);
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const ACCOUNT_OF_METHOD: Record<string, string> = {
  CASH: '530',
  CARD: '5115',
  CHEQUE: '5112',
  MEAL_VOUCHER: '5113',
  OTHER: '4718',
};
const SALES_OF_RATE: Record<string, string> = { '0.2': '70711', '0.1': '70712', '0.055': '70713' };
const VAT_OF_RATE: Record<string, string> = { '0.2': '445711', '0.1': '445712', '0.055': '445713' };

/** Expected entries of company 1 (sites 1 and 2), from the raw tickets: [date, site, lines as `account D/C cents`]. */
function expectedEntries(): Array<{ date: string; siteId: number; lines: string[] }> {
  const days = new Map<string, Ticket[]>();
  for (const t of tickets) {
    if (t.trainingMode || t.siteId === 3 || t.fiscalDate < FIRST_DATE || t.fiscalDate > LAST_DATE) continue;
    const key = `${t.fiscalDate}|${t.siteId}`;
    days.set(key, [...(days.get(key) ?? []), t]);
  }
  return [...days.entries()]
    .sort(([a], [b]) => {
      const [da, sa] = a.split('|');
      const [db, sb] = b.split('|');
      return da === db ? Number(sa) - Number(sb) : (da ?? '') < (db ?? '') ? -1 : 1;
    })
    .map(([key, list]) => {
      const [date, site] = key.split('|') as [string, string];
      const pays = new Map<string, number>();
      const excl = new Map<number, number>();
      const tax = new Map<number, number>();
      for (const t of list) {
        for (const p of t.payments) pays.set(p.method, (pays.get(p.method) ?? 0) + p.amountCents);
        for (const l of t.lines) {
          excl.set(l.vatRate, (excl.get(l.vatRate) ?? 0) + l.amountExclCents);
          tax.set(l.vatRate, (tax.get(l.vatRate) ?? 0) + l.taxCents);
        }
      }
      const lines: string[] = [];
      let gap = 0;
      const side = (account: string, amount: number, normal: 'D' | 'C') => {
        if (amount === 0) return;
        const s = amount > 0 ? normal : normal === 'D' ? 'C' : 'D';
        gap += s === 'D' ? Math.abs(amount) : -Math.abs(amount);
        lines.push(`${account} ${s} ${Math.abs(amount)}`);
      };
      for (const m of [...pays.keys()].sort()) side(ACCOUNT_OF_METHOD[m] ?? '?', pays.get(m) ?? 0, 'D');
      const rates = [...excl.keys()].sort((a, b) => a - b);
      for (const r of rates) side(SALES_OF_RATE[String(r)] ?? '?', excl.get(r) ?? 0, 'C');
      for (const r of rates) side(VAT_OF_RATE[String(r)] ?? '?', tax.get(r) ?? 0, 'C');
      if (gap > 0) lines.push(`758 C ${gap}`);
      if (gap < 0) lines.push(`658 D ${-gap}`);
      return { date, siteId: Number(site), lines };
    });
}

const show = (l: FecLine) => `${l.account} ${l.debit > 0 ? 'D' : 'C'} ${l.debit || l.credit}`;

describe('companyFec', () => {
  it('writes the entries computed from the raw ticket lines, line by line, numbered and checked', async () => {
    const fec = await companyFec(database, 1, FIRST_DATE, LAST_DATE, VALID, defaultAccountPlan());
    expect(fec).not.toBeNull();
    const got = fec!.entries.map((e) => ({ date: e.date, siteId: e.siteId, lines: e.lines.map(show) }));
    const expected = expectedEntries();
    expect(expected.length).toBe(20);
    expect(got).toEqual(expected);
    expect(fec!.entries.map((e) => e.number)).toEqual(
      expected.map((_, i) => `VE${String(i + 1).padStart(6, '0')}`),
    );
    expect(fec!.fileName).toBe(`${SIREN}FEC20261110.txt`);
    expect(fec!.violations).toEqual([]);
    const decoded = iconv.decode(fec!.bytes, 'ISO-8859-15');
    expect(decoded).toBe(fec!.text);
    expect(checkFec(decoded, fec!.fileName)).toEqual([]);
    expect(decoded).toContain('Ventes Paris Opéra 01/11/2026');
    expect(fec!.bytes.includes(Buffer.from([0xe9]))).toBe(true);
  });

  it("gives each day's entry the Z report's payments, sales excl. VAT and VAT to the cent", async () => {
    const fec = await companyFec(database, 1, FIRST_DATE, LAST_DATE, VALID, defaultAccountPlan());
    const resolved = await resolveReport(input('RapportZ'), [1, 2], database);
    const z = await runReport(resolved, database);
    for (const entry of fec!.entries) {
      const items = z.rows.filter((r) => r.fiscalDate === entry.date && r.siteId === entry.siteId);
      const amount = (code: string) => Number(items.find((r) => r.code === code)?.amount ?? 0);
      const payments = items
        .filter((r) => String(r.code).startsWith('PAYMENT_'))
        .reduce((s, r) => s + Number(r.amount), 0);
      const on = (prefix: string) =>
        entry.lines.filter((l) => l.account.startsWith(prefix)).reduce((s, l) => s + l.credit - l.debit, 0);
      const cashed = entry.lines
        .filter((l) => l.account.startsWith('5') || l.account.startsWith('47'))
        .reduce((s, l) => s + l.debit - l.credit, 0);
      expect(cashed).toBe(payments);
      expect(on('707')).toBe(amount('NET_EXCL'));
      expect(on('4457')).toBe(amount('TAX'));
    }
    expect(fec!.entries.length).toBe(new Set(z.rows.map((r) => `${r.fiscalDate}|${r.siteId}`)).size);
  });

  it('refuses a plan lacking the account of a rate met, naming the key, site and date', async () => {
    const plan = defaultAccountPlan();
    delete plan['SALES_0.1'];
    const error = await companyFec(database, 1, FIRST_DATE, LAST_DATE, VALID, plan).catch((e) => e);
    expect(error).toBeInstanceOf(MissingAccountError);
    expect(error.key).toBe('SALES_0.1');
    expect(error.date).toBe(FIRST_DATE);
  });

  it('debits a ticket with no payment recorded on 4711, not on the rounding accounts (runs last: it removes payments)', async () => {
    const ticket = tickets.find(
      (t) => t.siteId === 1 && !t.trainingMode && t.totalCents > 0 && t.fiscalDate === FIRST_DATE,
    )!;
    const entryOf = async () =>
      (await companyFec(database, 1, FIRST_DATE, LAST_DATE, VALID, defaultAccountPlan()))!.entries.find(
        (e) => e.siteId === 1 && e.date === FIRST_DATE,
      )!;
    const sum = (lines: readonly FecLine[], account: string) =>
      lines.filter((l) => l.account === account).reduce((s, l) => s + l.debit - l.credit, 0);
    const before = await entryOf();
    // As a load does: the rows, then the day's aggregates rebuilt (db/aggregates.ts).
    await database.pool.query('DELETE FROM payments WHERE site_id = 1 AND ticket_id = $1', [ticket.ticketId]);
    await refreshDailyBreakdowns(database.pool, 1, FIRST_DATE, FIRST_DATE);
    const after = await entryOf();
    expect(sum(after.lines, '4711')).toBe(ticket.totalCents);
    for (const account of ['658', '758']) expect(sum(after.lines, account)).toBe(sum(before.lines, account));
    expect(ticket.payments.length).toBeGreaterThan(0);
    for (const method of new Set(ticket.payments.map((p) => p.method))) {
      const account = ACCOUNT_OF_METHOD[method]!;
      expect(sum(before.lines, account) - sum(after.lines, account), method).toBe(
        ticket.payments.filter((p) => p.method === method).reduce((s, p) => s + p.amountCents, 0),
      );
    }
  });

  it('answers null for an unknown company', async () => {
    expect(await companyFec(database, 99, FIRST_DATE, LAST_DATE, VALID, defaultAccountPlan())).toBeNull();
  });
});
