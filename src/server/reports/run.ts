/**
 * Runs a checked report request: the class's query, then the render options the documents
 * need (chain name, clock, filters shown under the period).
 */
import type { Dataset } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import type { RenderOptions } from './render/cells.ts';
import type { ResolvedReport } from './request.ts';
import { minutesToHhmm as hhmm } from './types.ts';

/** The dataset of `report` (money cells integer cents). */
export function runReport(report: ResolvedReport, database: Database): Promise<Dataset> {
  return report.cls.query({ request: report.request, database });
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
