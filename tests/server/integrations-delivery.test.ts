/**
 * Integration runs (issue #29 "Integrations", decision 0044) on a real PostgreSQL, into a real
 * folder and to a local HTTPS server with a self-signed certificate the client trusts as its CA
 * (TLS checks stay on): the files' totals equal the reports' tables to the cent (e-cash: totals by
 * payment method, Adoria: sales by article), a site-day is delivered once per destination unless
 * sent again, a 500 fails the run (the queue retries it) and the retry delivers, a wrong
 * credential fails with its reason, and the secret appears in no log, error or row.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Destination, Layout, Partner } from '../../src/contract/integrations.ts';
import { refreshDailySales } from '../../src/server/db/aggregates.ts';
import { deliver, folderPath } from '../../src/server/integrations/destination.ts';
import { defaultLayout } from '../../src/server/integrations/partners.ts';
import { type IntegrationRunOptions, runIntegration } from '../../src/server/integrations/run.ts';
import { previewIntegration } from '../../src/server/integrations/preview.ts';
import { decryptSecret, encryptSecret } from '../../src/server/integrations/secrets.ts';
import { createUser } from '../../src/server/auth/users.ts';
import { profiles } from '../../src/server/db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { type Chain, seedChain } from './fixtures.ts';

const DAY = '2026-03-05';
/** 07:00 in Paris on 6 March: the day sent is 5 March. */
const PLANNED = '2026-03-06T06:00:00.000Z';
const SECRET_KEY = 'test-secret-key-of-the-integrations';
const TOKEN = 'Bearer s3cr3t-T0ken-never-logged';

let db: TestDatabase;
let chain: Chain;
let dataDir: string;
let server: https.Server;
let ca: string;
let port: number;
/** What the HTTPS server does with the next requests: a status, and the bodies it received. */
let answer = 200;
const received: { auth: string | undefined; headers: http.IncomingHttpHeaders; body: string }[] = [];
const logs: string[] = [];

function options(): IntegrationRunOptions {
  const keep = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void logs.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return { dataDir, secretKey: SECRET_KEY, ca, log: { info: keep('info'), warn: keep('warn') } };
}

function ctx() {
  const files: { name: string; bytes: number; path?: string }[] = [];
  return {
    pool: db.pool,
    runId: `run-${Math.random()}`,
    files,
    async recordFile(f: { name: string; bytes: number; path?: string }) {
      files.push(f);
    },
  };
}

/** Tickets of Paris on DAY: two sales paid CASH + CARD and CARD, and a return refunded CASH. */
async function seedTickets() {
  const paris = chain.sites.paris;
  const t = (id: number, kind: string, total: number, excl: number) =>
    db.pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, kind, total_cents, total_excl_cents, tax_cents, source, source_ref)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'test', $9)`,
      [paris, id, DAY, `${DAY}T11:00:00Z`, kind, total, excl, total - excl, String(id)],
    );
  const line = (
    ticket: number,
    no: number,
    code: string,
    article: string,
    qty: number,
    amount: number,
    excl: number,
  ) =>
    db.pool.query(
      `INSERT INTO ticket_lines (site_id, ticket_id, line_no, article_code, article, family, quantity, unit_price_cents,
                                 amount_cents, vat_rate, amount_excl_cents, tax_cents)
       VALUES ($1, $2, $3, $4, $5, 'Plats', $6, $7, $8, 0.1, $9, $10)`,
      [paris, ticket, no, code, article, qty, Math.round(amount / qty), amount, excl, amount - excl],
    );
  const pay = (ticket: number, no: number, method: string, amount: number) =>
    db.pool.query(
      'INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents) VALUES ($1, $2, $3, $4, $5)',
      [paris, ticket, no, method, amount],
    );
  await t(1, 'SALE', 2450, 2227);
  await line(1, 1, 'A1', 'Croque-monsieur', 1, 1250, 1136);
  await line(1, 2, 'B2', 'Crème brûlée', 2, 1200, 1091);
  await pay(1, 1, 'CASH', 1000);
  await pay(1, 2, 'CARD', 1450);
  await t(2, 'SALE', 1875, 1705);
  await line(2, 1, 'A1', 'Croque-monsieur', 1.5, 1875, 1705);
  await pay(2, 1, 'CARD', 1875);
  await t(3, 'RETURN', -600, -545);
  await line(3, 1, 'B2', 'Crème brûlée', -1, -600, -545);
  await pay(3, 1, 'CASH', -600);
  await refreshDailySales(db.pool, paris, DAY, DAY);
}

async function integration(
  partner: Partner,
  destination: Destination,
  secret: string | null = null,
  layout: Layout = defaultLayout(partner),
) {
  await db.pool.query('DELETE FROM integrations WHERE partner = $1', [partner]);
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO integrations (partner, enabled, sites, destination, secret, layout) VALUES ($1, true, $2, $3, $4, $5) RETURNING id`,
    [partner, [chain.sites.paris], destination, secret, layout],
  );
  return rows[0]!.id;
}

/** `1 234,56` / `-6,00` → cents. */
const cents = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);

beforeAll(async () => {
  db = await createTestDatabase();
  chain = await seedChain(db.pool);
  await seedTickets();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'integrations-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  ca = pems.cert;
  server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        auth: req.headers.authorization,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = req.headers.authorization === TOKEN ? answer : 401;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a folder destination', () => {
  it('delivers e-cash totals by payment method equal to the payments report to the cent, once per site-day', async () => {
    const id = await integration('ecash', { type: 'folder', dossier: 'ecash/out' });
    const c = ctx();
    const first = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, c);
    expect(first.sent).toEqual([{ siteId: chain.sites.paris, date: DAY, file: 'ECASH_P01_20260305.csv' }]);
    const file = path.join(dataDir, 'exports', 'ecash', 'out', 'ECASH_P01_20260305.csv');
    const records: string[][] = parse(await readFile(file, 'utf8'), { delimiter: ';' });
    expect(records[0]).toEqual(['SITE', 'DATE', 'MODE_REGLEMENT', 'NB_REGLEMENTS', 'MONTANT']);
    const { rows } = await db.pool.query<{ method: string; cents: string }>(
      `SELECT method, amount_cents::text AS cents FROM daily_payment_sales WHERE site_id = $1 AND fiscal_date = $2 ORDER BY method`,
      [chain.sites.paris, DAY],
    );
    expect(records.slice(1).map((r) => [r[2], cents(r[4]!)])).toEqual(
      rows.map((r) => [r.method, Number(r.cents)]),
    );
    // By hand from the tickets: CARD 14.50 + 18.75, CASH 10.00 − 6.00.
    expect(records.slice(1).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      ['P01', '05/03/2026', 'CARD', '33,25'],
      ['P01', '05/03/2026', 'CASH', '4,00'],
    ]);
    const total = records.slice(1).reduce((s, r) => s + cents(r[4]!), 0);
    const day = await db.pool.query<{ net: string }>(
      'SELECT net_cents::text AS net FROM daily_sales WHERE site_id = $1 AND fiscal_date = $2',
      [chain.sites.paris, DAY],
    );
    expect(total).toBe(Number(day.rows[0]!.net));

    const again = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx());
    expect(again.sent).toEqual([]);
    expect(again.skipped).toEqual([{ siteId: chain.sites.paris, date: DAY }]);
    const forced = await runIntegration(
      options(),
      { integrationId: id, plannedAt: PLANNED, again: true },
      ctx(),
    );
    expect(forced.sent).toHaveLength(1);
    const test = await runIntegration(
      options(),
      { integrationId: id, plannedAt: PLANNED, test: true },
      ctx(),
    );
    expect(test.sent[0]!.file).toBe('TEST_ECASH_P01_20260305.csv');
    const delivered = await db.pool.query(
      `SELECT status, attempts FROM integration_deliveries WHERE integration_id = $1`,
      [id],
    );
    expect(delivered.rows).toEqual([{ status: 'SENT', attempts: 2 }]);
  });

  it('delivers Adoria sales by article in Windows-1252 whose sums equal the family report to the cent', async () => {
    const id = await integration('adoria', { type: 'folder', dossier: 'adoria' });
    await runIntegration(options(), { integrationId: id, plannedAt: PLANNED, date: DAY }, ctx());
    const bytes = await readFile(path.join(dataDir, 'exports', 'adoria', 'VENTES_P01_20260305.csv'));
    const records: string[][] = parse(iconv.decode(bytes, 'windows-1252'), { delimiter: ';' });
    expect(records[0]).toEqual([
      'CODE_SITE',
      'DATE',
      'CODE_ARTICLE',
      'LIBELLE_ARTICLE',
      'QUANTITE',
      'CA_HT',
      'CA_TTC',
    ]);
    expect(records.slice(1)).toEqual([
      ['P01', '05/03/2026', 'A1', 'Croque-monsieur', '2,5', '28,41', '31,25'],
      ['P01', '05/03/2026', 'B2', 'Crème brûlée', '1', '5,46', '6,00'],
    ]);
    const family = await db.pool.query<{ net: string; excl: string }>(
      `SELECT sum(net_cents)::text AS net, sum(net_excl_cents)::text AS excl FROM daily_family_sales
        WHERE site_id = $1 AND fiscal_date = $2`,
      [chain.sites.paris, DAY],
    );
    expect(records.slice(1).reduce((s, r) => s + cents(r[6]!), 0)).toBe(Number(family.rows[0]!.net));
    expect(records.slice(1).reduce((s, r) => s + cents(r[5]!), 0)).toBe(Number(family.rows[0]!.excl));
  });

  it('delivers a chosen layout (columns chosen, renamed, reordered) whose totals equal the family report', async () => {
    const layout: Layout = {
      colonnes: [
        { champ: 'net', nom: 'TTC' },
        { champ: 'articleCode', nom: 'REF' },
        { champ: 'tax', nom: 'TVA' },
        { champ: 'date', nom: 'JOUR' },
        { champ: 'netExcl', nom: 'HT' },
        { champ: 'vatRate', nom: 'TAUX' },
      ],
      separateur: '|',
      virguleDecimale: false,
      encodage: 'utf-8',
      entete: true,
      formatDate: 'YYYYMMDD',
      nomFichier: '{partenaire}-{date}-{site}.txt',
    };
    const id = await integration('easilys', { type: 'folder', dossier: 'easilys/layout' }, null, layout);
    const sent = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED, date: DAY }, ctx());
    expect(sent.sent.map((f) => f.file)).toEqual(['easilys-20260305-P01.txt']);
    const text = await readFile(
      path.join(dataDir, 'exports', 'easilys', 'layout', 'easilys-20260305-P01.txt'),
      'utf8',
    );
    const records: string[][] = parse(text, { delimiter: '|' });
    expect(records).toEqual([
      ['TTC', 'REF', 'TVA', 'JOUR', 'HT', 'TAUX'],
      ['31.25', 'A1', '2.84', '20260305', '28.41', '10'],
      ['6.00', 'B2', '0.54', '20260305', '5.46', '10'],
    ]);
    const family = await db.pool.query<{ net: string; excl: string; tax: string }>(
      `SELECT sum(net_cents)::text AS net, sum(net_excl_cents)::text AS excl, sum(tax_cents)::text AS tax
         FROM daily_family_sales WHERE site_id = $1 AND fiscal_date = $2`,
      [chain.sites.paris, DAY],
    );
    const sum = (i: number) => records.slice(1).reduce((s, r) => s + cents(r[i]!), 0);
    expect([sum(0), sum(4), sum(2)]).toEqual([
      Number(family.rows[0]!.net),
      Number(family.rows[0]!.excl),
      Number(family.rows[0]!.tax),
    ]);
  });

  it('previews the first lines of the file a layout gives on real data, as it will be sent', async () => {
    const [profile] = await db.db
      .insert(profiles)
      .values({ titre: 'preview', droits: ['CONFIGURATION'], allSites: true, restaurantIds: [] })
      .returning({ id: profiles.id });
    const userId = await createUser(db.db, {
      login: 'preview',
      password: 'Secret-Password-1',
      profileId: profile!.id,
    });
    const mise: Layout = {
      ...defaultLayout('adoria'),
      colonnes: [
        { champ: 'article', nom: 'Libellé' },
        { champ: 'net', nom: 'TTC' },
      ],
    };
    const preview = await previewIntegration(db.pool, userId, {
      partenaire: 'adoria',
      sites: [chain.sites.paris],
      mise,
    });
    // The last day with sales of Paris is DAY; the file is Windows-1252, decoded back.
    expect(preview).toEqual({
      siteId: chain.sites.paris,
      dateFiscale: DAY,
      fichier: 'VENTES_P01_20260305.csv',
      lignes: ['Libellé;TTC', 'Croque-monsieur;31,25', 'Crème brûlée;6,00'],
      totalLignes: 3,
    });
    const id = await integration('adoria', { type: 'folder', dossier: 'adoria/preview' }, null, mise);
    await runIntegration(options(), { integrationId: id, plannedAt: PLANNED, date: DAY }, ctx());
    const bytes = await readFile(
      path.join(dataDir, 'exports', 'adoria', 'preview', 'VENTES_P01_20260305.csv'),
    );
    expect(iconv.decode(bytes, 'windows-1252')).toBe(`${preview.lignes.join('\r\n')}\r\n`);
  });

  it('refuses a folder outside DATA_DIR/exports/: .., absolute, NUL, a link leading out', async () => {
    for (const bad of ['../x', 'a/../../x', '/etc', 'a\0b']) expect(() => folderPath(dataDir, bad)).toThrow();
    await mkdir(path.join(dataDir, 'exports'), { recursive: true });
    const outside = await mkdtemp(path.join(os.tmpdir(), 'outside-'));
    await symlink(outside, path.join(dataDir, 'exports', 'link'));
    await expect(
      deliver({ type: 'folder', dossier: 'link' }, 'f.csv', Buffer.from('x'), 'utf-8', { dataDir }),
    ).rejects.toThrow(/leads out/);
    expect(await readdir(outside)).toEqual([]);
    await rm(outside, { recursive: true });
  });
});

describe('an HTTPS destination', () => {
  const endpoint = (): Destination => ({
    type: 'https',
    url: `https://localhost:${port}/ventes`,
    methode: 'POST',
    entetes: [{ nom: 'X-Client', valeur: 'comptoir', secret: false }],
  });

  it('keeps credentials encrypted with AES-256-GCM and reads them back only with the key', () => {
    const stored = encryptSecret(SECRET_KEY, TOKEN);
    expect(stored).not.toContain(TOKEN);
    expect(decryptSecret(SECRET_KEY, stored)).toBe(TOKEN);
    expect(() => decryptSecret('another key', stored)).toThrow();
    expect(() => encryptSecret(undefined, TOKEN)).toThrow(/COMPTOIR_SECRET_KEY/);
  });

  it('fails on a 500, which the retry then delivers, once', async () => {
    const secret = encryptSecret(SECRET_KEY, JSON.stringify([{ nom: 'Authorization', valeur: TOKEN }]));
    const id = await integration('consolidations', endpoint(), secret);
    answer = 500;
    received.length = 0;
    await expect(runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx())).rejects.toThrow(
      /HTTP 500/,
    );
    const failed = await db.pool.query(
      'SELECT status, error FROM integration_deliveries WHERE integration_id = $1',
      [id],
    );
    expect(failed.rows).toEqual([{ status: 'FAILED', error: 'the endpoint answered HTTP 500' }]);
    answer = 200;
    const retry = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx());
    expect(retry.sent).toHaveLength(1);
    expect(received).toHaveLength(2);
    const body: string[][] = parse(received[1]!.body, { delimiter: ',' });
    expect(body.slice(1).reduce((s, r) => s + cents(r[5]!), 0)).toBe(2450 + 1875 - 600);
    const done = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx());
    expect(done.sent).toEqual([]);
    expect(received).toHaveLength(2);
  });

  it('sends a chosen layout with public and secret headers; totals equal the payments report, no secret logged', async () => {
    const layout: Layout = {
      colonnes: [
        { champ: 'amount', nom: 'Montant' },
        { champ: 'method', nom: 'Moyen' },
        { champ: 'payments', nom: 'Nombre' },
        { champ: 'tickets', nom: 'Tickets' },
      ],
      separateur: ';',
      virguleDecimale: true,
      encodage: 'iso-8859-1',
      entete: false,
      formatDate: 'YYYY-MM-DD',
      nomFichier: 'conso_{site}_{date}.csv',
    };
    const apiKey = 'k3y-s3cr3t-of-the-api';
    const secret = encryptSecret(
      SECRET_KEY,
      JSON.stringify([
        { nom: 'Authorization', valeur: TOKEN },
        { nom: 'X-Api-Key', valeur: apiKey },
      ]),
    );
    const destination: Destination = {
      type: 'https',
      url: `https://localhost:${port}/conso`,
      methode: 'PUT',
      entetes: [
        { nom: 'X-Client', valeur: 'comptoir', secret: false },
        { nom: 'Authorization', secret: true },
        { nom: 'X-Api-Key', secret: true },
      ],
    };
    const id = await integration('consolidations', destination, secret, layout);
    answer = 200;
    received.length = 0;
    logs.length = 0;
    const run = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx());
    expect(run.sent.map((f) => f.file)).toEqual(['conso_P01_20260305.csv']);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers).toMatchObject({
      authorization: TOKEN,
      'x-api-key': apiKey,
      'x-client': 'comptoir',
      'content-type': 'text/csv; charset=iso-8859-1',
      'content-disposition': 'attachment; filename=conso_P01_20260305.csv',
    });
    const records: string[][] = parse(received[0]!.body, { delimiter: ';' });
    const { rows } = await db.pool.query<{ method: string; payments: number; cents: string }>(
      `SELECT method, payments, amount_cents::text AS cents FROM daily_payment_sales
        WHERE site_id = $1 AND fiscal_date = $2 ORDER BY method`,
      [chain.sites.paris, DAY],
    );
    expect(records.map((r) => [r[1], Number(r[2]), cents(r[0]!)])).toEqual(
      rows.map((r) => [r.method, r.payments, Number(r.cents)]),
    );
    // By hand from the tickets: CARD on tickets 1 and 2, CASH on 1 and 3 (the return).
    expect(records.map((r) => [r[1], r[3]])).toEqual([
      ['CARD', '2'],
      ['CASH', '2'],
    ]);
    expect(logs.join('\n')).toMatch(/integration file delivered/);
    for (const text of [logs.join('\n'), JSON.stringify(run)]) {
      expect(text).not.toContain('s3cr3t');
    }
  });

  it('fails a wrong credential with its reason, the secret in no log, error or row', async () => {
    const wrong = 'Bearer wrong-T0ken-also-secret';
    const secret = encryptSecret(SECRET_KEY, JSON.stringify([{ nom: 'Authorization', valeur: wrong }]));
    const id = await integration('easilys', endpoint(), secret);
    logs.length = 0;
    const error = await runIntegration(options(), { integrationId: id, plannedAt: PLANNED }, ctx()).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(logs.join('\n')).toMatch(/refused the credentials/);
    const rows = await db.pool.query('SELECT * FROM integration_deliveries WHERE integration_id = $1', [id]);
    const stored = await db.pool.query('SELECT * FROM integrations WHERE id = $1', [id]);
    for (const text of [error, logs.join('\n'), JSON.stringify(rows.rows), JSON.stringify(stored.rows)]) {
      expect(text).not.toContain('wrong-T0ken');
      expect(text).not.toContain('s3cr3t-T0ken');
    }
  });
});
