/**
 * Partial empty of one site's month on the demo chain (issue #30 proof): the archive holds
 * exactly those rows (read back here and compared with what the database held), every other
 * site and month is untouched (row counts and checksums before/after), the month's report says
 * "archived" with the kept totals to the cent — on the screen's JSON and in its PDF, XLSX and CSV,
 * each read back, in French, English and German —, the all-reports ZIP and a report subscription
 * over the month carry that notice instead of leaving the month out as empty, the comment is
 * mandatory, and a site out of scope
 * or a user without ACCES_BASE gets 403. Real app, real PostgreSQL, real files.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PurgeRun } from '../../src/contract/purge.ts';
import { DatasetAnswerSchema } from '../../src/contract/reports.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { PURGED_TABLES } from '../../src/server/purge/purge.ts';
import { renderSubscription } from '../../src/server/subscriptions/run.ts';
import { findSubscription } from '../../src/server/subscriptions/subscription-store.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { endedPurgeRun } from '../helpers/purge-runs.ts';
import { unzip } from '../helpers/unzip.ts';
import { pdfText } from './counting/pdf-text.ts';

const NOW = new Date('2026-03-18T14:37:00Z');
const MONTH = { debut: '2026-02-01', fin: '2026-02-28' };
const PASSWORD = 'Purge-Passw0rd!';

let t: TestApp;
let dataDir: string;
let admin: AuthHeaders;
let adminId: number;
let siteId: number;
let otherSite: number;

/** Tables whose rows belong to a site and fiscal date (the detail and its aggregates). */
const DATED_TABLES = [
  'tickets',
  'losses',
  'cash_counts',
  'safe_counts',
  'manager_receipts',
  'daily_sales',
  'daily_hour_sales',
  'daily_payment_sales',
];

/** `WHERE` selecting the rows of the purged site-month (ticket_lines, payments through their ticket). */
function purgedRows(table: string): string {
  const inMonth = `site_id = ${siteId} AND fiscal_date BETWEEN '${MONTH.debut}' AND '${MONTH.fin}'`;
  if (table === 'ticket_lines' || table === 'payments') {
    return `site_id = ${siteId} AND ticket_id IN (SELECT ticket_id FROM tickets WHERE ${inMonth})`;
  }
  return inMonth;
}

/** Per table: rows and md5 of every row NOT in the purged site-month, in a stable order. */
async function untouchedDigest(): Promise<Record<string, { n: number; md5: string }>> {
  const out: Record<string, { n: number; md5: string }> = {};
  for (const table of [...new Set([...PURGED_TABLES, ...DATED_TABLES])]) {
    const { rows } = await t.database.pool.query<{ n: number; md5: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(j, E'\\n' ORDER BY j), '')) AS md5
         FROM (SELECT row_to_json(t)::text AS j FROM ${table} t WHERE NOT (${purgedRows(table)})) r`,
    );
    out[table] = rows[0]!;
  }
  return out;
}

/** The purged site-month's rows as PostgreSQL writes them, per table, in primary-key order. */
async function monthRows(): Promise<Record<string, string[]>> {
  const order: Record<string, string> = {
    tickets: 'ticket_id',
    ticket_lines: 'ticket_id, line_no',
    payments: 'ticket_id, payment_no',
    losses: 'loss_id',
    cash_counts: 'id',
    safe_counts: 'id',
    manager_receipts: 'id',
  };
  const out: Record<string, string[]> = {};
  for (const table of PURGED_TABLES) {
    const { rows } = await t.database.pool.query<{ j: string }>(
      `SELECT row_to_json(t)::text AS j FROM ${table} t WHERE ${purgedRows(table)} ORDER BY ${order[table]}`,
    );
    out[table] = rows.map((r) => r.j);
  }
  return out;
}

const partialUrl = (id: number, site: number, commentaire?: string) =>
  `/api/bo/emptyPartialDataBase?id=${id}&Site=${site}&debut=${MONTH.debut}&fin=${MONTH.fin}` +
  (commentaire === undefined ? '' : `&commentaire=${encodeURIComponent(commentaire)}`);

const salesUrl = (id: number, dateDebut: string, dateFin: string) =>
  `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&typeRapport=Daily&format=JSON` +
  `&dateDebut=${dateDebut}&dateFin=${dateFin}&sites[]=${siteId}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-purge-'));
  t = await createTestApp({ config: { dataDir } });
  adminId = await t.createUser({ login: 'admin', password: PASSWORD, droits: [...RIGHTS], allSites: true });
  admin = await t.signIn('admin', PASSWORD);
  await generateDemoChain(t.database.pool, { seed: 20261207, now: NOW, days: 80 });
  const { rows } = await t.database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id');
  siteId = rows[0]!.id;
  otherSite = rows[1]!.id;
}, 240_000);

afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("partial empty of one site's month", () => {
  let before: Record<string, { n: number; md5: string }>;
  let expectedRows: Record<string, string[]>;
  let keptBefore: { tickets: number; net: number; excl: number; tax: number };
  let answer: PurgeRun;

  it('is refused without a comment, and a blank one, deleting nothing', async () => {
    expectedRows = await monthRows();
    expect(expectedRows.tickets!.length).toBeGreaterThan(100);
    expect(expectedRows.cash_counts!.length).toBeGreaterThan(0);
    for (const url of [partialUrl(adminId, siteId), partialUrl(adminId, siteId, '   ')]) {
      const res = await t.app.inject({ method: 'GET', url, headers: admin });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidField', details: { field: 'commentaire' } });
    }
    expect(await monthRows()).toEqual(expectedRows);
  });

  it('is refused (403) for a site out of scope and for a user without ACCES_BASE', async () => {
    const rights = RIGHTS.filter((r) => r !== 'ACCES_BASE');
    const noRight = await t.createUser({
      login: 'noright',
      password: PASSWORD,
      droits: rights,
      allSites: true,
    });
    const other = await t.createUser({
      login: 'othersite',
      password: PASSWORD,
      droits: ['ACCES_BASE'],
      restaurantIds: [otherSite],
    });
    const r1 = await t.app.inject({
      method: 'GET',
      url: partialUrl(noRight, siteId, 'clean-up'),
      headers: await t.signIn('noright', PASSWORD),
    });
    const r2 = await t.app.inject({
      method: 'GET',
      url: partialUrl(other, siteId, 'clean-up'),
      headers: await t.signIn('othersite', PASSWORD),
    });
    expect([r1.statusCode, r2.statusCode]).toEqual([403, 403]);
    expect(await monthRows()).toEqual(expectedRows);
  });

  it('archives nothing and records nothing for a period without detail', async () => {
    const url = partialUrl(adminId, siteId, 'rien')
      .replace(MONTH.debut, '2001-01-01')
      .replace(MONTH.fin, '2001-01-31');
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const run = await endedPurgeRun(t, admin, adminId, res.json<PurgeRun>().runId);
    expect(run).toMatchObject({ code: 'EmptyPartielOk', statut: 'SUCCEEDED', purges: [] });
    const { rows } = await t.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM data_purges');
    expect(rows[0]!.n).toBe(0);
    await expect(readdir(path.join(dataDir, 'archives'))).rejects.toThrow(/ENOENT/);
  });

  it('archives exactly the month’s rows, verified, then deletes them (EmptyPartielOk)', async () => {
    before = await untouchedDigest();
    const { rows } = await t.database.pool.query(
      `SELECT sum(tickets)::int AS tickets, sum(net_cents)::float8 AS net, sum(net_excl_cents)::float8 AS excl,
              sum(tax_cents)::float8 AS tax
         FROM daily_sales WHERE site_id = $1 AND fiscal_date BETWEEN $2 AND $3`,
      [siteId, MONTH.debut, MONTH.fin],
    );
    keptBefore = rows[0];
    const res = await t.app.inject({
      method: 'GET',
      url: partialUrl(adminId, siteId, 'Fin de bail — archivage février'),
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PurgeRun>()).toMatchObject({ code: 'EmptyPartielOk', statut: 'QUEUED' });
    answer = await endedPurgeRun(t, admin, adminId, res.json<PurgeRun>().runId);
    expect(answer.statut).toBe('SUCCEEDED');
    const [purge] = answer.purges;
    expect(purge).toMatchObject({ restaurantId: siteId, debut: MONTH.debut, fin: MONTH.fin });
    expect(purge!.archive.startsWith('archives/')).toBe(true);

    // Read back here: the file's SHA-256 is the manifest's, and its lines are exactly the rows.
    const bytes = await readFile(path.join(dataDir, purge!.archive));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(purge!.sha256);
    const manifest = JSON.parse(await readFile(path.join(dataDir, purge!.manifest), 'utf8'));
    expect(manifest.sha256).toBe(purge!.sha256);
    const archived: Record<string, string[]> = Object.fromEntries(PURGED_TABLES.map((name) => [name, []]));
    for (const line of gunzipSync(bytes).toString('utf8').split('\n')) {
      if (line === '') continue;
      const { table, row } = JSON.parse(line) as { table: string; row: unknown };
      archived[table]!.push(JSON.stringify(row));
    }
    const reparsed = Object.fromEntries(
      Object.entries(expectedRows).map(([table, texts]) => [
        table,
        texts.map((j) => JSON.stringify(JSON.parse(j))),
      ]),
    );
    expect(archived).toEqual(reparsed);
    expect(purge!.rows).toEqual(
      Object.fromEntries(Object.entries(expectedRows).map(([k, v]) => [k, v.length])),
    );

    // Deleted, and nothing else touched.
    expect(Object.values(await monthRows()).every((rows) => rows.length === 0)).toBe(true);
    expect(await untouchedDigest()).toEqual(before);
  });

  it('keeps the month’s grand totals, append-only, and audit-logs the purge', async () => {
    const { rows } = await t.database.pool.query(
      `SELECT sum(tickets)::int AS tickets, sum(net_cents)::float8 AS net, sum(net_excl_cents)::float8 AS excl,
              sum(tax_cents)::float8 AS tax
         FROM fiscal_day_totals WHERE site_id = $1`,
      [siteId],
    );
    expect(rows[0]).toEqual(keptBefore);
    await expect(t.database.pool.query('UPDATE fiscal_day_totals SET net_cents = 0')).rejects.toThrow(
      /append-only/,
    );
    await expect(t.database.pool.query('DELETE FROM data_purges')).rejects.toThrow(/append-only/);
    const audit = await t.database.pool.query(
      `SELECT user_id, after FROM audit_log WHERE action = 'database.emptyPartial'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      user_id: adminId,
      after: { restaurantId: siteId, commentaire: 'Fin de bail — archivage février' },
    });
  });

  it('makes the month’s sales report say "archived", where, with the kept totals to the cent', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: salesUrl(adminId, MONTH.debut, MONTH.fin),
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const dataset = DatasetAnswerSchema.parse(res.json());
    expect(dataset.archived).toEqual([
      {
        restaurantId: siteId,
        debut: MONTH.debut,
        fin: MONTH.fin,
        archive: answer.purges[0]!.archive,
        tickets: keptBefore.tickets,
        netCents: keptBefore.net,
        netExclCents: keptBefore.excl,
        taxCents: keptBefore.tax,
      },
    ]);
    // A report over March only says nothing of it.
    const march = await t.app.inject({
      method: 'GET',
      url: salesUrl(adminId, '2026-03-01', '2026-03-10'),
      headers: admin,
    });
    expect(DatasetAnswerSchema.parse(march.json()).archived).toBeUndefined();
  });

  /**
   * The notice each format must carry, written out here per language (not taken from the
   * catalogue): site, purged days, archive, kept totals to the cent as the language writes them.
   */
  function expectedNotice(
    language: 'fr' | 'en' | 'de',
    site: string,
    currency: string,
    kept: typeof keptBefore & { days: [string, string] } = {
      ...keptBefore,
      days: ['01/02/2026', '28/02/2026'],
    },
  ): string {
    const locale = { fr: 'fr-FR', en: 'en-GB', de: 'de-DE' }[language];
    const money = (cents: number) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
    const n = new Intl.NumberFormat(locale).format(kept.tickets);
    const [net, excl, tax] = [kept.net, kept.excl, kept.tax].map(money);
    const [from, to] = kept.days;
    const archive = answer.purges[0]!.archive;
    const text = {
      fr: `${site} : le détail du ${from} au ${to} a été archivé (${archive}). Totaux conservés : ${n} tickets, ${net} TTC, ${excl} HT, TVA ${tax}.`,
      en: `${site}: the detail from ${from} to ${to} was archived (${archive}). Totals kept: ${n} tickets, ${net} incl. VAT, ${excl} excl. VAT, VAT ${tax}.`,
      de: `${site}: Die Einzeldaten vom ${from} bis ${to} wurden archiviert (${archive}). Erhaltene Summen: ${n} Bons, ${net} brutto, ${excl} netto, MwSt. ${tax}.`,
    }[language];
    return plain(text);
  }
  /** Spaces as a reader compares them: no-break and narrow no-break spaces as plain ones, runs as one. */
  const plain = (text: string) => text.replace(/[\u00a0\u202f\s]+/g, ' ');
  const HEADINGS = { fr: 'Période archivée', en: 'Archived period', de: 'Archivierter Zeitraum' };

  const purgedSiteName = async () =>
    (await t.database.pool.query<{ libelle: string }>('SELECT libelle FROM sites WHERE id = $1', [siteId]))
      .rows[0]!.libelle;

  const download = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };

  it.each(['fr', 'en', 'de'] as const)(
    'says "archived", where, with the kept totals to the cent in the month’s PDF, XLSX and CSV (%s)',
    async (language) => {
      const json = DatasetAnswerSchema.parse(
        JSON.parse(
          (await download(`${salesUrl(adminId, MONTH.debut, MONTH.fin)}&language=${language}`)).toString(),
        ),
      );
      const site = json.sites.find((s) => s.restaurantId === siteId)!.libelle;
      const notice = expectedNotice(language, site, json.currency);
      const url = (format: string) =>
        salesUrl(adminId, MONTH.debut, MONTH.fin).replace('format=JSON', `format=${format}`) +
        `&language=${language}`;

      // PDF: the text read back holds the notice, right after the title.
      const pdf = plain(await pdfText(await download(url('PDF'))));
      expect(pdf).toContain(notice);
      expect(pdf.slice(0, pdf.indexOf(notice)).trim()).toMatch(new RegExp(`^${json.title} — [^:]+$`));

      // XLSX: the row under the title, in column A.
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(new Uint8Array(await download(url('XLSX'))).buffer);
      const sheet = workbook.worksheets[0]!;
      expect(plain(String(sheet.getRow(2).getCell(1).value))).toBe(notice);
      expect(sheet.getRow(2).font?.bold).toBe(true);

      // CSV: a first line "# <heading>" then the notice, read by a spreadsheet's parser as two
      // cells; a program skipping `#` lines finds the header first.
      const csv = (await download(url('CSV'))).toString('utf8');
      const delimiter = language === 'en' ? ',' : ';';
      const records: string[][] = parseCsv(csv, { bom: true, delimiter, relax_column_count: true });
      expect(records[0]![0]).toBe(`# ${HEADINGS[language]}`);
      expect(plain(records[0]![1]!)).toBe(notice);
      const data: string[][] = parseCsv(csv, {
        bom: true,
        delimiter,
        comment: '#',
        comment_no_infix: true,
      });
      expect(data[0]).toEqual(records[1]);
      expect(records[1]![0]).not.toMatch(/^#/);
    },
  );

  it('says it in the streamed XLSX and CSV of the site’s tickets over the end of the month, days clipped', async () => {
    // From 20 February to 10 March: March's tickets are streamed; the notice covers 20–28 February.
    const [debut, fin] = ['2026-02-20', '2026-03-10'];
    const url = (format: string) =>
      `/api/bo/getReport?id=${adminId}&rapportClassName=RapportTickets&format=${format}&language=en` +
      `&dateDebut=${debut}&dateFin=${fin}&sites[]=${siteId}`;
    const json = DatasetAnswerSchema.parse(JSON.parse((await download(url('JSON'))).toString()));
    expect(json.rows.length).toBeGreaterThan(100);
    const { rows } = await t.database.pool.query(
      `SELECT sum(tickets)::int AS tickets, sum(net_cents)::float8 AS net, sum(net_excl_cents)::float8 AS excl,
              sum(tax_cents)::float8 AS tax
         FROM fiscal_day_totals WHERE site_id = $1 AND fiscal_date BETWEEN $2 AND $3`,
      [siteId, debut, MONTH.fin],
    );
    expect(rows[0].tickets).toBeGreaterThan(0);
    expect(rows[0].tickets).toBeLessThan(keptBefore.tickets);
    const notice = expectedNotice('en', json.sites[0]!.libelle, json.currency, {
      days: ['20/02/2026', '28/02/2026'],
      ...rows[0],
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(await download(url('XLSX'))).buffer);
    const sheet = workbook.worksheets[0]!;
    expect(plain(String(sheet.getRow(2).getCell(1).value))).toBe(notice);
    // The frozen header row is the column header, under the notice.
    const ySplit = (sheet.views[0] as { ySplit: number }).ySplit;
    expect(sheet.getRow(ySplit).getCell(1).value).toBe(json.columns[0]!.label);
    const records: string[][] = parseCsv((await download(url('CSV'))).toString('utf8'), {
      bom: true,
      relax_column_count: true,
    });
    expect(records[0]).toEqual(['# Archived period', expect.any(String)]);
    expect(plain(records[0]![1]!)).toBe(notice);
    expect(records[1]).toEqual(json.columns.map((c) => c.label));
    expect(records.length).toBe(json.rows.length + 3);
  });

  it('puts the purged month in the all-reports ZIP: the sales PDF says it, no class is left out as empty', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getAllReportsSpecBK?id=${adminId}&site=${siteId}&dateDebut=${MONTH.debut}&dateFin=${MONTH.fin}`,
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await unzip(res.rawPayload);
    const readme = [...entries].find(([name]) => name.endsWith('.txt'))![1].toString('utf8');
    // The sales report (RapportVentes): no rows over the purged month, left out as empty before.
    const sales = `ventes_${MONTH.debut}_${MONTH.fin}.pdf`;
    expect([...entries.keys()]).toContain(sales);
    const site = await purgedSiteName();
    expect(plain(await pdfText(entries.get(sales)!))).toContain(expectedNotice('fr', site, 'EUR'));
    // The README's reason for a class with no rows (and no purge): none applies to a purged month.
    expect(readme).not.toContain('aucune donnée pour ce site et cette période');
  });

  it('sends a subscription over the purged month its files with the notice, even "only if there is data"', async () => {
    const post = async (path: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/bo/recurrences/${path}?id=${adminId}`,
        headers: admin,
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number }>().id;
    };
    const regleId = await post('regles/save', {
      libelle: 'Début de mois',
      type: 'DAILY',
      heure: 6,
      minute: 0,
    });
    const destinataire = await post('destinataires/save', { email: 'direction@example.com', langue: 'en' });
    const id = await post('abonnements/save', {
      libelle: 'Ventes du mois précédent',
      rapport: { lSites: [siteId], periode: 'M-1' },
      formats: ['CSV'],
      regleId,
      destinataires: [destinataire],
      siDonnees: true,
    });
    const subscription = await findSubscription(t.database.pool, null, id);
    // Planned on 5 March: the month before is the purged February.
    const rendered = await renderSubscription(
      { database: t.database, distribution: 'Comptoir', linkBase: 'http://127.0.0.1/api/recurrences' },
      subscription,
      new Date('2026-03-05T05:00:00Z'),
      ['en'],
    );
    expect(rendered).toMatchObject({ status: 'READY', dateDebut: MONTH.debut, dateFin: MONTH.fin });
    const [file] = rendered.files.get('en')!;
    const records: string[][] = parseCsv(file!.content.toString('utf8'), {
      bom: true,
      relax_column_count: true,
    });
    const site = await purgedSiteName();
    expect(records[0]).toEqual(['# Archived period', expect.any(String)]);
    expect(plain(records[0]![1]!)).toBe(expectedNotice('en', site, 'EUR'));
  });
});
