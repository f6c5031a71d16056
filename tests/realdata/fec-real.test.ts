/**
 * The FEC proven on a real data set (issue #29 "Proof", decision 0037 § "Real data"): the London
 * takeaway restaurant 1 is imported through the real importer into a site of a test company,
 * the FEC of one month is asked through the real call (GET bo/fec/export), and every record
 * must equal the one computed here from the raw file's ticket lines — read with csv-parse and
 * summed by fiscal date, payment method and VAT rate with this suite's own integer arithmetic
 * (expected.ts), never the generator's code. Each day's entry must equal the day's Z report
 * (bo/getReport RapportZ) to the cent, and the file must pass the official-rules checker.
 *
 * Currency: the file is in GBP; a FEC is kept in the company's accounting currency, the euro.
 * The test site is declared in EUR (the mapping's currency replaced): the point is the
 * arithmetic of the entries on real-shaped data, not a conversion (we have no exchange rate).
 *
 * A second real site of the same company, the restaurant 2 sample, stays in GBP: the export
 * refuses the company's FEC naming it (FecForeignCurrency), and with `exclureHorsEuro=true` the
 * file holds the EUR site only and the answer names the GBP one (X-Fec-Sites-Exclus).
 *
 * Payments: the London file has no payment column, so no ticket has a payment: every entry's
 * debit is the day's whole amount on the "no payment recorded" account, 4711 (decision 0037,
 * written here from the decision, not from the generator), and no rounding line.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFec } from '../../src/server/fec/fec-checker.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { assemble, byDate, type ExpTicket, FILES, REPO, requireFiles, takeawayLines } from './expected.ts';
import { reportingApp } from './report-api.ts';

const PASSWORD = 'Fec-Real-Data-2026!';
const COMPANY = 'London Takeaways FEC';
const SITE = 'Takeaway London 1 (EUR)';
const SIREN = '732829320';
const MONTH: [string, string] = ['2019-05-01', '2019-05-31'];

let app: Awaited<ReturnType<typeof reportingApp>>;
let siteId: number;
let gbpSiteId: number;
let companyId: number;
let accountant: number;
let headers: Record<string, string>;
let tickets: ExpTicket[];

beforeAll(async () => {
  requireFiles(FILES.takeaway, FILES.takeawayPrices, FILES.takeaway2);
  app = await reportingApp();
  const mappingDir = path.join(REPO, 'docs/mappings');
  const mapping = JSON.parse(fs.readFileSync(path.join(mappingDir, 'takeaway-restaurant-1.json'), 'utf8'));
  const imported = await importSalesFile(app.t.database.pool, {
    file: FILES.takeaway,
    mapping: { ...mapping, currency: 'EUR' },
    mappingDir,
    site: SITE,
    company: COMPANY,
  });
  siteId = imported.siteId;
  const gbp = await importSalesFile(app.t.database.pool, {
    file: FILES.takeaway2,
    mapping: path.join(mappingDir, 'takeaway-restaurant-2-sample.json'),
    site: 'Takeaway London 2 (GBP)',
    company: COMPANY,
  });
  gbpSiteId = gbp.siteId;
  const { rows } = await app.t.database.pool.query<{ id: number }>(
    'UPDATE companies SET siren = $1 WHERE raison_sociale = $2 RETURNING id',
    [SIREN, COMPANY],
  );
  companyId = rows[0]!.id;
  accountant = await app.t.createUser({
    login: 'accountant',
    password: PASSWORD,
    droits: ['FEC_CONFIGURATION'],
    allSites: true,
  });
  headers = await app.t.signIn('accountant', PASSWORD);
  ({ tickets } = assemble(await takeawayLines(), { vatPercent: 20n }));
});
afterAll(async () => {
  await app?.t.close();
});

/** `YYYY-MM-DD` → `AAAAMMJJ`. */
const compact = (d: string) => d.replaceAll('-', '');
/** Cents → `1234,56`. */
const amount = (cents: number) => `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')}`;

/** The FEC records (18 fields each) the rules of decision 0037 give for the raw file's month. */
function expectedRecords(validDate: string): string[][] {
  const days = byDate(tickets);
  const out: string[][] = [];
  let n = 0;
  for (const date of [...days.keys()].filter((d) => d >= MONTH[0] && d <= MONTH[1]).sort()) {
    const day = days.get(date)!;
    // By payment method: none (the file has no payment column). By VAT rate: the mapping's 20 %.
    const excl = day.excl;
    const vat = day.net - day.excl;
    const number = `VE${String(++n).padStart(6, '0')}`;
    const label = `Ventes ${SITE} ${date.split('-').reverse().join('/')}`;
    const record = (account: string, accountLabel: string, text: string, debit: number, credit: number) =>
      out.push([
        'VE',
        'Ventes',
        number,
        compact(date),
        account,
        accountLabel,
        '',
        '',
        `Z-${siteId}-${compact(date)}`,
        compact(date),
        text,
        amount(debit),
        amount(credit),
        '',
        '',
        compact(validDate),
        '',
        '',
      ]);
    // No payment recorded for any ticket: the day's whole amount on 4711 (debit), then the credits.
    record('4711', 'Ventes sans règlement enregistré', `${label} sans règlement`, day.net, 0);
    record('70711', 'Ventes de marchandises 20 %', label, 0, excl);
    record('445711', 'TVA collectée 20 %', label, 0, vat);
  }
  return out;
}

/** The month's FEC of the company, its GBP site left out (`exclureHorsEuro=true`) unless `exclude` is false. */
async function exportMonth(exclude = true) {
  return app.t.app.inject({
    url:
      `/api/bo/fec/export?id=${accountant}&societe=${companyId}&dateDebut=${MONTH[0]}&dateFin=${MONTH[1]}` +
      (exclude ? '&exclureHorsEuro=true' : ''),
    headers,
  });
}

describe('the FEC of a real month (London takeaway 1, May 2019)', () => {
  it('refuses the company while its GBP site is not left out, naming it', async () => {
    await app.t.app.changes.settled();
    const res = await exportMonth(false);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'FecForeignCurrency',
      details: { sites: [{ id: gbpSiteId, libelle: 'Takeaway London 2 (GBP)', devise: 'GBP' }] },
    });
  });

  it('equals, record by record, the entries computed from the raw ticket lines', async () => {
    await app.t.app.changes.settled();
    const res = await exportMonth();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename=${SIREN}FEC20190531.txt`);
    expect(res.headers['x-fec-sites-exclus']).toBe(`${gbpSiteId}:GBP`);
    const text = iconv.decode(res.rawPayload, 'ISO-8859-15');
    const [header, ...records] = text.split('\r\n');
    expect(records.pop()).toBe('');
    expect(header?.split('\t')).toHaveLength(18);
    const validDate = records[0]!.split('\t')[15]!;
    const iso = `${validDate.slice(0, 4)}-${validDate.slice(4, 6)}-${validDate.slice(6)}`;
    const want = expectedRecords(iso);
    expect(want.length).toBe(31 * 3);
    const got = records.map((r) => r.split('\t'));
    const firstDiff = want.findIndex((w, i) => JSON.stringify(got[i]) !== JSON.stringify(w));
    if (firstDiff >= 0) expect(got[firstDiff], `record ${firstDiff + 1}`).toEqual(want[firstDiff]);
    expect(got.length).toBe(want.length);
    expect(checkFec(text, `${SIREN}FEC20190531.txt`)).toEqual([]);
  });

  it("gives each day's entry the totals of that day's Z report, to the cent", async () => {
    const res = await exportMonth();
    const records = iconv
      .decode(res.rawPayload, 'ISO-8859-15')
      .split('\r\n')
      .slice(1, -1)
      .map((r) => r.split('\t'));
    const cents = (s: string) => Number(s.replace(',', ''));
    const perDay = new Map<string, { sales: number; vat: number; credit: number; debit: number }>();
    for (const r of records) {
      const d = `${r[3]!.slice(0, 4)}-${r[3]!.slice(4, 6)}-${r[3]!.slice(6)}`;
      const f = perDay.get(d) ?? { sales: 0, vat: 0, credit: 0, debit: 0 };
      if (r[4]!.startsWith('707')) f.sales += cents(r[12]!) - cents(r[11]!);
      if (r[4]!.startsWith('4457')) f.vat += cents(r[12]!) - cents(r[11]!);
      f.credit += cents(r[12]!);
      f.debit += cents(r[11]!);
      perDay.set(d, f);
    }
    const z = await app.report('RapportZ', 'Daily', MONTH[0], MONTH[1], siteId);
    const zOf = (date: string, code: string) =>
      z.rows.find((r) => r.fiscalDate === date && r.code === code)?.amount as number;
    const zDates = [...new Set(z.rows.map((r) => r.fiscalDate as string))].sort();
    expect([...perDay.keys()]).toEqual(zDates);
    for (const [date, f] of perDay) {
      expect({ date, sales: f.sales, vat: f.vat, total: f.credit }).toEqual({
        date,
        sales: zOf(date, 'NET_EXCL'),
        vat: zOf(date, 'TAX'),
        total: zOf(date, 'TICKETS'),
      });
      expect(f.debit, `entry of ${date} balanced`).toBe(f.credit);
    }
  });
});
