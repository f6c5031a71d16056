/**
 * The finance report family (SPEC.md §1: payments by method, VAT breakdown, Z report per site
 * and fiscal date), in the order bo/rapport/metrics lists them; registry.ts spreads it into the
 * registry.
 */
import type { ReportClass } from '../types.ts';
import { financeReport } from './payments.ts';
import { vatReport } from './vat.ts';
import { zReport } from './z.ts';

export const FINANCE_REPORTS: readonly ReportClass[] = [financeReport, vatReport, zReport];
