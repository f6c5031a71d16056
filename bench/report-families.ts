/**
 * Benchmark of every report family (issue #4 point 8) on whatever chain the pool's database
 * holds (the bench runner loads the demo chain, ~1.1 M ticket lines, first): for each family, a
 * year for every site (31 days for the classes capped at 31 days: tickets list, Z), timed three
 * ways in the same run, interleaved, median of several runs after a warm-up (two untimed
 * passes over every family, then two untimed rounds). Each round times every family once on
 * each path, the families in turn, so each family's samples are spread over the whole run:
 *
 * - "bare SQL": the very statement the report sends for that request (its exported builder),
 *   through the same pool — the baseline;
 * - "dataset": what bo/getReport?format=JSON does past authentication, as bench/reports.ts
 *   times it: check the request and read the sites (resolveReport), run the class query and
 *   build the dataset (runReport), serialise it to the UTF-8 bytes the route sends
 *   (render/json.ts datasetJsonBytes) — `ratio` is this over bare SQL;
 * - "HTTP": the whole GET /api/bo/getReport?format=JSON through the real Fastify app
 *   (`app.inject`, signed in as an administrator): session check, rights, scope, the edition
 *   record the route writes, serialisation — `httpRatio`. After the first call the session and
 *   the report's sites come from the server's caches (src/server/db/changes.ts), as they do for
 *   a user who keeps working; nothing changes those tables during the run. The request asks for
 *   no compression (no Accept-Encoding), so the time is the server's work on the answer without
 *   the brotli a browser gets (a year of sales by day, 360 kB → 44 kB: ~4 ms at quality 5).
 *   Measured apart (not in this bench): the same GET over a real loopback socket, with node:http
 *   as the client in this thread or in a worker thread, takes 0.2–0.9 ms more than app.inject;
 * - "HTTP, brotli" (for information, no target): the same GET asking `Accept-Encoding: br` as a
 *   browser on HTTPS does, so the answer's time includes its compression (app.ts: quality 4) —
 *   `httpBrotliRatio`.
 *
 * Also {@link benchSalesByDayVolume}: the sales-by-day report of a year on two chains of
 * different sizes (1 M and 10 M lines), to show the time does not grow with the lines.
 */
import os from 'node:os';
import path from 'node:path';
import { subDays } from 'date-fns/subDays';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import { parseWireDate, toWireDate } from '../src/contract/dates.ts';
import { buildApp } from '../src/server/app.ts';
import { RIGHTS } from '../src/contract/rights.ts';
import { createUser } from '../src/server/auth/users.ts';
import type { Database } from '../src/server/db/connect.ts';
import * as schema from '../src/server/db/schema.ts';
import { paymentsQuery } from '../src/server/reports/finance/payments.ts';
import { vatQuery as financeVatQuery } from '../src/server/reports/finance/vat.ts';
import { zQuery } from '../src/server/reports/finance/z.ts';
import { cancellationsQuery } from '../src/server/reports/operations/cancellations.ts';
import { correctionsQuery } from '../src/server/reports/operations/corrections.ts';
import { lossesQuery } from '../src/server/reports/operations/losses.ts';
import { ticketsQuery } from '../src/server/reports/operations/tickets.ts';
import { type RawReportInput, reportInput, resolveReport } from '../src/server/reports/request.ts';
import { runReport } from '../src/server/reports/run.ts';
import { editionsWritten } from '../src/server/reports/editions.ts';
import { datasetJsonBytes } from '../src/server/reports/render/json.ts';
import { salesQuery } from '../src/server/reports/sales.ts';
import { SALES_ANALYSIS_QUERIES } from '../src/server/reports/sales-analyses/index.ts';
import type { ReportRequest } from '../src/server/reports/types.ts';
import { benchConfig } from './start-settings.ts';

/**
 * Timed rounds (each times every family once on each path). The small families take 2–8 ms and
 * the machine's load moves a single run by up to a third: with 31 rounds the highest HTTP ratio
 * of a run still moved between 1.46 and 1.58 from one run to the next on the same chain; 61
 * halve the variance of each median (100–120 s for all the families on the demo chain).
 */
const RUNS = 61;
const WARM_UP = 2;
/** Untimed passes over all families before the first is timed (see benchReportFamilies). */
const GLOBAL_WARM_UP = 2;
const ADMIN = 'bench-admin';
const ADMIN_PASSWORD = 'Bench pass-phrase 2026, long enough!';

type SqlOf = (request: ReportRequest) => { text: string; values: unknown[] };

/** A family to time: its class, variant, period length and the builder of its statement. */
interface Family {
  label: string;
  className: string;
  variant: 'Daily' | 'Cumulative';
  /** Days of the period, ending at the last date with sales (the class's maxDays at most). */
  days: number;
  /** Hour range `[heureDebut, heureFin]` (trancheHoraire), when the case times one. */
  hours?: [string, string];
  sql: SqlOf;
}

/** A family being timed: its request, its paths (each with its times, ms) and its row count. */
interface FamilyCase {
  family: Family;
  input: RawReportInput;
  rows: number;
  sql: number[];
  dataset: number[];
  http: number[];
  httpBrotli: number[];
  paths: Array<{ times: number[]; run: () => Promise<unknown>; afterwards?: () => Promise<void> }>;
}

const analysis = (className: string): SqlOf => {
  const sql = SALES_ANALYSIS_QUERIES[className];
  if (!sql) throw new Error(`no query registered for ${className}`);
  return sql;
};

// The ticket list's SQL reads the class parameter `operation`, set by resolveReport.
const ticketsSql: SqlOf = (request) => ticketsQuery(request as Parameters<typeof ticketsQuery>[0]);

/** Every report family of SPEC.md §1 that reads sales data, in the order of the issue. */
export const FAMILIES: readonly Family[] = [
  { label: 'sales by day', className: 'RapportVentes', variant: 'Daily', days: 365, sql: salesQuery },
  {
    label: 'sales by day, 12:00–23:00',
    className: 'RapportVentes',
    variant: 'Daily',
    days: 365,
    hours: ['12:00', '23:00'],
    sql: salesQuery,
  },
  {
    label: 'sales by hour',
    className: 'RapportVentesHoraire',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesHoraire'),
  },
  {
    label: 'sales by day part',
    className: 'RapportVentesTranche',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesTranche'),
  },
  {
    label: 'sales by family',
    className: 'RapportVentesFamille',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesFamille'),
  },
  {
    label: 'sales by terminal',
    className: 'RapportVentesCaisse',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesCaisse'),
  },
  {
    label: 'sales by seller',
    className: 'RapportVentesVendeur',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesVendeur'),
  },
  {
    label: 'sales by payment method',
    className: 'RapportVentesPaiement',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesPaiement'),
  },
  {
    label: 'sales by VAT rate',
    className: 'RapportVentesTva',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesTva'),
  },
  {
    label: 'covers',
    className: 'RapportVentesCouverts',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesCouverts'),
  },
  {
    label: 'comparison (Daily)',
    className: 'RapportVentesComparaison',
    variant: 'Daily',
    days: 365,
    sql: analysis('RapportVentesComparaison'),
  },
  {
    label: 'comparison (Cumulative)',
    className: 'RapportVentesComparaison',
    variant: 'Cumulative',
    days: 365,
    sql: analysis('RapportVentesComparaison'),
  },
  {
    label: 'tickets (31 days, maxDays)',
    className: 'RapportTickets',
    variant: 'Daily',
    days: 31,
    sql: ticketsSql,
  },
  {
    label: 'cancellations',
    className: 'RapportAnnulations',
    variant: 'Daily',
    days: 365,
    sql: cancellationsQuery,
  },
  {
    label: 'corrections',
    className: 'RapportCorrections',
    variant: 'Daily',
    days: 365,
    sql: correctionsQuery,
  },
  { label: 'losses', className: 'RapportPertes', variant: 'Daily', days: 365, sql: lossesQuery },
  {
    label: 'finance (payments)',
    className: 'RapportFinance',
    variant: 'Daily',
    days: 365,
    sql: paymentsQuery,
  },
  { label: 'VAT breakdown', className: 'RapportTva', variant: 'Daily', days: 365, sql: financeVatQuery },
  { label: 'Z report (31 days, maxDays)', className: 'RapportZ', variant: 'Daily', days: 31, sql: zQuery },
];

/** One family's medians (milliseconds) and ratios to its bare SQL. */
export interface FamilyResult {
  name: string;
  rows: number;
  bareSqlMs: number;
  datasetMs: number;
  httpMs: number;
  /** datasetMs / bareSqlMs (target ≤ 1.5). */
  ratio: number;
  /** httpMs / bareSqlMs. */
  httpRatio: number;
  /**
   * For information, how far to trust the ratios: HTTP ÷ bare SQL within each round (the two
   * timed a few milliseconds apart, under the same load), the median and quartiles of those
   * ratios. A ratio of medians far from this median says the machine's load moved during the run.
   */
  httpRatioPerRound: { median: number; p25: number; p75: number };
  /** The HTTP answer asked with `Accept-Encoding: br` (compressed), median in ms. */
  httpBrotliMs: number;
  /** httpBrotliMs / bareSqlMs (for information: the target is on the uncompressed answer). */
  httpBrotliRatio: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

/** The last date with sales and the sites of the most common currency (one report cannot mix). */
async function chainScope(pool: pg.Pool): Promise<{ lastDate: string; siteIds: number[] }> {
  const { rows: last } = await pool.query<{ d: string | null }>(
    'SELECT max(fiscal_date)::text AS d FROM daily_sales',
  );
  const lastDate = last[0]?.d;
  if (!lastDate) throw new Error('report bench: the database holds no sales (daily_sales is empty)');
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM sites WHERE currency = (SELECT currency FROM sites GROUP BY currency ORDER BY count(*) DESC, currency LIMIT 1)
      ORDER BY id`,
  );
  return { lastDate, siteIds: rows.map((r) => r.id) };
}

function inputFor(
  family: Pick<Family, 'className' | 'variant' | 'days' | 'hours'>,
  lastDate: string,
  siteIds: number[],
): RawReportInput {
  return reportInput({
    rapportClassName: family.className,
    typeRapport: family.variant,
    format: 'JSON',
    language: 'fr',
    dateDebut: toWireDate(subDays(parseWireDate(lastDate)!, family.days - 1)),
    dateFin: lastDate,
    sites: siteIds,
    trancheHoraire: family.hours !== undefined,
    heureDebut: family.hours?.[0] ?? '12:00',
    heureFin: family.hours?.[1] ?? '23:00',
  });
}

/**
 * The bench's own administrator (every right, every site), created when missing. Not through
 * ensureAdministrator: the demo chain has users of its own (issue #18 demo users), and that one
 * creates an administrator only in a database without users.
 */
async function ensureBenchAdministrator(database: Database): Promise<void> {
  const { rows } = await database.pool.query('SELECT 1 FROM users WHERE login = $1', [ADMIN]);
  if (rows.length > 0) return;
  const { rows: profile } = await database.pool.query<{ id: number }>(
    `INSERT INTO profiles (titre, droits, all_sites) VALUES ('bench-administrator', $1, true)
     ON CONFLICT (titre) DO UPDATE SET droits = EXCLUDED.droits RETURNING id`,
    [[...RIGHTS]],
  );
  await createUser(database.db, { login: ADMIN, password: ADMIN_PASSWORD, profileId: profile[0]!.id });
}

/** The real app on `pool`, with an administrator signed in; `close()` stops the app only. */
async function signedInApp(database: Database): Promise<{
  app: FastifyInstance;
  userId: number;
  headers: Record<string, string>;
}> {
  const config = benchConfig(path.join(os.tmpdir(), 'comptoir-bench-unused'));
  await ensureBenchAdministrator(database);
  const app = await buildApp({ config, database });
  await app.ready();
  const basic = (secret: string) => `Basic ${Buffer.from(`${ADMIN}:${secret}`).toString('base64')}`;
  const res = await app.inject({
    method: 'GET',
    url: `/api/bo/connexion?username=${ADMIN}`,
    headers: { authorization: basic(ADMIN_PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  if (res.statusCode !== 200) throw new Error(`report bench: sign-in refused: ${res.statusCode} ${res.body}`);
  const { token } = res.json<{ token: string }>();
  const { rows } = await database.pool.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [
    ADMIN,
  ]);
  return {
    app,
    userId: rows[0]!.id,
    headers: { authorization: basic(token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  };
}

function reportUrl(userId: number, input: RawReportInput): string {
  const q = new URLSearchParams({
    id: String(userId),
    rapportClassName: input.rapportClassName,
    typeRapport: input.typeRapport,
    format: 'JSON',
    language: input.language,
    dateDebut: input.dateDebut ?? '',
    dateFin: input.dateFin ?? '',
    operation: input.operation,
  });
  if (input.trancheHoraire) {
    q.set('trancheHoraire', 'true');
    q.set('heureDebut', input.heureDebut);
    q.set('heureFin', input.heureFin);
  }
  for (const s of input.sites) q.append('sites[]', String(s));
  return `/api/bo/getReport?${q}`;
}

/**
 * Times every family of {@link FAMILIES} on the pool's chain (see the module comment).
 * @returns one result per family; prints a line each.
 * @throws Error when the database holds no sales, or when a report answers an error.
 */
export async function benchReportFamilies(pool: pg.Pool): Promise<FamilyResult[]> {
  const database: Database = { pool, db: drizzle(pool, { schema }), close: async () => {} };
  const { lastDate, siteIds } = await chainScope(pool);
  const { app, userId, headers } = await signedInApp(database);
  const results: FamilyResult[] = [];
  try {
    // The server a manager calls has answered reports before: one untimed pass over every
    // family through the three paths, so the first family timed does not pay for compiling the
    // code all of them share (routing, validation, session check, serialisation).
    for (let round = 0; round < GLOBAL_WARM_UP; round++) {
      for (const family of FAMILIES) {
        const input = inputFor(family, lastDate, siteIds);
        const resolved = await resolveReport(input, siteIds, database);
        await pool.query(family.sql(resolved.request));
        datasetJsonBytes(await runReport(resolved, database));
        const res = await app.inject({ method: 'GET', url: reportUrl(userId, input), headers });
        if (res.statusCode !== 200)
          throw new Error(`${family.className}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }
    // One timing context per family: its request, its three paths and their times.
    const cases: FamilyCase[] = [];
    for (const family of FAMILIES) {
      const input = inputFor(family, lastDate, siteIds);
      const resolvedOnce = await resolveReport(input, siteIds, database);
      const bare = family.sql(resolvedOnce.request);
      const url = reportUrl(userId, input);
      const c: FamilyCase = {
        family,
        input,
        rows: 0,
        sql: [],
        dataset: [],
        http: [],
        httpBrotli: [],
        paths: [],
      };
      const dataset = async () => {
        const resolved = await resolveReport(input, siteIds, database);
        const d = await runReport(resolved, database);
        c.rows = d.rows.length;
        return datasetJsonBytes(d).length;
      };
      // The answer is read as the bytes a client receives (a stream of chunks), not decoded into
      // one string as app.inject does by default: that decoding is the test client's work, not
      // the server's (~0.5 ms for a year of sales by day, 360 kB).
      const http = async (encoding?: 'br') => {
        const res = await app.inject({
          method: 'GET',
          url,
          headers: encoding ? { ...headers, 'accept-encoding': encoding } : headers,
          payloadAsStream: true,
        });
        const chunks: Buffer[] = [];
        for await (const chunk of res.stream()) chunks.push(chunk as Buffer);
        if (res.statusCode !== 200)
          throw new Error(
            `${family.className}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`,
          );
        const bytes = chunks.reduce((n, c) => n + c.length, 0);
        // @fastify/compress leaves answers under 1 kB as they are; anything larger must be brotli.
        if (encoding && bytes >= 1024 && res.headers['content-encoding'] !== encoding)
          throw new Error(
            `${family.className}: asked ${encoding}, answered ${res.headers['content-encoding'] ?? 'identity'}`,
          );
        return bytes;
      };
      c.paths = [
        { times: c.sql, run: () => pool.query(bare) },
        { times: c.dataset, run: dataset },
        // The edition the route records goes on after the answer (editions.ts): it is let land
        // before the next timing, so it does not run inside another path's time.
        { times: c.http, run: () => http(), afterwards: editionsWritten },
        { times: c.httpBrotli, run: () => http('br'), afterwards: editionsWritten },
      ];
      cases.push(c);
    }
    // Every round times each family once on each path, the families in turn: a family's samples
    // are spread over the whole run, not packed into the second or so it takes alone. A passing
    // disturbance of the machine (another process, a long garbage collection) then touches a few
    // samples of every family rather than most samples of one, whose median it would move; the
    // paths of one family are still timed back to back, under the same load.
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      for (let f = 0; f < cases.length; f++) {
        const c = cases[(f + i) % cases.length]!;
        // Rotate which path goes first, so none always meets a cold or a warm cache.
        for (let k = 0; k < c.paths.length; k++) {
          const path = c.paths[(k + i) % c.paths.length]!;
          const t = await timed(path.run);
          if (i >= WARM_UP) path.times.push(t.ms);
          await path.afterwards?.();
        }
      }
    }
    for (const c of cases) {
      const bareSqlMs = median(c.sql);
      const datasetMs = median(c.dataset);
      const httpMs = median(c.http);
      const httpBrotliMs = median(c.httpBrotli);
      const perRound = c.http.map((ms, i) => ms / c.sql[i]!).sort((a, b) => a - b);
      const quantile = (q: number) => round2(perRound[Math.round(q * (perRound.length - 1))]!);
      const { input } = c;
      const result: FamilyResult = {
        name: `${c.family.label}: ${input.rapportClassName} ${input.typeRapport}, ${input.dateDebut}..${input.dateFin}, ${siteIds.length} sites`,
        rows: c.rows,
        bareSqlMs: round2(bareSqlMs),
        datasetMs: round2(datasetMs),
        httpMs: round2(httpMs),
        ratio: round2(datasetMs / bareSqlMs),
        httpRatio: round2(httpMs / bareSqlMs),
        httpRatioPerRound: { median: round2(median(perRound)), p25: quantile(0.25), p75: quantile(0.75) },
        httpBrotliMs: round2(httpBrotliMs),
        httpBrotliRatio: round2(httpBrotliMs / bareSqlMs),
      };
      console.log(
        `  ${result.name}: ${c.rows} rows, bare SQL ${result.bareSqlMs} ms, dataset ${result.datasetMs} ms (×${result.ratio}), HTTP ${result.httpMs} ms (×${result.httpRatio}; per round ×${result.httpRatioPerRound.median}, ${result.httpRatioPerRound.p25}–${result.httpRatioPerRound.p75}); brotli ${result.httpBrotliMs} ms (×${result.httpBrotliRatio})`,
      );
      results.push(result);
    }
  } finally {
    await app.close();
  }
  return results;
}

/**
 * The sales-by-day report of a year for every site on two chains (`small`, `large`: pools on
 * databases holding e.g. 1 M and 10 M ticket lines), dataset and bare SQL medians on each, and
 * `largeOverSmall` = dataset time on the large chain over the small one (target: ≤ 1, and under
 * 50 ms on each).
 */
export async function benchSalesByDayVolume(
  small: { pool: pg.Pool; lines: number },
  large: { pool: pg.Pool; lines: number },
): Promise<{
  name: string;
  smallLines: number;
  largeLines: number;
  smallMs: number;
  largeMs: number;
  smallBareSqlMs: number;
  largeBareSqlMs: number;
  largeOverSmall: number;
}> {
  const family = FAMILIES[0]!;
  const measure = async (pool: pg.Pool) => {
    const database: Database = { pool, db: drizzle(pool, { schema }), close: async () => {} };
    const { lastDate, siteIds } = await chainScope(pool);
    const input = inputFor(family, lastDate, siteIds);
    const bare = family.sql((await resolveReport(input, siteIds, database)).request);
    return {
      report: async () =>
        datasetJsonBytes(await runReport(await resolveReport(input, siteIds, database), database)),
      sql: () => pool.query(bare),
    };
  };
  const a = await measure(small.pool);
  const b = await measure(large.pool);
  const times = { a: [] as number[], b: [] as number[], aSql: [] as number[], bSql: [] as number[] };
  for (let i = 0; i < WARM_UP + 2 * RUNS; i++) {
    // Alternate the chains so both meet the same machine load.
    const first = i % 2 === 0 ? [a, b] : [b, a];
    for (const side of first) {
      const report = await timed(side.report);
      const sql = await timed(side.sql);
      if (i < WARM_UP) continue;
      (side === a ? times.a : times.b).push(report.ms);
      (side === a ? times.aSql : times.bSql).push(sql.ms);
    }
  }
  const result = {
    name: `sales by day, a year, every site: ${small.lines.toLocaleString('en')} vs ${large.lines.toLocaleString('en')} lines`,
    smallLines: small.lines,
    largeLines: large.lines,
    smallMs: round2(median(times.a)),
    largeMs: round2(median(times.b)),
    smallBareSqlMs: round2(median(times.aSql)),
    largeBareSqlMs: round2(median(times.bSql)),
    largeOverSmall: round2(median(times.b) / median(times.a)),
  };
  console.log(
    `  ${result.name}: ${result.smallMs} ms vs ${result.largeMs} ms (×${result.largeOverSmall}); bare SQL ${result.smallBareSqlMs} vs ${result.largeBareSqlMs} ms`,
  );
  return result;
}
