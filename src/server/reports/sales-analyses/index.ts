/**
 * The sales analyses (SPEC.md §1 "sales" beyond the daily sales report), in the order the
 * registry lists them.
 */
import type { ReportClass } from '../types.ts';
import { comparisonSalesReport } from './comparison.ts';
import { coversSalesReport } from './covers.ts';
import { familySalesReport } from './family.ts';
import { dayPartSalesReport, hourlySalesReport } from './hourly.ts';
import { paymentSalesReport } from './payment.ts';
import { sellerSalesReport, terminalSalesReport } from './staff.ts';
import { vatSalesReport } from './vat.ts';

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
