/**
 * Runs a checked report request: the class's query (or its stream, for large CSV and XLSX),
 * then the render options the documents need (chain name, clock, filters shown under the
 * period).
 */
import type { Dataset, ReportFormat } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { archivedPeriods } from '../purge/archived-periods.ts';
import type { RenderOptions } from './render/cells.ts';
import { streamedDataset } from './render/streamed.ts';
import type { ResolvedReport } from './request.ts';
import { shapeDataset } from './shaping.ts';
import { type DatasetRow, minutesToHhmm as hhmm } from './types.ts';

/** Formats written row by row as they are read, for classes that can stream. */
const STREAMED_FORMATS: ReadonlySet<ReportFormat> = new Set(['CSV', 'XLSX']);

/**
 * Most rows of a report of a streaming class that is read whole, by format: a PDF (about 500
 * pages; laying one out takes memory and time in proportion to its rows), the JSON the screen shows, or a
 * CSV/XLSX that is filtered, grouped or sorted. Beyond it the server would hold the whole table
 * in memory for one user; the answer is ReportTooLarge, and the user can download the CSV or
 * XLSX (streamed, no limit) or choose a shorter period.
 */
export const MAX_ROWS_READ_WHOLE: Readonly<Record<ReportFormat, number>> = {
  PDF: 20_000,
  JSON: 50_000,
  CSV: 50_000,
  XLSX: 50_000,
};

/**
 * The dataset of `report` (money cells integer cents).
 *
 * For a CSV or XLSX of a class with `stream` whose rows are not filtered, grouped or sorted
 * afterwards (shaping.ts works on the whole table), the answer is a streamed dataset
 * (render/streamed.ts): its `rows` hold only the first batch read from the cursor, the
 * renderer writes the rest as it comes, and `totals` are final once everything is written. An
 * empty result is an ordinary empty dataset. Every other case reads the whole dataset — for a
 * class with `stream`, through its cursor and at most {@link MAX_ROWS_READ_WHOLE} rows for its format.
 * @throws DomainError invalid (400) ReportTooLarge beyond that.
 */
export async function runReport(report: ResolvedReport, database: Database): Promise<Dataset> {
  const { cls, request, shaping } = report;
  if (!cls.stream) return cls.query({ request, database });
  const shaped = shaping.rowFilter !== null || shaping.groupBy !== null || shaping.sort !== null;
  const stream = await cls.stream({ request, database });
  const batches = stream.rows[Symbol.asyncIterator]();
  if (!STREAMED_FORMATS.has(request.format) || shaped) {
    // Read whole, through the cursor, and stopped as soon as it is too large to hold.
    const maxRows = MAX_ROWS_READ_WHOLE[request.format];
    const rows: DatasetRow[] = [];
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      rows.push(...next.value);
      if (rows.length > maxRows) {
        await batches.return?.();
        throw new DomainError(
          'invalid',
          'ReportTooLarge',
          `more than ${maxRows} rows for ${request.format}: download it as CSV or XLSX, or choose a shorter period`,
          { maxRows },
        );
      }
    }
    return { ...stream.head, rows, totals: stream.totals() };
  }
  const first = await batches.next();
  if (first.done) return { ...stream.head, rows: [], totals: stream.totals() };
  return streamedDataset(stream.head, first.value, { batches, totals: stream.totals });
}

/**
 * What the documents of `report` show beyond the dataset. The chain is the brand (enseigne)
 * of the sites' companies, else `distribution` (the GET distribution name).
 */
export function renderOptionsFor(report: ResolvedReport, distribution: string): RenderOptions {
  const { request } = report;
  const brands = [...new Set(request.sites.map((s) => s.enseigne).filter((b): b is string => !!b))];
  return {
    language: request.language,
    chain: brands.length > 0 ? brands.join(', ') : distribution,
    timeZone: request.sites[0]?.timeZone ?? 'Europe/Paris',
    hours: request.hours
      ? { heureDebut: hhmm(request.hours.start), heureFin: hhmm(request.hours.end) }
      : null,
    fiscalDates: request.fiscalDates,
    trainingMode: request.trainingMode,
  };
}

/**
 * The dataset of a checked report as the caller asked for it: {@link runReport}, then filtered,
 * sorted and grouped (shaping.ts) in the request's language; `archived` says which days of it were
 * purged, where their detail was archived and the totals kept (purge/archived-periods.ts, issue #30).
 * @throws DomainError of {@link runReport} and shaping.ts.
 */
export async function reportDataset(report: ResolvedReport, database: Database): Promise<Dataset> {
  const { sites, dateDebut, dateFin } = report.request;
  const archived = await archivedPeriods(
    database.pool,
    sites.map((s) => s.id),
    dateDebut,
    dateFin,
  );
  const dataset = shapeDataset(await runReport(report, database), report.shaping, report.request.language);
  // Set on the dataset itself: a streamed dataset's totals are a getter a copy would freeze.
  if (archived.length > 0) dataset.archived = archived;
  return dataset;
}
