/**
 * The sales analyses (SPEC.md §1 "sales" beyond the daily sales report), in the order the
 * registry lists them, and the bare SQL each one sends (for benchmarks: a report's JSON answer
 * is timed against its own statement).
 */
import type { ReportClass, ReportRequest } from '../types.ts';
import { comparisonQuery, comparisonSalesReport } from './comparison.ts';
import { coversQuery, coversSalesReport } from './covers.ts';
import { familyQuery, familySalesReport } from './family.ts';
import { dayPartSalesReport, hourlyQuery, hourlySalesReport } from './hourly.ts';
import { paymentQuery, paymentSalesReport } from './payment.ts';
import { sellerQuery, sellerSalesReport, terminalQuery, terminalSalesReport } from './staff.ts';
import { vatQuery, vatSalesReport } from './vat.ts';

/** Every sales analysis class. */
export const SALES_ANALYSES: readonly ReportClass[] = [
  hourlySalesReport,
  dayPartSalesReport,
  familySalesReport,
  terminalSalesReport,
  sellerSalesReport,
  paymentSalesReport,
  vatSalesReport,
  coversSalesReport,
  comparisonSalesReport,
];

/** The one SQL statement each analysis runs for a checked request, by class name. */
export const SALES_ANALYSIS_QUERIES: Readonly<
  Record<string, (request: ReportRequest) => { text: string; values: unknown[] }>
> = {
  [hourlySalesReport.className]: hourlyQuery,
  [dayPartSalesReport.className]: hourlyQuery,
  [familySalesReport.className]: familyQuery,
  [terminalSalesReport.className]: terminalQuery,
  [sellerSalesReport.className]: sellerQuery,
  [paymentSalesReport.className]: paymentQuery,
  [vatSalesReport.className]: vatQuery,
  [coversSalesReport.className]: coversQuery,
  [comparisonSalesReport.className]: comparisonQuery,
};
