/**
 * The FEC on the generated demo chain: its accountant (`comptable`, FEC_CONFIGURATION over every
 * site) exports every company for ten days through GET bo/fec/export; each file passes the
 * checker, and each entry's payments, sales excl. VAT and VAT equal the Z report of its site and
 * day to the cent. The demo companies carry a SIRET, whose first nine digits name the file.
 */
import { parse } from 'content-disposition';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANIES } from '../../../src/server/demo/catalogue.ts';
import { generateDemoChain } from '../../../src/server/demo/generate.ts';
import { checkFec, FEC_FIELDS } from '../../../src/server/fec/fec-checker.ts';
import { resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { reportInput } from '../../helpers/chain.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let accountant: { id: number; headers: Record<string, string> };
let companies: Array<{ id: number; siret: string }>;
let siteIds: number[];
let from: string;
let to: string;

beforeAll(async () => {
  t = await createTestApp();
  const demo = await generateDemoChain(t.database.pool, {
    seed: 29,
    now: new Date('2026-11-02T22:30:00Z'),
    days: 10,
  });
  const password = demo.users.find((u) => u.login === 'comptable')!.password;
  const headers = await t.signIn('comptable', password);
  const { rows } = await t.database.pool.query<{ id: number }>(
    "SELECT id FROM users WHERE login = 'comptable'",
  );
  accountant = { id: rows[0]!.id, headers };
  companies = (
    await t.database.pool.query<{ id: number; siret: string }>('SELECT id, siret FROM companies ORDER BY id')
  ).rows;
  siteIds = (await t.database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id')).rows.map(
    (r) => r.id,
  );
  const range = await t.database.pool.query<{ from: string; to: string }>(
    'SELECT min(fiscal_date)::text AS from, max(fiscal_date)::text AS to FROM tickets',
  );
  ({ from, to } = range.rows[0]!);
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** `date|site` → the Z's payments, sales excl. VAT and VAT of that day, in cents. */
async function zTotals(): Promise<Map<string, { payments: number; excl: number; tax: number }>> {
  const resolved = await resolveReport(
    reportInput('RapportZ', from, to, { sites: siteIds }),
    siteIds,
    t.database,
  );
  const z = await runReport(resolved, t.database);
  const out = new Map<string, { payments: number; excl: number; tax: number }>();
  for (const r of z.rows) {
    const key = `${r.fiscalDate}|${r.siteId}`;
    const day = out.get(key) ?? { payments: 0, excl: 0, tax: 0 };
    if (String(r.code).startsWith('PAYMENT_')) day.payments += Number(r.amount);
    if (r.code === 'NET_EXCL') day.excl = Number(r.amount);
    if (r.code === 'TAX') day.tax = Number(r.amount);
    out.set(key, day);
  }
  return out;
}

describe('FEC of the demo chain', () => {
  it("lets the accountant export every company, each file checked and equal to the Z's days to the cent", async () => {
    expect(companies.length).toBe(COMPANIES.length);
    const z = await zTotals();
    const seen = new Set<string>();
    for (const company of companies) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/bo/fec/export?id=${accountant.id}&societe=${company.id}&dateDebut=${from}&dateFin=${to}`,
        headers: accountant.headers,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const name = parse(String(res.headers['content-disposition'])).parameters.filename!;
      expect(name).toBe(`${company.siret.slice(0, 9)}FEC${to.replaceAll('-', '')}.txt`);
      const text = iconv.decode(res.rawPayload, 'ISO-8859-15');
      expect(checkFec(text, name)).toEqual([]);
      const entries = new Map<string, { key: string; payments: number; excl: number; tax: number }>();
      const cents = (s: string) => Math.round(Number(s.replace(',', '.')) * 100);
      for (const record of text.trimEnd().split('\r\n').slice(1)) {
        const f = Object.fromEntries(FEC_FIELDS.map((n, i) => [n, record.split('\t')[i] ?? '']));
        const [, site, date] = /^Z-(\d+)-(\d{8})$/.exec(f.PieceRef!)!;
        const key = `${date!.slice(0, 4)}-${date!.slice(4, 6)}-${date!.slice(6)}|${site}`;
        const e = entries.get(f.EcritureNum!) ?? { key, payments: 0, excl: 0, tax: 0 };
        const amount = cents(f.Debit!) - cents(f.Credit!);
        if (/^(5|47)/.test(f.CompteNum!)) e.payments += amount;
        if (f.CompteNum!.startsWith('707')) e.excl -= amount;
        if (f.CompteNum!.startsWith('4457')) e.tax -= amount;
        entries.set(f.EcritureNum!, e);
      }
      expect(entries.size).toBeGreaterThan(0);
      for (const e of entries.values()) {
        seen.add(e.key);
        expect({ key: e.key, ...z.get(e.key) }).toEqual(e);
      }
    }
    expect(seen.size).toBe(z.size);
  });
});
