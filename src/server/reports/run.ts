/**
 * Runs a checked report request: the class's query (or its stream, for large CSV and XLSX),
 * then the render options the documents need (chain name, clock, filters shown under the
 * period).
 */
import type { Dataset, ReportFormat } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import type { RenderOptions } from './render/cells.ts';
import { streamedDataset } from './render/streamed.ts';
import type { ResolvedReport } from './request.ts';
import { minutesToHhmm as hhmm } from './types.ts';

/** Formats written row by row as they are read, for classes that can stream. */
const STREAMED_FORMATS: ReadonlySet<ReportFormat> = new Set(['CSV', 'XLSX']);

/**
 * The dataset of `report` (money cells integer cents).
 *
 * For a CSV or XLSX of a class with `stream` whose rows are not filtered, grouped or sorted
 * afterwards (shaping.ts works on the whole table), the answer is a streamed dataset
 * (render/streamed.ts): its `rows` hold only the first batch read from the cursor, the
 * renderer writes the rest as it comes, and `totals` are final once everything is written. An
 * empty result is an ordinary empty dataset. Every other case reads the whole dataset.
 */
export async function runReport(report: ResolvedReport, database: Database): Promise<Dataset> {
  const { cls, request, shaping } = report;
  const shaped = shaping.rowFilter !== null || shaping.groupBy !== null || shaping.sort !== null;
  if (!cls.stream || !STREAMED_FORMATS.has(request.format) || shaped) return cls.query({ request, database });
  const stream = await cls.stream({ request, database });
  const batches = stream.rows[Symbol.asyncIterator]();
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
