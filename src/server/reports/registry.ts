/**
 * The report registry (DESIGN.md §6): every report class the server offers, by wire
 * `rapportClassName`. Adding a class (tickets, cancellations, cash counting…) is one module
 * exporting a {@link ReportClass} and one line in {@link REPORT_CLASSES}; routes, metrics and
 * renderers pick it up from here.
 */
import { COUNTING_REPORTS } from './counting/counting-reports.ts';
import { FINANCE_REPORTS } from './finance/index.ts';
import { OPERATIONS_REPORTS } from './operations/index.ts';
import { salesReport } from './sales.ts';
import { SALES_ANALYSES } from './sales-analyses/index.ts';
import type { ReportClass } from './types.ts';

/** Every report class, in the order bo/rapport/metrics lists them. */
export const REPORT_CLASSES: readonly ReportClass[] = [
  salesReport,
  ...SALES_ANALYSES,
  ...OPERATIONS_REPORTS,
  ...FINANCE_REPORTS,
  ...COUNTING_REPORTS,
];

const BY_NAME = new Map(REPORT_CLASSES.map((c) => [c.className, c]));

/** The class named `className`, or undefined (the route answers 400 ErrorUnknownRap). */
export function findReportClass(className: string): ReportClass | undefined {
  return BY_NAME.get(className);
}
