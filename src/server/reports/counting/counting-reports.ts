/** The counting report classes (issue #3), in the order bo/rapport/metrics lists them. */
import type { ReportClass } from '../types.ts';
import { cashCountReport } from './cash-count-report.ts';
import { receiptsReport } from './receipts-report.ts';
import { safeCountReport } from './safe-count-report.ts';

export const COUNTING_REPORTS: readonly ReportClass[] = [cashCountReport, safeCountReport, receiptsReport];
